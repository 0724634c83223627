/*
 * fusec_ref.h: the host reference of every builtin, in double.
 *
 * Written apart from fusec_ops.cuh on purpose (libm in double, none of the
 * fx_ functions), so that a slip in one shows up as a mismatch against the
 * other. Plain C (C99 and later) that also compiles as C++ under nvcc. Needs
 * fusec_dtype.h first (the FX_* dtypes).
 *
 * A chain's reference function (FusecChain.reference) is built from these:
 * ref_<name>(...) for each builtin, ref_lt .. ref_ne for the comparisons
 * (0.0 or 1.0), ref_where, and ref_round(v, dtype) for the rounding to a
 * storage dtype. The builtin round is ref_roundeven (torch.round rounds halves
 * to even, as C23's roundeven), because ref_round is the storage rounding.
 *
 * Fragile elements. The device computes in float (or double) what the
 * reference computes in double, so their values differ by rounding. Where an
 * op jumps (a comparison, floor, round, sign, ...), an input within that
 * rounding of the jump may land on the other side on the device; such an
 * element proves nothing, and the harness skips it. Every discontinuous op
 * sets fusec_ref_fragile = 1 when its argument lies within relative distance
 * fusec_ref_eps of a jump. The harness sets fusec_ref_eps and fusec_ref_tiny
 * for the chain's least precise dtype and clears fusec_ref_fragile before
 * each element.
 */
#ifndef FUSEC_REF_H
#define FUSEC_REF_H

#include <math.h>
#include <float.h>
#include <string.h>

/* A chain uses a few of these functions; nvcc would warn about each unused
 * one (#177) once they are pasted into the .cu file. */
#ifdef __CUDACC__
#pragma nv_diagnostic push
#pragma nv_diag_suppress 177
#endif

/* Relative distance to a jump that counts as "too close": about 4 ulps of
 * the least precise dtype, 2^-8 for f16, 2^-5 for bf16, 2^-20 for f32,
 * 2^-48 for f64 (the harness sets it). */
static double fusec_ref_eps = 9.5367431640625e-07; /* 2^-20 */
/* Magnitudes at or below this count as zero: the dtype's smallest normal. */
static double fusec_ref_tiny = 1.1754943508222875e-38; /* 2^-126 */
/* Set by an op evaluated close to a jump; cleared by the caller. */
static int fusec_ref_fragile = 0;
/* 1: a value exactly halfway between two fp8 codes is one on the device too
 * (the unfused version, whose kernels store each op's result rounded); 0: it
 * may not be (the fused version, where nvcc contracts a * b + c into one FMA
 * across ops, so that 6 * (1/6) + c is not rounded at 1 first), and the
 * element is fragile. The harness sets it for each version. */
static int fusec_ref_ties_exact = 1;
/* The largest magnitude any value of the element passed through: the error
 * of a difference of such values is a few of their ulps, however small the
 * result (the harness adds that to the tolerance). */
static double fusec_ref_scale = 0;

/* True when a and b are both finite and within fusec_ref_eps of each other. */
static inline int ref_near(double a, double b)
{
    double m;
    if (!isfinite(a) || !isfinite(b))
        return 0;
    m = fmax(fmax(fabs(a), fabs(b)), fusec_ref_tiny);
    return fabs(a - b) <= fusec_ref_eps * m;
}

/* x is close to the jump at j (an integer or half-integer). Far from 0 the
 * jump (1) is lost in the value's own rounding, and the relative tolerance
 * of the comparison covers it: not fragile above 16 / eps. */
static inline void ref_mark_jump(double x, double j)
{
    if (ref_near(x, j) && fabs(x) * fusec_ref_eps < 16.0)
        fusec_ref_fragile = 1;
}

/* ---- rounding to a storage dtype ---- */

/* v rounded to nearest even in a binary format of p significant bits,
 * smallest normal exponent emin and largest finite value max_finite, with
 * subnormals and overflow to +-inf (inf 0: to NaN, for a format without an
 * infinity whose code above max_finite is NaN). The spacing of representable values
 * around |v| is 2^(e - p) where 2^(e-1) <= |v| < 2^e (fixed at
 * 2^(emin + 1 - p) below the normal range); |v| / spacing is exact, so
 * nearbyint does the one rounding. */
static inline double ref_pow2(int k) /* 2^k for -1022 <= k <= 1023, exactly */
{
    unsigned long long b = (unsigned long long)(k + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}
static inline double ref_round_format(double v, int p, int emin, int emax, double max_finite, int inf)
{
    /* Written with bit extraction and one exact add/subtract rather than
     * frexp/ldexp/nearbyint: compiled by nvcc with gcc 13 at -O3, the libm
     * form gave wrong f16 roundings, while gcc 12 and clang gave right ones
     * (docs/testing.md). */
    double a = v < 0 ? -v : v, top, q, r;
    volatile double big; /* keeps (a + big) - big from being folded to a */
    unsigned long long bits;
    int e;
    if (!(a > 0) || a > DBL_MAX)
        return v; /* NaN, +-0, +-inf */
    /* Overflow threshold: halfway between max_finite and the next code up.
     * With an infinity (max_finite's mantissa all ones, odd) a value at it
     * rounds to the even side, which is infinity; f8e4m3's max_finite 448
     * has the even mantissa 110, so 464 rounds to it and only values above
     * overflow, to NaN (the next code, 480's, is NaN). */
    top = max_finite + ref_pow2(emax - p);
    if (fabs(a - top) <= fusec_ref_eps * top)
        fusec_ref_fragile = 1;
    if (inf ? a >= top : a > top) {
        fusec_ref_fragile = 1; /* a finite value overflowed in the rounding */
        return inf ? (v < 0 ? -HUGE_VAL : HUGE_VAL) : NAN;
    }
    memcpy(&bits, &a, sizeof bits);
    e = (int)(bits >> 52) - 1023; /* floor(log2 a); double subnormals give -1023 */
    if (e < emin)
        e = emin; /* below the format's normals the spacing is fixed */
    q = ref_pow2(e - (p - 1));        /* the spacing of the format at a */
    big = q * 4503599627370496.0;     /* q * 2^52: adding it rounds a to a multiple of q, to even */
    r = (a + big) - big;
    if (r == 0)
        fusec_ref_fragile = 1; /* a nonzero value underflowed to zero: a jump (0 * inf) */
    return v < 0 ? -r : r;
}

/* The value v takes when stored as dtype (an FX_* of fusec_dtype.h), exactly
 * as the device's round-to-nearest-even conversion does it. A bool is v != 0
 * (NaN is true, as tensor.to(torch.bool)). */
/* An arithmetic result that overflowed from finite operands is a jump too:
 * the device may fuse a multiply and an add (one rounding, no overflow in
 * between) or overflow a step earlier or later, so the element is not
 * compared. Infinities that come from infinite inputs are compared. */
static inline double ref_ovf(double r, double a, double b)
{
    if (isinf(r) && isfinite(a) && isfinite(b))
        fusec_ref_fragile = 1;
    return r;
}
static inline long long ref_float_to_int(double v, int dtype, int mark_jumps, int from_f64); /* integers, below */
static inline double ref_round(double v, int dtype);
/* A value stored as fp8, as c10 converts it: to float first (a double
 * rounds twice, as PyTorch's .to() does on CUDA: c10's constructor takes a
 * float), then to the format, to nearest even, overflow as the row's inf
 * column says (infinity and NaN: fp8's own). An element whose float lies
 * within fusec_ref_eps of a rounding boundary of the format (a halfway point
 * between two codes, the overflow threshold) may round the other way on the
 * device, from a float a few ulps away: it is fragile, so that an fp8 value
 * is exact wherever it is compared, and everything computed from it too;
 * an exact tie is not (below). */
static inline double ref_round_fp8(double v, int dtype)
{
    const FusecDtype *d = &fusec_dtype[dtype];
    double f = ref_round(v, FX_F32), r, lo, hi;
    int fragile = fusec_ref_fragile, tie;
    if (isnan(f))
        return f;
    if (isinf(f))
        return d->inf ? f : NAN;
    r = ref_round_format(f, d->prec, d->emin, d->emax, d->max_finite, d->inf);
    lo = ref_round_format(f * (1 - fusec_ref_eps), d->prec, d->emin, d->emax, d->max_finite, d->inf);
    hi = ref_round_format(f * (1 + fusec_ref_eps), d->prec, d->emin, d->emax, d->max_finite, d->inf);
    /* an exact tie (a value of prec + 1 bits, not of prec) rounds the same
     * on the device, which computes it exactly too, where the device rounds
     * every op as the reference does (fusec_ref_ties_exact) */
    tie = fusec_ref_ties_exact && r != f && ref_round_format(f, d->prec + 1, d->emin, 1023, DBL_MAX, 1) == f;
    /* the neighbours' own rounding must not mark it (their overflow, their
     * underflow): only a different result does */
    fusec_ref_fragile = fragile;
    if (!tie && (!(lo == r || (isnan(lo) && isnan(r))) || !(hi == r || (isnan(hi) && isnan(r)))))
        fusec_ref_fragile = 1;
    if (r == 0 && f != 0)
        fusec_ref_fragile = 1; /* underflow to zero: a jump (0 * inf) */
    return r;
}
static inline double ref_round(double v, int dtype)
{
    if (isfinite(v) && fabs(v) > fusec_ref_scale)
        fusec_ref_scale = fabs(v);
    const FusecDtype *d = &fusec_dtype[dtype];
    if (d->kind == FX_KIND_BOOL) { /* jumps at 0; an exact 0 (a false comparison) is safe */
        if (v != 0 && fabs(v) <= fusec_ref_tiny)
            fusec_ref_fragile = 1;
        return v != 0 ? 1.0 : 0.0;
    }
    if (d->kind == FX_KIND_INT)
        return (double)ref_float_to_int(v, dtype, 1, 1); /* a double stored, as fx_to_<int>(double) */
    if (d->prec >= 53)
        return v; /* double itself */
    /* f32: a cast is exact and fast, but only defined below FLT_MAX */
    if (dtype == FX_F32 && fabs(v) < FLT_MAX * (1 - fusec_ref_eps)) {
        if (v != 0 && (float)v == 0)
            fusec_ref_fragile = 1; /* underflow to zero */
        return (double)(float)v;
    }
    if (FX_IS_FP8(dtype))
        return ref_round_fp8(v, dtype);
    return ref_round_format(v, d->prec, d->emin, d->emax, d->max_finite, d->inf);
}

/* ---- integers: exact, in long long, which holds every integer dtype ----
 * The same rules as fusec_ops.cuh's fx_int_ functions, written apart from
 * them in C: each value is reduced to its dtype's bits (ref_wrap) after each
 * operation, as the device stores it, so i64 is exact beyond 2^53. */

/* v as dtype's two's complement bits say: its low 8 * size bits, sign-extended
 * for a signed dtype. */
static inline long long ref_wrap(unsigned long long v, int dtype)
{
    const FusecDtype *d = &fusec_dtype[dtype];
    int bits = 8 * d->size;
    long long r;
    if (bits < 64) {
        v &= (1ull << bits) - 1;
        if (d->prec < bits && (v >> (bits - 1) & 1))
            v |= ~0ull << bits;
    }
    memcpy(&r, &v, sizeof r); /* no implementation-defined conversion */
    return r;
}
static inline int ref_int_signed(int dtype) { return fusec_dtype[dtype].prec < 8 * fusec_dtype[dtype].size; }

/* A float stored as integer dtype: toward zero through the signed type of
 * the dtype's "via" bytes, saturating there (NaN: 0 from a float through 4
 * bytes, the minimum from a double (from_f64) or through 8), then the low
 * bits. The
 * conversion jumps at every integer: a value next to one (mark_jumps) may be
 * on the other side of it on the device. */
static inline long long ref_float_to_int(double v, int dtype, int mark_jumps, int from_f64)
{
    int via = 8 * fusec_dtype[dtype].via;
    double top = ldexp(1.0, via - 1), t;
    unsigned long long u;
    if (v != v)
        return via == 64 || from_f64 ? ref_wrap(1ull << (via - 1), dtype) : 0;
    if (mark_jumps && fabs(v) < top)
        ref_mark_jump(v, nearbyint(v));
    if (v >= top)
        return ref_wrap((1ull << (via - 1)) - 1, dtype);
    if (v < -top)
        return ref_wrap(0 - (1ull << (via - 1)), dtype);
    t = trunc(v);
    u = t < 0 ? 0 - (unsigned long long)(-t) : (unsigned long long)t;
    return ref_wrap(u, dtype);
}

/* An integer converted to float dtype, as the device does: rounded to
 * nearest even in float (24 bits) or double (53 bits), then, for f16 and
 * bf16, to the dtype (c10 builds them from a float). */
static inline double ref_int_to_float(long long v, int dtype)
{
    int p = dtype == FX_F64 ? 53 : 24, len = 0;
    unsigned long long m = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v, q, rem, half;
    double r;
    while (len < 64 && m >> len)
        len++;
    if (len <= p) {
        r = (double)m;
    } else { /* keep p bits, to nearest even */
        q = m >> (len - p);
        rem = m & ((1ull << (len - p)) - 1);
        half = 1ull << (len - p - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        r = ldexp((double)q, len - p);
    }
    r = v < 0 ? -r : r;
    return dtype == FX_F16 || dtype == FX_BF16 ? ref_round(r, dtype) : r;
}

static inline long long ref_int_add(long long a, long long b, int dt) { return ref_wrap((unsigned long long)a + (unsigned long long)b, dt); }
static inline long long ref_int_sub(long long a, long long b, int dt) { return ref_wrap((unsigned long long)a - (unsigned long long)b, dt); }
static inline long long ref_int_mul(long long a, long long b, int dt) { return ref_wrap((unsigned long long)a * (unsigned long long)b, dt); }
static inline long long ref_int_neg(long long a, int dt) { return ref_wrap(0 - (unsigned long long)a, dt); }
static inline long long ref_int_abs(long long a, int dt) { return a < 0 ? ref_int_neg(a, dt) : a; }
static inline long long ref_int_relu(long long a) { return a > 0 ? a : 0; }
static inline long long ref_int_sign(long long a) { return (a > 0) - (a < 0); }
static inline long long ref_int_min(long long a, long long b) { return a < b ? a : b; }
static inline long long ref_int_max(long long a, long long b) { return a > b ? a : b; }
static inline long long ref_int_clamp(long long x, long long lo, long long hi) { return ref_int_min(ref_int_max(x, lo), hi); }
static inline long long ref_int_and(long long a, long long b) { return a & b; }
static inline long long ref_int_or(long long a, long long b) { return a | b; }
static inline long long ref_int_xor(long long a, long long b) { return a ^ b; }
static inline long long ref_int_not(long long a, int dt) { return ref_wrap(~(unsigned long long)a, dt); }

/* Division by zero and MIN / -1: what NVIDIA's division gives eager's
 * unguarded kernels (fusec_ops.cuh, fx_int_div0, says which). */
static inline long long ref_int_div0(long long a, int dt)
{
    return fusec_dtype[dt].size == 8 && a >= 0 && a <= 0xFFFFFFFFll ? 0xFFFFFFFFll : ref_wrap(~0ull, dt);
}
static inline long long ref_int_tdiv(long long a, long long b, int dt)
{
    return b == 0 ? ref_int_div0(a, dt) : ref_int_signed(dt) && b == -1 ? ref_int_neg(a, dt) : a / b;
}
static inline long long ref_int_trem(long long a, long long b, int dt)
{
    return b == 0 ? ref_int_div0(a, dt) : ref_int_signed(dt) && b == -1 ? 0 : a % b;
}
static inline long long ref_int_floor_divide(long long a, long long b, int dt)
{
    long long q = ref_int_tdiv(a, b, dt);
    if ((a < 0) != (b < 0) && ref_int_trem(a, b, dt) != 0)
        q = ref_int_sub(q, 1, dt);
    return q;
}
static inline long long ref_int_remainder(long long a, long long b, int dt)
{
    long long r = ref_int_trem(a, b, dt);
    return r != 0 && (r < 0) != (b < 0) ? ref_int_add(r, b, dt) : r;
}
/* Shift counts below 0 (read in the dtype as signed: 128..255 in u8) or
 * from the width on: << gives 0, >> shifts by width - 1 (signed) or width. */
static inline int ref_int_count_bad(long long b, int dt, int width)
{
    return b < 0 || (!ref_int_signed(dt) && b >= (1ll << (8 * fusec_dtype[dt].size - 1))) || b >= width;
}
static inline long long ref_int_shl(long long a, long long b, int dt)
{
    int width = 8 * fusec_dtype[dt].size;
    return ref_int_count_bad(b, dt, width) ? 0 : ref_wrap((unsigned long long)a << b, dt);
}
static inline long long ref_int_shr(long long a, long long b, int dt)
{
    int width = 8 * fusec_dtype[dt].size - ref_int_signed(dt);
    long long s = ref_int_count_bad(b, dt, width) ? width : b;
    if (s >= 64)
        return 0;
    return a < 0 ? ~(~a >> s) : a >> s; /* arithmetic, without implementation-defined shifts of negatives */
}

/* ---- the builtins (same list and order as fusec_ops.cuh) ---- */

static inline double ref_abs(double x) { return fabs(x); }
static inline double ref_neg(double x) { return -x; }
static inline double ref_relu(double x) { return isnan(x) ? x : x > 0 ? x : 0.0; }

/* (0 < x) - (x < 0): sign(NaN) = 0; jumps at 0. An exact 0 is computed
 * exactly on both sides; a nonzero value below the smallest normal may not. */
static inline double ref_sign(double x)
{
    if (x != 0 && fabs(x) <= fusec_ref_tiny)
        fusec_ref_fragile = 1;
    return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
}

static inline double ref_leaky_relu(double x, double slope) { return x > 0 ? x : x * slope; }

static inline double ref_exp(double x) { return exp(x); }
static inline double ref_exp2(double x) { return exp2(x); }
static inline double ref_expm1(double x) { return expm1(x); }
static inline double ref_log(double x) { return log(x); }
static inline double ref_log2(double x) { return log2(x); }
static inline double ref_log1p(double x) { return log1p(x); }
static inline double ref_sqrt(double x) { return sqrt(x); }
static inline double ref_rsqrt(double x) { return 1.0 / sqrt(x); }
static inline double ref_reciprocal(double x) { return 1.0 / x; }
static inline double ref_div(double a, double b) { return a / b; } /* fx_div */

static inline double ref_sin(double x) { return sin(x); }
static inline double ref_cos(double x) { return cos(x); }
static inline double ref_tanh(double x) { return tanh(x); }
static inline double ref_erf(double x) { return erf(x); }

/* floor, ceil and trunc jump at the integers, round at the half-integers. */
static inline double ref_floor(double x)
{
    ref_mark_jump(x, nearbyint(x));
    return floor(x);
}
static inline double ref_ceil(double x)
{
    ref_mark_jump(x, nearbyint(x));
    return ceil(x);
}
static inline double ref_trunc(double x)
{
    ref_mark_jump(x, nearbyint(x));
    return trunc(x);
}
/* torch.round: to nearest, halves to even. */
static inline double ref_roundeven(double x)
{
    double r = nearbyint(x); /* default rounding mode: to nearest even */
    ref_mark_jump(x, floor(x) + 0.5);
    return r;
}

static inline double ref_sigmoid(double x)
{
    if (isnan(x))
        return x;
    return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));
}

/* x * sigmoid(x); silu(-inf) = -inf * 0 = NaN, as torch. */
static inline double ref_silu(double x)
{
    if (isinf(x))
        return x > 0 ? x : NAN;
    return x * ref_sigmoid(x);
}

/* 0.5 * x * (1 + erf(x / sqrt 2)), with 1 + erf(z) = erfc(-z): 1 + erf
 * loses all its digits in double too, below x = -8. */
static inline double ref_gelu(double x) { return 0.5 * x * erfc(-x / sqrt(2.0)); }

/* 0.5 * x * (1 + tanh(u)); for u < 0, 1 + tanh(u) = 2 e^2u / (1 + e^2u)
 * keeps its digits where 1 + tanh(u) cancels. */
static inline double ref_gelu_tanh(double x)
{
    const double k = sqrt(2.0 / 3.14159265358979323846);
    double u = k * (x + 0.044715 * x * x * x);
    double one_plus_tanh = u >= 0 || isnan(u) ? 1.0 + tanh(u) : 2.0 * exp(2.0 * u) / (1.0 + exp(2.0 * u));
    return 0.5 * x * one_plus_tanh;
}

static inline double ref_softplus(double x) { return x > 20 ? x : log1p(exp(x)); }

/* x * tanh(softplus(x)) without a threshold: in double, exp(x) overflows
 * only above 709, where tanh is 1 long before; mish(-inf) = NaN, as torch. */
static inline double ref_mish(double x) { return x * tanh(log1p(exp(x))); }

/* The unfused f64 kernels' forms (fx_hardsigmoid_aten): eager's
 * (double)(1.0f / 6.0f) for a sixth. */
static inline double ref_hardsigmoid_aten(double x)
{
    return isnan(x) ? x : fmin(fmax(x + 3.0, 0.0), 6.0) * (double)(1.0f / 6.0f);
}
static inline double ref_hardswish_aten(double x)
{
    return isnan(x) ? x : x * fmin(fmax(x + 3.0, 0.0), 6.0) * (double)(1.0f / 6.0f);
}

static inline double ref_hardsigmoid(double x)
{
    if (isnan(x))
        return x;
    return fmin(fmax(x + 3.0, 0.0), 6.0) / 6.0;
}
/* ATen's order, x * hard6(x) / 6: x * 6 overflows for |x| above max / 6,
 * where the device's f32 math does too and the double reference would not,
 * so such an element is a jump (f32: above 5.6e37). */
static inline double ref_hardswish(double x)
{
    if (isfinite(x) && fabs(x) > 5.6e37)
        fusec_ref_fragile = 1;
    if (isnan(x))
        return x;
    return x * fmin(fmax(x + 3.0, 0.0), 6.0) / 6.0;
}

static inline double ref_min(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? a : b;
    return a < b ? a : b;
}
static inline double ref_max(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? a : b;
    return a > b ? a : b;
}

static inline double ref_pow(double a, double b) { return pow(a, b); }
/* torch.pow(tensor, number) on a tensor of dtype dt, by eager's rule: c =
 * 0.5 and -0.5 are sqrt and rsqrt (which differ from pow at -0 and -inf);
 * then c is rounded to dt, and for 2, 3 and -2 the products are rounded to dt
 * (eager multiplies in the tensor's dtype). With dt the compute type (f32,
 * f64) this is also the fused kernel's rule. */
static inline double ref_pow_scalar(double a, double c, int dt)
{
    if (c == 0.5)
        return sqrt(a);
    if (c == -0.5)
        return 1.0 / sqrt(a);
    double r = ref_round(c, dt);
    if (r == 3)
        return ref_round(a * a, dt) * a;
    if (r == -2)
        return 1.0 / ref_round(a * a, dt);
    return pow(a, r);
}

/* a % b and a // b: a - floor(a / b) * b and floor(a / b), exactly. Both
 * jump where a / b crosses an integer. remainder has the divisor's sign;
 * ref_py_mod is Python's float %, which also gives a zero that sign (fusec
 * folds literals as Python does). */
static inline double ref_remainder(double a, double b)
{
    double q = a / b, m = fmod(a, b); /* fmod is exact */
    ref_mark_jump(q, nearbyint(q));
    if (m != 0 && (m < 0) != (b < 0))
        m += b;
    return m;
}
static inline double ref_py_mod(double a, double b)
{
    double m = ref_remainder(a, b);
    return m == 0 ? copysign(0.0, b) : m;
}
static inline double ref_floor_divide(double a, double b)
{
    double q = a / b, m = fmod(a, b), f;
    if (b == 0 || isnan(m))
        return b == 0 ? q : m; /* IEEE's a / 0; NaN for an infinite a, as Python */
    ref_mark_jump(q, nearbyint(q));
    f = (a - m) / b; /* an integer, or within an ulp of one */
    f = nearbyint(f) - (m != 0 && (m < 0) != (b < 0));
    return f == 0 ? copysign(0.0, q) : f;
}

static inline double ref_clamp(double x, double lo, double hi)
{
    if (isnan(x) || isnan(lo) || isnan(hi))
        return isnan(x) ? x : isnan(lo) ? lo : hi;
    x = x < lo ? lo : x;
    return x > hi ? hi : x;
}

static inline double ref_where(double c, double a, double b) { return c != 0 ? a : b; }

/* ---- comparisons: 1.0 or 0.0; fragile when a and b are within eps ---- */

static inline double ref_cmp(int result, double a, double b)
{
    if (ref_near(a, b))
        fusec_ref_fragile = 1;
    return result ? 1.0 : 0.0;
}
static inline double ref_lt(double a, double b) { return ref_cmp(a < b, a, b); }
static inline double ref_le(double a, double b) { return ref_cmp(a <= b, a, b); }
static inline double ref_gt(double a, double b) { return ref_cmp(a > b, a, b); }
static inline double ref_ge(double a, double b) { return ref_cmp(a >= b, a, b); }
static inline double ref_eq(double a, double b) { return ref_cmp(a == b, a, b); }
static inline double ref_ne(double a, double b) { return ref_cmp(a != b, a, b); }

#ifdef __CUDACC__
#pragma nv_diagnostic pop
#endif

#endif /* FUSEC_REF_H */

/*
 * fusec_ops.cuh: the builtin element functions, as PyTorch eager computes them.
 *
 * One overload for float and one for double of each builtin, named fx_<name>;
 * f16 and bf16 values are widened to float by the caller (fusec_kernel.cuh),
 * as ATen does with its opmath type. Every function follows the formula of
 * ATen's CUDA kernel, so NaN, infinities and signed zeros come out as in
 * torch (the comments say where that is not the obvious formula). All use the
 * accurate CUDA math functions (expf, erff, log1pf, ...), never the __expf
 * style intrinsics, so a float result stays within a few ulp of the exact one.
 *
 * Both arguments of a two-argument function have the same type: in a float
 * chain the generator writes float literals (0.5f) or casts.
 * + - * / and the comparisons are C operators in the emitted code.
 * fusec_ref.h holds an independent double reference of each (ref_<name>).
 */
#ifndef FUSEC_OPS_CUH
#define FUSEC_OPS_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <type_traits>

#define FX_OP __host__ __device__ __forceinline__

/* ---- sign, magnitude, rectifiers ---- */

/* abs and exp2 return NaN for NaN explicitly: ptxas (CUDA 13.0) otherwise
 * folds a comparison of their result with a constant outside their range
 * (abs(x) > -1.25, exp2(x) > -2.26) to true, which is false for NaN in
 * eager (docs/testing.md tells how it was found). */
FX_OP float fx_abs(float x) { return x != x ? x : fabsf(x); }
FX_OP double fx_abs(double x) { return x != x ? x : fabs(x); }

FX_OP float fx_neg(float x) { return -x; }
FX_OP double fx_neg(double x) { return -x; }

/* torch.relu is clamp_min(x, 0): NaN stays NaN, -0 becomes +0. */
FX_OP float fx_relu(float x) { return x > 0.0f || x != x ? x : 0.0f; }
FX_OP double fx_relu(double x) { return x > 0.0 || x != x ? x : 0.0; }

/* ATen: (0 < x) - (x < 0), so sign(NaN) = 0 and sign(-0) = +0. */
FX_OP float fx_sign(float x) { return (float)((0.0f < x) - (x < 0.0f)); }
FX_OP double fx_sign(double x) { return (double)((0.0 < x) - (x < 0.0)); }

/* x > 0 ? x : x * slope; NaN stays NaN (NaN * slope). */
FX_OP float fx_leaky_relu(float x, float slope) { return x > 0.0f ? x : x * slope; }
FX_OP double fx_leaky_relu(double x, double slope) { return x > 0.0 ? x : x * slope; }

/* ---- exponentials and logarithms ---- */

FX_OP float fx_exp(float x) { return expf(x); }
FX_OP double fx_exp(double x) { return exp(x); }

FX_OP float fx_exp2(float x) { return x != x ? x : exp2f(x); }
FX_OP double fx_exp2(double x) { return x != x ? x : exp2(x); }

FX_OP float fx_expm1(float x) { return expm1f(x); }
FX_OP double fx_expm1(double x) { return expm1(x); }

FX_OP float fx_log(float x) { return logf(x); }
FX_OP double fx_log(double x) { return log(x); }

FX_OP float fx_log2(float x) { return log2f(x); }
FX_OP double fx_log2(double x) { return log2(x); }

FX_OP float fx_log1p(float x) { return log1pf(x); }
FX_OP double fx_log1p(double x) { return log1p(x); }

FX_OP float fx_sqrt(float x) { return sqrtf(x); }
FX_OP double fx_sqrt(double x) { return sqrt(x); }

/* rsqrt(+-0) = +-inf, rsqrt(inf) = 0. The host has no rsqrtf. */
FX_OP float fx_rsqrt(float x)
{
#ifdef __CUDA_ARCH__
    return rsqrtf(x);
#else
    return 1.0f / sqrtf(x);
#endif
}
FX_OP double fx_rsqrt(double x)
{
#ifdef __CUDA_ARCH__
    return rsqrt(x);
#else
    return 1.0 / sqrt(x);
#endif
}

/* a / b for a divisor that is the literal 0 in the source (x / 0 is IEEE's
 * +-inf or NaN, as torch.div): a call, as nvcc warns about the operator with
 * a constant zero divisor (#39-D). */
FX_OP float fx_div(float a, float b) { return a / b; }
FX_OP double fx_div(double a, double b) { return a / b; }
FX_OP float fx_reciprocal(float x) { return 1.0f / x; }
FX_OP double fx_reciprocal(double x) { return 1.0 / x; }

/* + - * in the fused kernel: each rounded on its own, as eager's kernels (one
 * op each) and an f64 chain's float64 reference round them. Written as the
 * operators, nvcc contracts a multiply and the add after it into one fma,
 * rounded once: softplus_f64's fused result was 2 ulps off eager's (and the
 * reference's) where these keep it equal (session 22, call 2). The _rn
 * intrinsics are never contracted. On the host (tests/shapes/cpu.sh, the
 * harness's reference) the operators: g++ contracts them only where the
 * target has an fma, which x86-64's baseline has not. */
#ifdef __CUDA_ARCH__
#define FX_RN_OPS(T, sfx)                                                                  \
    FX_OP T fx_add(T a, T b) { return __##sfx##add_rn(a, b); }                              \
    FX_OP T fx_sub(T a, T b) { return __##sfx##sub_rn(a, b); }                              \
    FX_OP T fx_mul(T a, T b) { return __##sfx##mul_rn(a, b); }
#else
#define FX_RN_OPS(T, sfx)                                                                  \
    FX_OP T fx_add(T a, T b) { return a + b; }                                              \
    FX_OP T fx_sub(T a, T b) { return a - b; }                                              \
    FX_OP T fx_mul(T a, T b) { return a * b; }
#endif
FX_RN_OPS(float, f)
FX_RN_OPS(double, d)
#undef FX_RN_OPS

/* ---- trigonometric, hyperbolic, error function ---- */

FX_OP float fx_sin(float x) { return sinf(x); }
FX_OP double fx_sin(double x) { return sin(x); }

FX_OP float fx_cos(float x) { return cosf(x); }
FX_OP double fx_cos(double x) { return cos(x); }

FX_OP float fx_tanh(float x) { return tanhf(x); }
FX_OP double fx_tanh(double x) { return tanh(x); }

FX_OP float fx_erf(float x) { return erff(x); }
FX_OP double fx_erf(double x) { return erf(x); }

/* ---- rounding ---- */

FX_OP float fx_floor(float x) { return floorf(x); }
FX_OP double fx_floor(double x) { return floor(x); }

FX_OP float fx_ceil(float x) { return ceilf(x); }
FX_OP double fx_ceil(double x) { return ceil(x); }

/* torch.round: halves to even (2.5 -> 2), as std::nearbyint in the default
 * rounding mode. */
FX_OP float fx_round(float x) { return rintf(x); }
FX_OP double fx_round(double x) { return rint(x); }

FX_OP float fx_trunc(float x) { return truncf(x); }
FX_OP double fx_trunc(double x) { return trunc(x); }

/* ---- activations ---- */

/* ATen: 1 / (1 + exp(-x)); sigmoid(-inf) = 0, sigmoid(inf) = 1. */
FX_OP float fx_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
FX_OP double fx_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* ATen: x / (1 + exp(-x)) (not x * sigmoid(x): one rounding less);
 * silu(-inf) = NaN, as in torch. */
FX_OP float fx_silu(float x) { return x / (1.0f + expf(-x)); }
FX_OP double fx_silu(double x) { return x / (1.0 + exp(-x)); }

/* gelu, erf form, exactly as ATen's GeluCUDAKernelImpl writes it:
 * x * 0.5 * (1 + erf(x * M_SQRT1_2)). 1 + erf(z) cancels for negative x
 * (float error up to 2e-5 relative at x = -3, all of it below x = -5.5),
 * and erfc(-z) would not, but erfcf costs about twice erff and made the
 * fused bf16 gelu compute-bound; this is eager's own rounding at eager's
 * cost (docs/cuda.md, "gelu and gelu_tanh follow ATen's formulas").
 * Special values as ATen: gelu(-inf) = -inf * 0 = NaN, gelu(inf) = inf,
 * gelu(-0) = -0. */
FX_OP float fx_gelu(float x) { return x * 0.5f * (1.0f + erff(x * 0.70710678118654752440f)); }
FX_OP double fx_gelu(double x) { return x * 0.5 * (1.0 + erf(x * 0.70710678118654752440)); }

/* gelu, tanh form (approximate="tanh"), as ATen's GeluCUDAKernelImpl
 * writes it: 0.5 * x * (1 + tanh(u)) with u = sqrt(2/pi) * (x + 0.044715 *
 * x^3). 1 + tanh(u) cancels for negative x (1e-4 relative in float at
 * x = -5), and x / (1 + exp(-2u)) would not, but that form costs an expf and
 * a division, more than tanhf (docs/cuda.md): this is eager's own rounding,
 * at eager's cost. The fast form below, for half results, keeps the
 * division form (its rounding hides the approximate division, and it is
 * cheaper still). Special values as ATen: gelu_tanh(-inf) = NaN,
 * gelu_tanh(inf) = inf. */
FX_OP float fx_gelu_tanh(float x)
{
    float u = 0.79788456080286535588f * (x + 0.044715f * (x * x * x));
    return 0.5f * x * (1.0f + tanhf(u));
}
FX_OP double fx_gelu_tanh(double x)
{
    double u = 0.79788456080286535588 * (x + 0.044715 * (x * x * x));
    return 0.5 * x * (1.0 + tanh(u));
}
/* softplus with beta = 1, threshold = 20: linear above the threshold. */
FX_OP float fx_softplus(float x) { return x > 20.0f ? x : log1pf(expf(x)); }
FX_OP double fx_softplus(double x) { return x > 20.0 ? x : log1p(exp(x)); }

/* mish: x * tanh(softplus(x)), written as ATen writes it
 * (ActivationMishKernel.cu): x * tanh(log1p(exp(x))) in the compute type,
 * without softplus's threshold. For large x, exp overflows to inf and
 * tanh(inf) = 1, so mish(x) = x; mish(-inf) = -inf * 0 = NaN, as in torch. */
FX_OP float fx_mish(float x) { return x * tanhf(log1pf(expf(x))); }
FX_OP double fx_mish(double x) { return x * tanh(log1p(exp(x))); }

/* ATen: std::min(std::max(x + 3, 0), 6) * one_sixth. std::max(a, b) is
 * a < b ? b : a and std::min(a, b) is b < a ? b : a, so NaN propagates.
 * ATen's f64 kernel multiplies by (double)(1.0f / 6.0f), 3e-8 off 1/6: the
 * unfused f64 kernels do the same (the _aten forms), to be eager's bit for
 * bit; the fused kernel uses 1.0 / 6.0, as Inductor's division by 6 does. */
FX_OP float fx_hard6(float x)
{
    float t = x + 3.0f;
    t = t < 0.0f ? 0.0f : t;
    return 6.0f < t ? 6.0f : t;
}
FX_OP double fx_hard6(double x)
{
    double t = x + 3.0;
    t = t < 0.0 ? 0.0 : t;
    return 6.0 < t ? 6.0 : t;
}
FX_OP float fx_hardsigmoid(float x) { return fx_hard6(x) * (1.0f / 6.0f); }
FX_OP double fx_hardsigmoid(double x) { return fx_hard6(x) * (1.0 / 6.0); }

/* ATen: x * min(max(x + 3, 0), 6) * one_sixth, multiplied left to right. */
FX_OP float fx_hardswish(float x) { return x * fx_hard6(x) * (1.0f / 6.0f); }
FX_OP double fx_hardswish(double x) { return x * fx_hard6(x) * (1.0 / 6.0); }
FX_OP double fx_hardsigmoid_aten(double x) { return fx_hard6(x) * (double)(1.0f / 6.0f); }
FX_OP double fx_hardswish_aten(double x) { return x * fx_hard6(x) * (double)(1.0f / 6.0f); }

/* ---- two and three arguments ---- */

/* torch.minimum / torch.maximum: a NaN in either argument is the result. On
 * sm_80 and later one instruction does it (min.NaN.f32, max.NaN.f32: fminf's
 * and fmaxf's instruction with NaN propagation, signed zeros alike), where
 * the compare-and-select form takes three. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
FX_OP float fx_min(float a, float b)
{
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
FX_OP float fx_max(float a, float b)
{
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
#else
FX_OP float fx_min(float a, float b) { return a != a ? a : b != b ? b : fminf(a, b); }
FX_OP float fx_max(float a, float b) { return a != a ? a : b != b ? b : fmaxf(a, b); }
#endif
FX_OP double fx_min(double a, double b) { return a != a ? a : b != b ? b : fmin(a, b); }
FX_OP double fx_max(double a, double b) { return a != a ? a : b != b ? b : fmax(a, b); }

/* torch.pow for floating tensors is C's pow: pow(x, 0) = 1 and pow(1, y) = 1
 * even for NaN, pow(-8, 1/3) = NaN, pow(-0, -1) = -inf. */
FX_OP float fx_pow(float a, float b) { return powf(a, b); }
FX_OP double fx_pow(double a, double b) { return pow(a, b); }

/* x rounded to the storage type S and back (S's value is only a tag). */
FX_OP float fx_round_as(float x, __half) { return fx_widen(fx_to_f16(x)); }
FX_OP float fx_round_as(float x, __nv_bfloat16) { return fx_widen(fx_to_bf16(x)); }
FX_OP float fx_round_as(float x, float) { return x; }
FX_OP double fx_round_as(double x, double) { return x; }

/* torch.pow(tensor, number) for a number c known only at run time (a param),
 * as PyTorch's eager kernel runs it on a tensor of storage type S: 0.5, -0.5
 * and -1 as sqrt, rsqrt and reciprocal; then c rounded to S, and 2, 3 and -2
 * as multiplies in S; else pow with the rounded c. For a literal c fusec
 * picks the form when it compiles (PowForm in src/fusec.h). sqrt and rsqrt
 * differ from pow at -0 and -inf. fx_pow_scalar(a, c): S is the compute type
 * (the fused kernel, and f32 and f64 tensors). */
template <typename S, typename T> FX_OP T fx_pow_scalar(T a, T c)
{
    if (c == T(0.5))
        return fx_sqrt(a);
    if (c == T(-0.5))
        return fx_rsqrt(a);
    if (c == T(-1))
        return fx_reciprocal(a);
    const T r = fx_round_as(c, S());
    if (r == T(2))
        return a * a;
    if (r == T(3))
        return fx_round_as(a * a, S()) * a;
    if (r == T(-2))
        return fx_reciprocal(fx_round_as(a * a, S()));
    return fx_pow(a, r);
}
template <typename T> FX_OP T fx_pow_scalar(T a, T c) { return fx_pow_scalar<T, T>(a, c); }

/* torch.remainder (ATen's remainder_kernel_cuda): fmod, then moved by b
 * when its sign differs from b's, so the result has the divisor's sign:
 * remainder(-3, 5) = 2, remainder(3, -5) = -2; remainder(a, 0) = NaN. */
FX_OP float fx_remainder(float a, float b)
{
    float m = fmodf(a, b);
    return m != 0.0f && (b < 0.0f) != (m < 0.0f) ? m + b : m;
}
FX_OP double fx_remainder(double a, double b)
{
    double m = fmod(a, b);
    return m != 0.0 && (b < 0.0) != (m < 0.0) ? m + b : m;
}

/* The hardware approximations of the fast variants (below) and of the
 * quotient estimate of // by a tensor (fx_floor_fast): __expf (ex2.approx)
 * and div.full.f32 (a reciprocal and a multiply). The host has no
 * intrinsics: there they are the accurate functions. */
#ifdef __CUDA_ARCH__
#define FX_FAST_EXP(x) __expf(x)
#define FX_FAST_DIV(a, b) fx_div_full(a, b)
/* PTX's div.full.f32: a reciprocal and a multiply with the operands scaled
 * over the whole range (2 ulp at most). __fdividef (div.approx.f32) returns 0
 * for 2^126 < |b| < 2^128, so a bf16 sigmoid(-88) was 0 where eager gives
 * 6e-39; div.full keeps the quotient there. */
__device__ __forceinline__ float fx_div_full(float a, float b)
{
    float q;
    asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
    return q;
}
#else
#define FX_FAST_EXP(x) expf(x)
#define FX_FAST_DIV(a, b) ((a) / (b))
#endif

/* torch.floor_divide on floats (c10::div_floor_floating, which is Python's
 * algorithm): q = (a - fmod(a, b)) / b is nearly an integer; one less when
 * the fmod had the other sign, then floored and rounded to the nearest;
 * a zero quotient keeps the sign of a / b; b = 0 is IEEE's a / b. Eager runs
 * it on f16 and bf16 tensors with the floor held in the storage type S (a
 * Half or BFloat16 variable in ATen's kernel) before the rounding test and the
 * + 1; for S = T that is the plain algorithm. */
/* eager's step from the truncated quotient q to the floor: one less when the
 * fmod is not zero and its sign is not b's */
template <typename T> FX_OP T fx_floor_step(T b, T mod, T q)
{
    return mod != T(0) && (b < T(0)) != (mod < T(0)) ? q - T(1) : q;
}
template <typename S, typename T> FX_OP T fx_floor_divide_from(T b, T mod, T q, T zero)
{
    q = fx_floor_step(b, mod, q);
    if (q == T(0))
        return copysign(T(0), zero);
    T f = fx_round_as(floor(q), S());
    return q - f > T(0.5) ? fx_round_as(f + T(1), S()) : f;
}
/* Float a // b by a tensor without eager's two IEEE divisions and fmodf,
 * where the quotient is small. fmod(a, b) = a - trunc(a / b) b is always a
 * float, and for an integer q it is exact in one fma when |a - q b| < |b|.
 * From y = div.full.f32(a, b), within 2 ulp of a / b, q = trunc(y) is
 * trunc(a / b) or one off while |y| < 2^22: one too large leaves the
 * remainder's sign opposite to a's (exact; q steps back), one too small
 * leaves |r| >= |b|, which may have rounded, so q steps on and the fma runs
 * again. fx_fmod_q returns fmod(a, b) (a's sign when zero) and sets q to
 * trunc(a / b). Eager's (a - fmod(a, b)) / b is then within 1/2 of q, so its
 * result is q after eager's step to the floor (fx_floor_step), and a zero has
 * the sign of a / b. Only where S is float (an f16 or bf16 storage type rounds
 * eager's floor, which this does not follow) and fx_quot_ok holds; else
 * eager's formula. Equal to it bit for bit: tests/hostmath/fmod.cu checks
 * 10^6 pairs of every kind with y moved by up to 2 ulp either way. By a
 * number (fx_floor_divide_by) nvcc 13's fmodf already takes this path (its
 * reciprocal times a, below quotients of 2^23) and eager's form multiplies:
 * written this way it came to the same 31 instructions (docs/cuda.md), and
 * % by a tensor to as many as fmodf's. */
FX_OP bool fx_quot_ok(float b, float y)
{
    return fabsf(y) < 0x1p22f && fabsf(b) >= 0x1p-126f && fabsf(b) <= 0x1p126f;
}
FX_OP float fx_fmod_q(float a, float b, float y, float &q)
{
    q = truncf(y);
    float r = fmaf(-q, b, a);
    if (fabsf(r) >= fabsf(b)) {
        q += copysignf(1.0f, y);
        r = fmaf(-q, b, a);
    }
    if (r != 0.0f && (r < 0.0f) != (a < 0.0f)) { /* r != 0: a is not zero either */
        r += copysignf(b, a);
        q -= copysignf(1.0f, q);
    }
    return copysignf(r, a);
}
/* a // b from the estimate y of a / b, false where the fast path does not
 * hold; fx_floor_fast: the estimate is div.full.f32's, and only for float */
FX_OP bool fx_floor_from_y(float a, float b, float y, float &out)
{
    if (!fx_quot_ok(b, y))
        return false;
    float q;
    const float m = fx_fmod_q(a, b, y, q);
    q = fx_floor_step(b, m, q);
    out = q != 0.0f ? q : signbit(a) != signbit(b) ? -0.0f : 0.0f;
    return true;
}
template <typename S, typename T> FX_OP bool fx_floor_fast(T, T, T &) { return false; }
template <> FX_OP bool fx_floor_fast<float, float>(float a, float b, float &out)
{
    return fx_floor_from_y(a, b, FX_FAST_DIV(a, b), out);
}
template <typename S, typename T> FX_OP T fx_floor_divide(T a, T b)
{
    T out;
    if (fx_floor_fast<S>(a, b, out))
        return out;
    T m = fmod(a, b);
    return b == T(0) ? a / b : fx_floor_divide_from<S>(b, m, (a - m) / b, a / b);
}
/* a // b for a number b (a literal or a param), as eager runs it
 * (div_floor_kernel_cuda with a CPU scalar): a times the reciprocal of b
 * where the tensor form divides. */
template <typename S, typename T> FX_OP T fx_floor_divide_by(T a, T b)
{
    T inv = T(1) / b, m = fmod(a, b);
    return b == T(0) ? a * inv : fx_floor_divide_from<S>(b, m, (a - m) * inv, a * inv);
}
template <typename T> FX_OP T fx_floor_divide(T a, T b) { return fx_floor_divide<T, T>(a, b); }
/* a / b by a number or a param, as eager's div_true_kernel_cuda runs it (the
 * divisor a CPU scalar): a times b's reciprocal, both in the compute type,
 * which differs from a / b in the last bit of some elements (x / 3.7f and
 * x * (1 / 3.7f)). The unfused kernels' form; the fused kernel divides. */
template <typename T> FX_OP T fx_div_by(T a, T b) { return fx_mul(a, T(1) / b); }
/* A number over a tensor, a / b with a a number or a param, as eager runs it:
 * Tensor.__rtruediv__ is b.reciprocal() * a, two kernels, the reciprocal
 * rounded to its dtype S (b's, or f32 for an integer b) between them. The
 * unfused kernels' form (in one kernel); the fused kernel divides. */
template <typename S, typename T> FX_OP T fx_rdiv(T a, T b) { return fx_round_as(fx_reciprocal(b), S()) * a; }
template <typename T> FX_OP T fx_floor_divide_by(T a, T b) { return fx_floor_divide_by<T, T>(a, b); }

/* torch.clamp(x, lo, hi): a NaN in x (or in a bound) is the result; otherwise
 * min(max(x, lo), hi), so lo > hi gives hi. */
FX_OP float fx_clamp(float x, float lo, float hi) { return fx_min(fx_max(x, lo), hi); }
FX_OP double fx_clamp(double x, double lo, double hi)
{
    return x != x ? x : lo != lo ? lo : hi != hi ? hi : fmin(fmax(x, lo), hi);
}

/* torch.where(c, a, b) with a bool condition. */
FX_OP float fx_where(bool c, float a, float b) { return c ? a : b; }
FX_OP double fx_where(bool c, double a, double b) { return c ? a : b; }
FX_OP bool fx_where(bool c, bool a, bool b) { return c ? a : b; }

/* ---- fast variants, for ops of the fused kernel whose result is f16 or
 * bf16 (the unfused kernels use the accurate forms, as eager does) ----
 * An op whose result dtype is a half type computes in float and is rounded
 * to 11 (f16) or 8 (bf16) significant bits. Its float error can be a
 * thousand times larger without changing the rounded value, so these use
 * the hardware approximations (__expf: ex2.approx; div.full.f32: a reciprocal
 * and a multiply) and cost a third of the instructions: without them a bf16
 * chain with two inputs runs out of instructions before it runs out of
 * bandwidth (docs/results.md has the measurement). The special
 * values are those of the accurate forms (x / inf = 0, -inf / inf = NaN).
 * FX_FAST_EXP and FX_FAST_DIV are defined above fx_floor_fast, whose
 * quotient estimate is that division. */
FX_OP float fx_fast_div(float a, float b) { return FX_FAST_DIV(a, b); }
FX_OP float fx_fast_exp(float x) { return FX_FAST_EXP(x); }
FX_OP float fx_fast_sigmoid(float x) { return FX_FAST_DIV(1.0f, 1.0f + FX_FAST_EXP(-x)); }
FX_OP float fx_fast_silu(float x) { return FX_FAST_DIV(x, 1.0f + FX_FAST_EXP(-x)); }
FX_OP float fx_fast_gelu_tanh(float x)
{
    float u = 0.79788456080286535588f * (x + 0.044715f * (x * x * x));
    return FX_FAST_DIV(x, 1.0f + FX_FAST_EXP(-2.0f * u));
}

/* ---- integers (fx_int_<name>: T is the compute type, which for an integer
 * dtype is the dtype itself) ----
 * + - * and negation wrap, as two's complement: they run in an unsigned type
 * of at least 32 bits (FxUnsigned), so that no signed overflow (undefined in
 * C++) happens and u8 or i16 operands do not promote to int and overflow it,
 * and the result converts back modulo 2^bits. */
template <typename T> struct FxUnsigned {
    typedef typename std::conditional<sizeof(T) <= 4, unsigned, unsigned long long>::type U;
};
/* The result back in T, modulo 2^bits. For i16 on the device, through an
 * explicit sign extension of the 32-bit result: nvcc narrows a wrapped
 * negation to neg.s16 (abs to abs.s16), and on the H200 (nvcc 13.0) the
 * i16 -32768 they give then widened to +32768 (bench/probe_int.cu, run 19
 * of docs/results.md: neg, abs and neg after * of i16, consumed as i32; i8,
 * u8 and i32 were right; with this, all right in run 20). The fused kernel
 * keeps an i16 in a register, so it met this (tests/randgen.py --seed 2026
 * program 33); the unfused kernels store it, which truncates. */
template <typename T> FX_OP T fx_int_wrap(typename FxUnsigned<T>::U v) { return (T)v; }
template <> FX_OP int16_t fx_int_wrap<int16_t>(unsigned v)
{
#ifdef __CUDA_ARCH__
    int r;
    asm("cvt.s32.s16 %0, %1;" : "=r"(r) : "r"(v));
    return (int16_t)r;
#else
    return (int16_t)v;
#endif
}
template <typename T> FX_OP T fx_int_add(T a, T b) { return fx_int_wrap<T>((typename FxUnsigned<T>::U)a + (typename FxUnsigned<T>::U)b); }
template <typename T> FX_OP T fx_int_sub(T a, T b) { return fx_int_wrap<T>((typename FxUnsigned<T>::U)a - (typename FxUnsigned<T>::U)b); }
template <typename T> FX_OP T fx_int_mul(T a, T b) { return fx_int_wrap<T>((typename FxUnsigned<T>::U)a * (typename FxUnsigned<T>::U)b); }
template <typename T> FX_OP T fx_int_neg(T a) { return fx_int_wrap<T>(0u - (typename FxUnsigned<T>::U)a); }
/* a < 0, written so that u8 asks no pointless question (nvcc diagnostic 186) */
template <typename T> FX_OP bool fx_int_is_neg(T a) { return a < 0; }
FX_OP bool fx_int_is_neg(uint8_t) { return false; }
/* abs(MIN) is MIN, as eager's kernel (it negates). */
template <typename T> FX_OP T fx_int_abs(T a) { return fx_int_is_neg(a) ? fx_int_neg(a) : a; }
template <typename T> FX_OP T fx_int_relu(T a) { return a > 0 ? a : (T)0; }
template <typename T> FX_OP T fx_int_sign(T a) { return (T)((0 < a) - fx_int_is_neg(a)); }
template <typename T> FX_OP T fx_int_min(T a, T b) { return a < b ? a : b; }
template <typename T> FX_OP T fx_int_max(T a, T b) { return a > b ? a : b; }
template <typename T> FX_OP T fx_int_clamp(T x, T lo, T hi) { return fx_int_min(fx_int_max(x, lo), hi); }

/* Integer a // b and a % b as eager's CUDA kernels (c10::div_floor_integer,
 * remainder_kernel_cuda): C's truncating / and %, then the fix-up to the
 * floor (the divisor's sign for %). a / 0, a % 0 and MIN / -1 are undefined
 * in C++; PyTorch 2.11's kernels run them unguarded and NVIDIA's division
 * routines answer: for types of up to 32 bits (u8, i8 and i16 divide as int)
 * all ones for a / 0 and a % 0 (-1; 255 in u8); for 64 bits the routine
 * takes a 32-bit path when both operands' high words are zero, whose all
 * ones is 0xFFFFFFFF (so for 0 <= a < 2^32), and otherwise answers all ones
 * (-1: a >= 2^32 and every a < 0); MIN / -1 = MIN and MIN % -1 = 0 (on
 * the H200, bench/torch_check.py's int_corners: an i64 a >= 2^32 by 0 gave
 * -1, and only those differed from 0xFFFFFFFF for every a >= 0). Written out
 * here with no undefined operation (fx_int_div0), so a // 0 is -1 for a >= 0
 * and -2 for a < 0 (the fix-up subtracts one), and a % 0 is -1, except
 * 2^32 - 1 for both when an i64 a is in [0, 2^32). docs/language.md lists
 * them; tests/hostmath/ints.cu holds the measured cases. */
template <typename T> FX_OP T fx_int_div0(T a)
{
    return sizeof(T) == 8 && (unsigned long long)a <= 0xFFFFFFFFull ? (T)0xFFFFFFFFll : (T)-1;
}
/* floor(a / b), b != 0. u8, i8 and i16 divide in float: |a| and |b| are at
 * most 2^15, so q = a / b is an integer or at least 1 / |b| below the next
 * one; __fdividef's quotient (2 ulp at most for such b) moved up by 2^-20 of
 * its size lies in [q, q + 1.3 * 2^-20 |q|], short of that next integer
 * (1.3 * 2^-20 |q| < 1 / |b| as |a| < 2^19), and its floor is q's.
 * bench/probe_idiv.cu checks every pair of each type on the GPU. On the
 * device the conversions are adds on the bits of 1.5 * 2^23 (12582912.0f,
 * whose float grid has step 1 for the 2^22 integers on either side): a + its
 * bits is the float 1.5 * 2^23 + a exactly, and x added to it rounding down
 * is 1.5 * 2^23 + floor(x). They run at the full rate of adds, where the
 * conversion instructions (I2F, F2I) run at an eighth: the division is then
 * a reciprocal and a dozen adds and multiplies, against the integer
 * division's 40 issue slots (bench/opcost_fused.py; docs/results.md, session
 * 18). 32- and 64-bit integers take C's truncating division (MIN / -1
 * written out) and the fix-up to the floor. */
FX_OP int fx_narrow_floor_divide(int a, int b)
{
#ifdef __CUDA_ARCH__
    const float fa = __int_as_float(0x4B400000 + a) - 12582912.0f;
    const float fb = __int_as_float(0x4B400000 + b) - 12582912.0f;
    const float q = __fdividef(fa, fb);
    return __float_as_int(__fadd_rd(fmaf(fabsf(q), 0x1p-20f, q), 12582912.0f)) - 0x4B400000;
#else
    const float q = (float)a / (float)b;
    return (int)floorf(fmaf(fabsf(q), 0x1p-20f, q));
#endif
}
template <typename T> FX_OP T fx_int_tdiv_nz(T a, T b)
{
    return std::is_signed<T>::value && b == (T)-1 ? fx_int_neg(a) : (T)(a / b);
}
template <typename T> FX_OP T fx_int_floor_nz(T a, T b)
{
    if (sizeof(T) <= 2)
        return fx_int_wrap<T>((unsigned)fx_narrow_floor_divide((int)a, (int)b));
    /* i64: a - q b, not a % b (a second call of the 64-bit division routine:
     * fdiv_i64 ran 705 us, 445 without; session 18 of docs/results.md); i32:
     * a % b, which timed faster by a literal (12.3 slots against 17.7) */
    const T q = fx_int_tdiv_nz(a, b);
    const bool exact = sizeof(T) == 8 ? fx_int_sub(a, fx_int_mul(q, b)) == 0 : b == (T)-1 || (T)(a % b) == 0;
    return fx_int_is_neg(a) != fx_int_is_neg(b) && !exact ? fx_int_sub(q, (T)1) : q;
}
/* by zero: the truncating division's all ones, less one for a < 0 (the
 * fix-up's step down). A narrow quotient is computed whatever b (by 0 the
 * float's is not used), so that a // b and a % b of one pair share it. */
template <typename T> FX_OP T fx_int_floor_divide(T a, T b)
{
    const T by0 = fx_int_sub(fx_int_div0(a), (T)fx_int_is_neg(a));
    if (sizeof(T) <= 2) {
        const T q = fx_int_floor_nz(a, b);
        return b == 0 ? by0 : q;
    }
    return b == 0 ? by0 : fx_int_floor_nz(a, b);
}
/* a - floor(a / b) b, the divisor's sign (MIN % -1 = 0); for 32 and 64 bits
 * C's truncating %, moved by b */
template <typename T> FX_OP T fx_int_remainder(T a, T b)
{
    if (sizeof(T) <= 2) {
        const T r = fx_int_sub(a, fx_int_mul(fx_int_floor_nz(a, b), b));
        return b == 0 ? fx_int_div0(a) : r;
    }
    const T r = b == 0 ? fx_int_div0(a) : std::is_signed<T>::value && b == (T)-1 ? (T)0 : (T)(a % b);
    return r != 0 && fx_int_is_neg(r) != fx_int_is_neg(b) ? fx_int_add(r, b) : r;
}

/* a << b and a >> b as eager's kernels (BinaryShiftOpsKernels.cu): a count
 * that is negative (read as signed: 128..255 in u8) or at least the width
 * gives 0 for <<, and for >> the shift by width - 1 of a signed type (0 or
 * -1) or by the width of u8 (0). << shifts the unsigned bits. */
template <typename T> FX_OP bool fx_int_shift_negative(T b)
{
    return (typename std::make_signed<T>::type)b < 0;
}
template <typename T> FX_OP T fx_int_shl(T a, T b)
{
    if (fx_int_shift_negative(b) || b >= (T)(8 * sizeof(T)))
        return 0;
    return fx_int_wrap<T>((typename FxUnsigned<T>::U)(typename std::make_unsigned<T>::type)a << b);
}
template <typename T> FX_OP T fx_int_shr(T a, T b)
{
    const T width = (T)(8 * sizeof(T) - std::is_signed<T>::value);
    return (T)(a >> (fx_int_shift_negative(b) || b >= width ? width : b));
}

#undef FX_OP

#endif /* FUSEC_OPS_CUH */

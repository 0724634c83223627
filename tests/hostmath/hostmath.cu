/*
 * The element functions the emitted kernels call (runtime/fusec_ops.cuh),
 * compiled for the host by nvcc, against the independent double reference
 * (runtime/fusec_ref.h): every builtin, in float and in double, on a grid of
 * ordinary values and on the special ones (NaN, +-inf, +-0, subnormals,
 * huge). Special values must match exactly (NaN with NaN, infinities with
 * their sign); finite values within a few ulps. Needs no GPU.
 */
#include <stdio.h>
#include <string.h>

#include "fusec_dtype.h"
#include "fusec_model.h"
#include "fusec_kernel.cuh"
#include "fusec_ops.cuh"
#include "fusec_ref.h"

static int failures;

static int same_special(double got, double want)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return got == want;
    return -1; /* both finite: compare by tolerance */
}

/* Next to a jump (fusec_ref_fragile, e.g. hardswish's x * 6 overflowing in
 * float) the two may differ by design: skipped, as the harness skips them. */
static void check(const char *name, const char *type, double x, double y, double got, double want, double rtol,
                  double atol)
{
    int s = same_special(got, want);
    if (fusec_ref_fragile) {
        fusec_ref_fragile = 0;
        return;
    }
    if (s == 1)
        return;
    if (s == -1 && fabs(got - want) <= atol + rtol * fabs(want))
        return;
    if (failures++ < 20)
        printf("FAIL %s(%s): x=%.17g y=%.17g got %.17g want %.17g\n", name, type, x, y, got, want);
}

/* float: a few ulps of float, and the growth of exp(z)'s error with |z|
 * (gelu_tanh at x = -7.4 has z = -60: 4e-6); double: a few ulps of double.
 * The float reference is rounded to float first (overflow included). */
#define RF 2e-5
#define AF 1e-30
#define RD 1e-13
#define AD 1e-300

#define UNARY(op)                                                                                        \
    for (int i = 0; i < nv; i++) {                                                                       \
        double x = vals[i];                                                                              \
        float xf = (float)x;                                                                             \
        check(#op, "float", xf, 0, fx_##op(xf), ref_round(ref_##op((double)xf), FX_F32), RF, AF);        \
        check(#op, "double", x, 0, fx_##op(x), ref_##op(x), RD, AD);                                     \
    }
/* gelu and gelu_tanh follow ATen's formulas (runtime/fusec_ops.cuh), whose
 * 1 + erf(z) and 1 + tanh(u) cancel for negative x: their error is an
 * absolute one, up to about an ulp of 1 times |x| / 2, as in eager. */
#define UNARY_CANCEL(op)                                                                                 \
    for (int i = 0; i < nv; i++) {                                                                       \
        double x = vals[i];                                                                              \
        float xf = (float)x;                                                                             \
        check(#op, "float", xf, 0, fx_##op(xf), ref_round(ref_##op((double)xf), FX_F32), RF,             \
              AF + 1.2e-7 * fabs(xf));                                                                   \
        check(#op, "double", x, 0, fx_##op(x), ref_##op(x), RD, AD + 2.3e-16 * fabs(x));                 \
    }
#define BINARY(op)                                                                                       \
    for (int i = 0; i < nv; i++)                                                                         \
        for (int j = 0; j < nv; j += 3) {                                                                \
            double x = vals[i], y = vals[j];                                                             \
            float xf = (float)x, yf = (float)y;                                                          \
            check(#op, "float", xf, yf, fx_##op(xf, yf), ref_round(ref_##op(xf, yf), FX_F32), RF, AF);   \
            check(#op, "double", x, y, fx_##op(x, y), ref_##op(x, y), RD, AD);                           \
        }

/* The broadcast offset calculator's 32-bit division by a multiply and a
 * shift (fx_bcast_magic, fx_bcast_div) against '/' for every divisor up to
 * 4096 and divisors near powers of two up to 2^31 - 1, at indices near 0,
 * near multiples of the divisor and near 2^31 - 1. */
static void check_bcast_div(void)
{
    unsigned long long ds[4096 + 31 * 3];
    int nd = 0;
    for (unsigned long long d = 1; d <= 4096; d++)
        ds[nd++] = d;
    for (int s = 12; s <= 31; s++) {
        ds[nd++] = (1ull << s) - 1;
        ds[nd++] = (1ull << s) + 1;
        if (s < 31)
            ds[nd++] = (1ull << s) + 12345;
    }
    int bad = 0;
    for (int k = 0; k < nd; k++) {
        FxBcast b = {1, {ds[k]}, {1}, {0}, {0}};
        fx_bcast_magic(&b);
        const unsigned top = 0x7fffffffu;
        for (unsigned j = 0; j < 64; j++) {
            const unsigned is[] = {j, top - j, (unsigned)(ds[k] * j % top), (unsigned)((ds[k] * j - 1) % top),
                                   (unsigned)((ds[k] * (j + 1000) + j) % top)};
            for (size_t q = 0; q < sizeof is / sizeof is[0]; q++)
                if (fx_bcast_div(b, 0, is[q]) != (unsigned)(is[q] / ds[k]) && bad++ < 5)
                    printf("FAIL fx_bcast_div: %u / %llu gave %u\n", is[q], ds[k], fx_bcast_div(b, 0, is[q]));
        }
    }
    failures += bad;
}

int main(void)
{
    double vals[400];
    check_bcast_div();
    int nv = 0;
    fusec_ref_eps = 1e-12; /* only what is at a jump counts as fragile here */
    const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-45, -1e-45, 1e-310, 3e38, -3e38,
                              1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.0, -3.0, 20.0, 21.0, 88.0, -88.0, 100.0};
    for (size_t k = 0; k < sizeof special / sizeof special[0]; k++)
        vals[nv++] = special[k];
    for (int k = 0; k < 300; k++) /* -8 .. 8, with fractions that are not round */
        vals[nv++] = -8.0 + 16.0 * (k + 0.3183098861837907) / 300.0;

    UNARY(abs) UNARY(neg) UNARY(relu) UNARY(sign) UNARY(exp) UNARY(exp2) UNARY(expm1) UNARY(log)
    UNARY(log2) UNARY(log1p) UNARY(sqrt) UNARY(rsqrt) UNARY(reciprocal) UNARY(sin) UNARY(cos) UNARY(tanh)
    UNARY(erf) UNARY(floor) UNARY(ceil) UNARY(trunc) UNARY(sigmoid) UNARY(silu) UNARY_CANCEL(gelu)
    UNARY_CANCEL(gelu_tanh) UNARY(softplus) UNARY(mish) UNARY(hardsigmoid) UNARY(hardswish)
    BINARY(leaky_relu) BINARY(min) BINARY(max) BINARY(pow) BINARY(remainder) BINARY(floor_divide)
    /* a // b by a number: eager's multiply by 1 / b, against the same reference */
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j += 3) {
            double x = vals[i], y = vals[j];
            float xf = (float)x, yf = (float)y;
            check("floor_divide_by", "float", xf, yf, fx_floor_divide_by(xf, yf),
                  ref_round(ref_floor_divide(xf, yf), FX_F32), RF, AF);
            check("floor_divide_by", "double", x, y, fx_floor_divide_by(x, y), ref_floor_divide(x, y), RD, AD);
        }
    /* pow with a number exponent runs as PyTorch runs it: for a literal, the
     * forms fusec emits (PowForm in src/fusec.h); for a param, fx_pow_scalar.
     * Both against torch's rule (ref_pow_scalar), special values included. */
    const double exps[] = {2, 3, -1, -2, 0.5, -0.5, 2.5, 1, -3, 2.0004, 0.3};
    const int nexp = (int)(sizeof exps / sizeof exps[0]);
    for (int i = 0; i < nv; i++)
        for (int k = 0; k < nexp; k++) {
            double x = vals[i], c = exps[k];
            float xf = (float)x, cf = (float)c;
            check("pow_scalar", "float", xf, c, fx_pow_scalar(xf, cf),
                  ref_round(ref_pow_scalar(xf, cf, FX_F32), FX_F32), RF, AF);
            check("pow_scalar", "double", x, c, fx_pow_scalar(x, c), ref_pow_scalar(x, c, FX_F64), RD, AD);
        }
    for (int i = 0; i < nv; i++) {
        double x = vals[i];
        float xf = (float)x;
        check("pow2", "float", xf, 2, xf * xf, ref_round(ref_pow_scalar(xf, 2, FX_F32), FX_F32), RF, AF);
        check("pow3", "float", xf, 3, xf * xf * xf, ref_round(ref_pow_scalar(xf, 3, FX_F32), FX_F32), RF, AF);
        check("pow-1", "float", xf, -1, fx_reciprocal(xf), ref_round(ref_pow_scalar(xf, -1, FX_F32), FX_F32), RF, AF);
        check("pow-2", "float", xf, -2, fx_reciprocal(xf * xf), ref_round(ref_pow_scalar(xf, -2, FX_F32), FX_F32), RF, AF);
        check("pow0.5", "float", xf, 0.5, fx_sqrt(xf), ref_round(ref_pow_scalar(xf, 0.5, FX_F32), FX_F32), RF, AF);
        check("pow-0.5", "float", xf, -0.5, fx_rsqrt(xf), ref_round(ref_pow_scalar(xf, -0.5, FX_F32), FX_F32), RF, AF);
        check("pow2", "double", x, 2, x * x, ref_pow_scalar(x, 2, FX_F64), RD, AD);
        check("pow3", "double", x, 3, x * x * x, ref_pow_scalar(x, 3, FX_F64), RD, AD);
        check("pow-1", "double", x, -1, fx_reciprocal(x), ref_pow_scalar(x, -1, FX_F64), RD, AD);
        check("pow-2", "double", x, -2, fx_reciprocal(x * x), ref_pow_scalar(x, -2, FX_F64), RD, AD);
        check("pow0.5", "double", x, 0.5, fx_sqrt(x), ref_pow_scalar(x, 0.5, FX_F64), RD, AD);
        check("pow-0.5", "double", x, -0.5, fx_rsqrt(x), ref_pow_scalar(x, -0.5, FX_F64), RD, AD);
    }
    /* f16 and bf16 tensors, as eager: the exponent rounded to the dtype, the
     * products in the dtype; every finite f16 value and every bf16 value of
     * [2^-8, 2^8), each exponent, within one unit of the dtype. */
    for (int k = 0; k < nexp; k++) {
        float c = (float)exps[k];
        for (unsigned b = 0; b < 0x10000; b++) {
            __half_raw hr;
            hr.x = (unsigned short)b;
            float h = __half2float(__half(hr));
            if (isfinite(h)) {
                float got = __half2float(__float2half_rn(fx_pow_scalar<__half>(h, c)));
                double want = ref_round(ref_pow_scalar(h, c, FX_F16), FX_F16);
                check("pow_scalar", "f16", h, c, got, want, 1e-3, 6e-8);
            }
            __nv_bfloat16_raw br;
            br.x = (unsigned short)b;
            float g = __bfloat162float(__nv_bfloat16(br));
            if (fabsf(g) >= 0x1p-8f && fabsf(g) < 0x1p8f) {
                float got = __bfloat162float(__float2bfloat16_rn(fx_pow_scalar<__nv_bfloat16>(g, c)));
                double want = ref_round(ref_pow_scalar(g, c, FX_BF16), FX_BF16);
                check("pow_scalar", "bf16", g, c, got, want, 8e-3, 1e-38);
            }
        }
    }
    fusec_ref_fragile = 0;
    /* Eager's results, worked out from its kernel (PowKernel.cu), exactly. */
    const float h300 = __half2float(__float2half_rn(fx_pow_scalar<__half>(300.0f, -2.0f)));
    const float hcube = __half2float(__float2half_rn(fx_pow_scalar<__half>(1.013671875f, 3.0f)));
    const float b2005 = __bfloat162float(__float2bfloat16_rn(fx_pow_scalar<__nv_bfloat16>(100.0f, 2.005f)));
    const float h20004 = __half2float(__float2half_rn(fx_pow_scalar<__half>(100.0f, 2.0004f)));
    const struct {
        const char *what;
        float got, want;
    } eager[] = {
        {"f16 pow(300, -2): 300*300 overflows f16, 1/inf", h300, 0.0f},
        {"f16 pow(1.013671875, 3): the square rounded to f16 first", hcube, 1.041015625f},
        {"bf16 pow(100, 2.005): 2.005 is 2 in bf16", b2005, 9984.0f},
        {"f16 pow(100, 2.0004): 2.0004 is 2 in f16", h20004, 10000.0f},
    };
    for (size_t k = 0; k < sizeof eager / sizeof eager[0]; k++)
        if (eager[k].got != eager[k].want && failures++ < 20)
            printf("FAIL %s: got %.9g want %.9g\n", eager[k].what, eager[k].got, eager[k].want);
    /* // on f16 and bf16 tensors, as eager: the floor held in the storage
     * type; every finite f16 value and every bf16 value of [2^-8, 2^8) by a
     * few divisors, both forms, within one unit of the dtype. */
    const float divisors[] = {0.3f, -1.3f, 2.0f, 7.0f, -0.01f};
    for (size_t k = 0; k < sizeof divisors / sizeof divisors[0]; k++) {
        float c = divisors[k];
        for (unsigned b = 0; b < 0x10000; b++) {
            __half_raw hr;
            hr.x = (unsigned short)b;
            float h = __half2float(__half(hr));
            if (isfinite(h)) {
                double want = ref_round(ref_floor_divide(h, c), FX_F16);
                check("floor_divide", "f16", h, c, __half2float(__float2half_rn(fx_floor_divide<__half>(h, c))),
                      want, 1e-3, 6e-8);
                check("floor_divide_by", "f16", h, c,
                      __half2float(__float2half_rn(fx_floor_divide_by<__half>(h, c))), want, 1e-3, 6e-8);
            }
            __nv_bfloat16_raw br;
            br.x = (unsigned short)b;
            float g = __bfloat162float(__nv_bfloat16(br));
            if (fabsf(g) >= 0x1p-8f && fabsf(g) < 0x1p8f) {
                double want = ref_round(ref_floor_divide(g, c), FX_BF16);
                check("floor_divide", "bf16", g, c,
                      __bfloat162float(__float2bfloat16_rn(fx_floor_divide<__nv_bfloat16>(g, c))), want, 8e-3, 1e-38);
            }
        }
    }
    fusec_ref_fragile = 0;
    /* % and // as torch.remainder and torch.floor_divide (ATen's formulas,
     * which are Python's), signed zeros included: every form, float and
     * double, and the reference. */
    const struct {
        double a, b, rem, floordiv;
    } divs[] = {
        {-3, 5, 2, -1},          {3, -5, -2, -1},         {-7, 2, 1, -4},          {7, -2, -1, -4},
        {7.5, 2.5, 0, 3},        {-0.0, 3, -0.0, -0.0},   {0.0, -3, 0.0, -0.0},    {1, 0, NAN, INFINITY},
        {-1, 0, NAN, -INFINITY}, {0, 0, NAN, NAN},        {INFINITY, 3, NAN, NAN}, {-3, INFINITY, INFINITY, -1},
        {3, INFINITY, 3, 0},     {5.5, -INFINITY, -INFINITY, -1}, {NAN, 2, NAN, NAN},
    };
    for (size_t k = 0; k < sizeof divs / sizeof divs[0]; k++) {
        double a = divs[k].a, b = divs[k].b;
        const double got[] = {fx_remainder((float)a, (float)b), fx_remainder(a, b), ref_remainder(a, b),
                              fx_floor_divide((float)a, (float)b), fx_floor_divide(a, b), ref_floor_divide(a, b),
                              fx_floor_divide_by((float)a, (float)b), fx_floor_divide_by(a, b)};
        for (int g = 0; g < 8; g++) {
            double want = g < 3 ? divs[k].rem : divs[k].floordiv;
            bool ok = isnan(want) ? isnan(got[g]) : got[g] == want && signbit(got[g]) == signbit(want);
            if (!ok && failures++ < 20)
                printf("FAIL %s form %d: %g, %g: got %g want %g\n", g < 3 ? "remainder" : "floor_divide", g, a, b,
                       got[g], want);
        }
    }
    fusec_ref_fragile = 0;
    /* round is half to even; the reference calls it roundeven */
    for (int i = 0; i < nv; i++) {
        double x = vals[i];
        check("round", "float", (float)x, 0, fx_round((float)x), ref_roundeven((double)(float)x), 0, 0);
        check("round", "double", x, 0, fx_round(x), ref_roundeven(x), 0, 0);
    }
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j += 7)
            for (int k = 0; k < nv; k += 11) {
                double x = vals[i], lo = vals[j], hi = vals[k];
                check("clamp", "double", x, lo, fx_clamp(x, lo, hi), ref_clamp(x, lo, hi), 0, 0);
            }
    /* The fast forms used for half results: within 2^-16, far inside f16's 2^-11. */
    for (int i = 0; i < nv; i++) {
        float x = (float)vals[i];
        check("fast_sigmoid", "float", x, 0, fx_fast_sigmoid(x), ref_sigmoid(x), 1.5e-5, 1e-30);
        check("fast_silu", "float", x, 0, fx_fast_silu(x), ref_silu(x), 1.5e-5, 1e-30);
        check("fast_gelu_tanh", "float", x, 0, fx_fast_gelu_tanh(x), ref_gelu_tanh(x), 1.5e-5, 1e-30);
    }
    printf("%s: %d mismatches over %d values per function\n", failures ? "FAIL" : "ok", failures, nv);
    return failures != 0;
}

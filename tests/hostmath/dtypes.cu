/*
 * Every row of the dtype table (runtime/fusec_dtype.h), compiled for the host
 * by nvcc: the kernels' conversion (fx_to_<name>, fusec_kernel.cuh), the
 * harness's decoder of stored bytes (fh_decode) and the reference's rounding
 * (ref_round, fusec_ref.h) must agree. Every bit pattern of a format of 16
 * bits or fewer decodes to what CUDA widens it to and stores back to itself;
 * for every dtype, a sweep of doubles (ordinary, halfway between two values,
 * near the overflow threshold, subnormal, special) stores and decodes to
 * exactly the reference's rounding. Needs no GPU.
 */
#include <stdio.h>
#include <string.h>

#include "fusec_dtype.h"
#include "fusec_model.h"
#include "fusec_sizes.h"
#include "fusec_kernel.cuh"
#include "fusec_chain.h"
#include "fusec_ref.h"
#include "fusec_harness.cuh"

static int failures;

static void fail(const char *what, int dt, unsigned long long bits, double v, double got, double want)
{
    if (failures++ < 20)
        printf("FAIL %s (%s): bits 0x%llx v=%.17g got %.17g want %.17g\n", what, fusec_dtype_name[dt], bits, v,
               got, want);
}

static int same(double a, double b) { return (a != a && b != b) || (a == b && signbit(a) == signbit(b)); }

/* v stored as dtype dt by the kernels' conversion, into out (size bytes). */
static void store(int dt, double v, unsigned char *out)
{
    switch (dt) {
#define DT_STORE(E, name, size, store, ...)                                                              \
    case FX_##E: {                                                                                       \
        store s = fx_to_##name(v);                                                                       \
        memcpy(out, &s, size);                                                                           \
        break;                                                                                           \
    }
        FUSEC_DTYPES(DT_STORE)
#undef DT_STORE
    }
}

/* The stored bytes widened to the compute type by the kernels (fx_widen). */
static double widen(int dt, const unsigned char *p)
{
    switch (dt) {
#define DT_WIDEN(E, name, size, store, ...)                                                              \
    case FX_##E: {                                                                                       \
        store s;                                                                                         \
        memcpy(&s, p, size);                                                                             \
        return (double)fx_widen(s);                                                                      \
    }
        FUSEC_DTYPES(DT_WIDEN)
#undef DT_WIDEN
    }
    return NAN;
}

int main(void)
{
    unsigned char b[8];
    fusec_ref_eps = 1e-300; /* nothing counts as fragile: every value is compared */
    for (int dt = 0; dt < FX_NDTYPES; dt++) {
        const FusecDtype *d = &fusec_dtype[dt];
        int checked = 0;
        /* every bit pattern of the small formats */
        if (d->kind != FX_KIND_BOOL && d->size <= 2)
            for (unsigned long long bits = 0; bits < 1ull << (8 * d->size); bits++) {
                memcpy(b, &bits, (size_t)d->size);
                double v = fh_decode(b, dt);
                if (!same(v, widen(dt, b)))
                    fail("fh_decode against fx_widen", dt, bits, v, v, widen(dt, b));
                if (v == v) {
                    unsigned char back[8];
                    store(dt, v, back);
                    if (memcmp(back, b, (size_t)d->size) != 0)
                        fail("a decoded value stores back to other bits", dt, bits, v, fh_decode(back, dt), v);
                    if (!same(ref_round(v, dt), v))
                        fail("ref_round of a representable value", dt, bits, v, ref_round(v, dt), v);
                }
                checked++;
            }
        /* a sweep of doubles: storing then decoding is the reference's rounding */
        double q = ldexp(1.0, 1 - d->prec); /* the format's relative spacing at 1 */
        for (int e = d->emin - d->prec - 2; e <= d->emax + 1; e += (d->emax - d->emin) / 97 + 1)
            for (int k = 0; k < 64; k++) {
                /* 1 + k/64 and the halfway points 1 + (j + 1/2) q near it */
                double m = k < 32 ? 1.0 + k / 32.0 : 1.0 + (k - 32 + 0.5) * q;
                for (int s = 0; s < 2; s++) {
                    double v = (s ? -1 : 1) * ldexp(m, e);
                    if (!(fabs(v) <= DBL_MAX))
                        continue;
                    store(dt, v, b);
                    double got = fh_decode(b, dt), want = ref_round(v, dt);
                    if (!same(got, want))
                        fail("fx_to_ then fh_decode against ref_round", dt, 0, v, got, want);
                    checked++;
                }
            }
        /* with, for the integers, the edges of each saturation (2^15, 2^31, 2^63), wrapping (300 in i8,
         * -1.5 in u8) and values beyond every range */
        const double special[] = {0.0, -0.0, NAN, HUGE_VAL, -HUGE_VAL, d->max_finite, -d->max_finite,
                                  ldexp(1.0, d->emin), ldexp(1.0, d->emin - d->prec + 1), 0.5, -0.25, 3.0,
                                  300.0, -1.5, -129.75, 255.5, 256.0, 32767.0, 32768.0, -32768.0, -32769.0, 65535.9,
                                  2147483647.0, 2147483648.0, -2147483648.0, -2147483649.0, 4294967296.5,
                                  9223372036854775807.0, -9223372036854775808.0, 1e19, -1e19, 1e300, -1e300};
        for (size_t k = 0; k < sizeof special / sizeof *special; k++) {
            store(dt, special[k], b);
            double got = fh_decode(b, dt), want = ref_round(special[k], dt);
            if (!same(got, want))
                fail("special value", dt, 0, special[k], got, want);
            checked++;
        }
        printf("%-5s %d values\n", fusec_dtype_name[dt], checked);
    }
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
    return failures != 0;
}

/*
 * cpu_check.cu: both versions of a chain, run on the host, against its double
 * reference at every element (tests/shapes/cpu.sh builds it). A flat chain
 * has one dim, n (cpu_check n=1000 or --auto=1,1000).
 *
 *   cpu_check DIM=N,...      every dim of the chain, e.g. B=3,C=37,R=5
 *   cpu_check --auto=A,L     every dim A, the last dim of the chain's shape L
 *
 * CHAIN_CPU is the chain's .cu made host code by tests/shapes/cpu_emulate.py
 * (emitted with --name=chain). Each input is generated in its own shape
 * (uniform in [-4, 4), rounded to its dtype; some zeros and NaNs; an fp8
 * input: random codes, all 256);
 * output element i's reference reads each input at i's coordinates without
 * the dims it is broadcast along, as the harness does. Both versions run
 * with vector accesses where they can, on the scalar path (fx_scalar_only),
 * and with vector accesses and every broadcast input one element off its
 * alignment (so that only the arrays of the chain's shape take vectors;
 * tests/shapes/cpu_emulate.py makes a misaligned vector access abort),
 * each output poisoned first. The comparison is the harness's: the output's
 * tolerance, its cancellation term, NaN only with NaN, fragile elements
 * (next to a jump) not compared. Then an n beyond FX_MAX_ELEMS, which both
 * APIs must refuse. Exit 0 when every element agrees and both refuse it.
 */
#include CHAIN_CPU
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <vector>

static double cc_store(void *p, size_t i, int dt, double v) /* stores v; returns the stored value */
{
    switch (dt) {
#define CC_STORE(E, name, size, store, ...) \
    case FX_##E: ((store *)p)[i] = fx_to_##name(v); return (double)fx_widen(((store *)p)[i]);
        FUSEC_DTYPES(CC_STORE)
#undef CC_STORE
    }
    return NAN;
}

static double cc_load(const void *p, size_t i, int dt)
{
    switch (dt) {
#define CC_LOAD(E, name, size, store, ...) \
    case FX_##E: return (double)fx_widen(((const store *)p)[i]);
        FUSEC_DTYPES(CC_LOAD)
#undef CC_LOAD
    }
    return NAN;
}

static const int n_in = sizeof chain_in / sizeof *chain_in, n_out = sizeof chain_out / sizeof *chain_out;
static const int rank = sizeof chain_shape / sizeof *chain_shape, ndims = sizeof chain_dims / sizeof *chain_dims;

#ifdef CHAIN_FLAT /* cpu_emulate.py: a flat chain, every input of n elements */
static unsigned varies_of(int k) { return (void)k, 1u; }
#else
static unsigned varies_of(int k) { return chain_in[k].varies; }
#endif

static size_t pos_size(const size_t *dims, int q) { return chain_shape[q] < 0 ? 1 : dims[chain_shape[q]]; }

static size_t own_elems(const size_t *dims, unsigned varies)
{
    size_t e = 1;
    for (int q = 0; q < rank; q++)
        if (varies >> q & 1)
            e *= pos_size(dims, q);
    return e;
}

static size_t own_index(const size_t *dims, unsigned varies, size_t i)
{
    size_t own = 0, stride = 1;
    for (int q = rank - 1; q >= 0; q--) {
        size_t size = pos_size(dims, q), coord = i % size;
        i /= size;
        if (varies >> q & 1) {
            own += coord * stride;
            stride *= size;
        }
    }
    return own;
}

int main(int argc, char **argv)
{
    size_t dims[4] = {1, 1, 1, 1};
    if (argc > 1 && !strncmp(argv[1], "--auto=", 7)) {
        size_t a = strtoull(argv[1] + 7, NULL, 10), l = strtoull(strchr(argv[1], ',') + 1, NULL, 10);
        for (int d = 0; d < ndims; d++)
            dims[d] = a;
        if (chain_shape[rank - 1] >= 0)
            dims[chain_shape[rank - 1]] = l;
        argc = 1;
    }
    for (const char *s = argc > 1 ? argv[1] : ""; *s;) {
        int d;
        for (d = 0; d < ndims; d++)
            if (!strncmp(s, chain_dims[d], strlen(chain_dims[d])) && s[strlen(chain_dims[d])] == '=')
                break;
        if (d == ndims) {
            fprintf(stderr, "cpu_check: unknown dim in '%s'\n", s);
            return 2;
        }
        dims[d] = strtoull(s + strlen(chain_dims[d]) + 1, NULL, 10);
        s = strchr(s, ',') ? strchr(s, ',') + 1 : s + strlen(s);
    }
    size_t elems = own_elems(dims, ~0u);
    std::vector<std::vector<unsigned char>> buf(n_in + n_out);
    std::vector<std::vector<double>> val(n_in);
    unsigned long long h = 88172645463325252ull;
    for (int k = 0; k < n_in; k++) {
        size_t e = own_elems(dims, varies_of(k));
        buf[k].resize(e * fusec_dtype_size[chain_in[k].dtype] + 16);
        val[k].resize(e);
        for (size_t i = 0; i < e; i++) {
            h ^= h << 13, h ^= h >> 7, h ^= h << 17;
            double v = chain_in[k].dtype == FX_BOOL ? (double)(h >> 63) : ldexp((double)(h >> 11), -53) * 8 - 4;
            if (chain_in[k].dtype != FX_BOOL && i % 97 == 5)
                v = i % 2 ? 0.0 : NAN;
            if (FX_IS_FP8(chain_in[k].dtype)) { /* an fp8 input: any of its 256 codes */
                buf[k][i] = (unsigned char)(h >> 56);
                val[k][i] = cc_load(buf[k].data(), i, chain_in[k].dtype);
                continue;
            }
            val[k][i] = cc_store(buf[k].data(), i, chain_in[k].dtype, v);
        }
    }
    double par[64] = {0};
    for (size_t k = 0; k < CHAIN_NPAR && k < 64; k++)
        par[k] = chain_par[k].value;
    long long checked = 0, fragile = 0, bad = 0;
    for (int k = 0; k < n_out; k++)
        buf[n_in + k].resize(elems * fusec_dtype_size[chain_out[k].dtype] + 16);
    std::vector<FusecValue> in(n_in + 1), ref(n_out + 1); /* integers as long long */
    /* each broadcast input again, one element further on: misaligned for vector loads */
    std::vector<std::vector<unsigned char>> moved(n_in);
    for (int k = 0; k < n_in; k++)
        if (varies_of(k) != ~0u && own_elems(dims, varies_of(k)) != elems) {
            size_t size = fusec_dtype_size[chain_in[k].dtype];
            moved[k].assign(buf[k].size() + size, 0);
            memcpy(moved[k].data() + size, buf[k].data(), buf[k].size());
        }
    static const char *const path[3] = {"vector", "scalar", "moved broadcast inputs"};
    for (int version = 0; version < 2; version++)
        for (int scalar = 0; scalar < 3; scalar++) { /* 2: vector, the broadcast inputs misaligned */
            void *b[256];
            for (int k = 0; k < n_in + n_out && k < 256; k++) {
                b[k] = buf[k].data();
                if (scalar == 2 && k < n_in && !moved[k].empty())
                    b[k] = moved[k].data() + fusec_dtype_size[chain_in[k].dtype];
                if (k >= n_in)
                    memset(b[k], 0xFF, buf[k].size()); /* a NaN (a bool of 255): never written shows */
            }
            fx_scalar_only = scalar == 1;
            if (chain_run_dims(version, b, par, dims, 0) != cudaSuccess) {
                printf("cpu_check: the %s call failed\n", version ? "fused" : "unfused");
                return 1;
            }
            for (size_t i = 0; i < elems; i++) {
                for (int k = 0; k < n_in; k++) {
                    double x = val[k][own_index(dims, varies_of(k), i)];
                    if (fusec_dtype[chain_in[k].dtype].kind == FX_KIND_INT)
                        in[k].i = (long long)x;
                    else
                        in[k].f = x;
                }
                fusec_ref_fragile = 0;
                fusec_ref_scale = 0;
                chain_reference(version, in.data(), par, ref.data());
                for (int k = 0; k < n_out; k++) {
                    int dt = chain_out[k].dtype, tol = chain_out[k].tol_dtype;
                    double got = cc_load(b[n_in + k], i, dt);
                    double want = fusec_dtype[dt].kind == FX_KIND_INT ? (double)ref[k].i : ref[k].f;
                    if (dt == FX_BOOL && ((const unsigned char *)b[n_in + k])[i] > 1) {
                        got = NAN; /* not written, or not 0 or 1 */
                    } else if (fusec_ref_fragile) {
                        fragile++;
                        continue;
                    }
                    /* as the harness: an fp8 output is exact (run.cuh) */
                    if (dt != FX_BOOL && !FX_IS_FP8(dt) && fusec_dtype[tol].rtol > fusec_dtype[dt].rtol)
                        dt = tol;
                    double cancel = dt == FX_BOOL || FX_IS_FP8(dt) ? 0
                                                                   : ldexp(2.0, 1 - fusec_dtype[dt].prec) * fusec_ref_scale;
                    bool ok = isnan(want) || isnan(got) ? isnan(want) && isnan(got)
                              : isinf(want) || isinf(got) ? got == want
                              : fabs(got - want) <= fusec_dtype[dt].atol + cancel + fusec_dtype[dt].rtol * fabs(want);
                    checked++;
                    if (!ok && bad++ < 5)
                        printf("MISMATCH %s (%s path) output %s element %zu: got %.17g, reference %.17g\n",
                               version ? "fused" : "unfused", path[scalar], chain_out[k].name, i, got,
                               want);
                }
            }
        }
    /* more elements than one launch's grid covers (FX_MAX_ELEMS): both APIs
     * refuse them before any kernel runs (with null arrays, one that did not
     * would crash at once) */
    if (ndims > 0) {
        size_t huge[4] = {1, 1, 1, 1};
        huge[0] = FX_MAX_ELEMS + 1;
        void *b[256] = {NULL};
        for (int version = 0; version < 2; version++)
            if (chain_run_dims(version, b, par, huge, 0) != cudaErrorInvalidValue && bad++ < 5)
                printf("MISMATCH %s: %zu elements not refused\n", version ? "fused" : "unfused", huge[0]);
    }
    printf("cpu_check: %lld compared, %lld fragile, %lld mismatches (%zu elements)\n", checked, fragile, bad, elems);
    return bad != 0;
}

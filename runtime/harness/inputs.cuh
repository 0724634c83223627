/* ================================ inputs ================================ */

/* Special values put at the first indices of every non-bool input. Slot 0
 * means "a random value"; with several inputs the first indices run through
 * the combinations (NaN with +inf, -0 with a random value, ...). */
#define FH_NSPECIAL 13

/* How to generate one input: the same function on the device (to fill it)
 * and on the host (to know its value for the reference). */
typedef struct FhGen {
    unsigned long long seed;
    int dtype, prec;              /* storage dtype and its significant bits */
    int bits, is_int, is_signed;  /* an integer dtype: its width and signedness */
    unsigned long long digit_div; /* slot of index i: (i / digit_div + digit_add) % FH_NSPECIAL */
    unsigned long long digit_add;
    unsigned long long nspecial; /* indices below this take special values */
    double special[FH_NSPECIAL];
    long long special_int[FH_NSPECIAL]; /* an integer dtype's */
} FhGen;

/* splitmix64's finaliser: a well-mixed 64-bit hash. */
static __host__ __device__ inline unsigned long long fh_mix(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The low bits of b as an integer of the width and signedness given. */
static __host__ __device__ inline long long fh_wrap_bits(unsigned long long b, int bits, int is_signed)
{
    if (bits < 64) {
        b &= (1ull << bits) - 1;
        if (is_signed && (b >> (bits - 1) & 1))
            b |= ~0ull << bits;
    }
    return (long long)b;
}

/* Input value at index i of an integer dtype, exactly: half the time a small
 * value in [-20, 20] (a shift count, a divisor, a sign; wrapped for u8), else
 * all the dtype's bits at random. */
static __host__ __device__ inline long long fh_gen_int(const FhGen *g, unsigned long long i)
{
    unsigned long long h = fh_mix(g->seed ^ fh_mix(i));
    if (i < g->nspecial) {
        unsigned slot = (unsigned)((i / g->digit_div + g->digit_add) % FH_NSPECIAL);
        if (slot)
            return g->special_int[slot];
    }
    if (h & 1)
        return fh_wrap_bits((unsigned long long)((long long)((h >> 8) % 41) - 20), g->bits, g->is_signed);
    return fh_wrap_bits(h >> 1 ^ h << 63, g->bits, g->is_signed);
}

/* Input value at index i, exactly representable in g->dtype by construction
 * (p significant bits): a bool is a random 0 or 1; an integer is
 * fh_gen_int's; an fp8 is a random code of the 256, decoded; a float is, 7
 * times in 8, uniform in [-4, 4) on a grid of p bits (never 0), else of
 * magnitude [2^-12, 2^-1) with p random bits and a random sign. */
static __host__ __device__ inline double fh_gen_value(const FhGen *g, unsigned long long i)
{
    unsigned long long h = fh_mix(g->seed ^ fh_mix(i));
    int p = g->prec;
    if (g->is_int)
        return (double)fh_gen_int(g, i);
    if (i < g->nspecial) {
        unsigned slot = (unsigned)((i / g->digit_div + g->digit_add) % FH_NSPECIAL);
        if (slot && g->dtype == FX_BOOL)
            return (double)(slot & 1);
        if (slot)
            return g->special[slot];
    }
    if (g->dtype == FX_BOOL)
        return (double)(h >> 63);
    if (g->dtype == FX_F8E4M3) /* every code: NaN, 448, the subnormals */
        return fx_widen(FxF8e4m3{(uint8_t)(h >> 56)});
    if (g->dtype == FX_F8E5M2) /* every code: inf, NaN, 57344, the subnormals */
        return fx_widen(FxF8e5m2{(uint8_t)(h >> 56)});
    if ((h & 7) == 0) {
        int e = -12 + (int)(((h >> 3) & 31) % 11);
        unsigned long long f = (h >> 8) & ((1ull << (p - 1)) - 1);
        double v = ldexp(1.0 + ldexp((double)f, 1 - p), e);
        return h >> 63 ? -v : v;
    } else {
        long long m = (long long)(h >> (64 - p)) - (1ll << (p - 1));
        return ldexp((double)(m ? m : 1), 3 - p);
    }
}

static __global__ void fh_gen_kernel(void *p, size_t n, FhGen g)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double v = g.is_int ? 0.0 : fh_gen_value(&g, i);
        long long iv = g.is_int ? fh_gen_int(&g, i) : 0;
        switch (g.dtype) {
#define FH_GEN_STORE(E, name, size, store, ...) \
    case FX_##E: ((store *)p)[i] = g.is_int ? fx_to_##name(iv) : fx_to_##name(v); break;
            FUSEC_DTYPES(FH_GEN_STORE)
#undef FH_GEN_STORE
        }
    }
}

/* The generator of input k at size n. */
static FhGen fh_make_gen(const FusecChain *c, int k, size_t n, unsigned long long seed)
{
    FhGen g;
    int dt = c->in[k].dtype, p = fusec_dtype[dt].prec, emin = fusec_dtype[dt].emin;
    unsigned long long combos = 1;
    int j;
    memset(&g, 0, sizeof g);
    g.seed = fh_mix(fh_mix(seed + 0x5EED + (unsigned long long)k) ^ n);
    g.dtype = dt;
    g.prec = p;
    g.is_int = fusec_dtype[dt].kind == FX_KIND_INT;
    g.bits = 8 * fusec_dtype[dt].size;
    g.is_signed = g.is_int && p < g.bits;
    /* inputs 0, 1, 2 are the digits of i in base FH_NSPECIAL (all pairs and
     * triples); later inputs step through the slots, each at its own offset */
    g.digit_div = 1;
    for (j = 0; j < k && k < 3; j++)
        g.digit_div *= FH_NSPECIAL;
    g.digit_add = k < 3 ? 0 : (unsigned long long)k;
    for (j = 0; j < c->n_in && j < 3; j++)
        combos *= FH_NSPECIAL;
    g.nspecial = combos < 4096 ? combos : 4096;
    if (g.is_int) { /* the edges of the range, -1, 0, 1 and the shift counts at the width */
        long long lo = g.is_signed ? (long long)(0 - (1ull << (g.bits - 1))) : 0;
        long long hi = (long long)(g.is_signed ? (1ull << (g.bits - 1)) - 1 : (1ull << g.bits) - 1);
        long long sp[FH_NSPECIAL] = {0, lo, hi, -1, 0, 1, 2, lo + 1, hi - 1, g.bits - 1, g.bits, -2, 3};
        for (j = 0; j < FH_NSPECIAL; j++)
            g.special_int[j] = fh_wrap_bits((unsigned long long)sp[j], g.bits, g.is_signed);
    } else if (dt != FX_BOOL) {
        double sub_min = ldexp(1.0, emin - p + 1), min_normal = ldexp(1.0, emin);
        double sp[FH_NSPECIAL] = {0,        NAN,         HUGE_VAL,  -HUGE_VAL,           0.0,
                                  -0.0,     sub_min,     -(min_normal - sub_min), fusec_dtype[dt].max_finite,
                                  -fusec_dtype[dt].max_finite, min_normal, 1.0,        -0.5};
        memcpy(g.special, sp, sizeof sp);
        if (FX_IS_FP8(dt)) /* as the dtype holds them: f8e4m3 has NaN for inf */
            for (j = 0; j < FH_NSPECIAL; j++)
                g.special[j] = ref_round(sp[j], dt);
    }
    return g;
}

static void fh_gen_input(void *dev, size_t n, const FhGen *g, int sms, cudaStream_t s)
{
    fh_gen_kernel<<<fh_grid(n, sms), 256, 0, s>>>(dev, n, *g);
    FH_CHECK(cudaGetLastError());
}


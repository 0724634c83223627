/* ================================ the run's state ================================ */

/* One version x output, verified at one size. */
typedef struct FhCheck {
    size_t n;
    int version, out;
    long long checked, fragile;
    double max_abs, max_rel, max_ulp;
} FhCheck;

typedef struct FhTimes {
    double median, min, max; /* us per call */
} FhTimes;

/* The versions: 0 unfused, 1 fused, and 2 the CUB version where the .cu was
 * compiled with -DFUSEC_CUB (FusecChain.versions). */
#define FH_MAX_VERSIONS 3
static const char *const fh_version_name[FH_MAX_VERSIONS] = {"unfused", "fused", "cub"};

/* One size x mode of the timing table, indexed by version. The model
 * predicts the unfused and fused versions only. */
typedef struct FhRow {
    size_t n;
    int mode;
    int host; /* the model's FUSEC_HOST_* used for the prediction */
    FhTimes t[FH_MAX_VERSIONS];
    FusecTime pred[2];
    double speedup, pred_speedup, err_pct;
    double vs_cub; /* CUB's time / the fused time (>= 1: fused is as fast or faster); 0 without CUB */
    double gbps[FH_MAX_VERSIONS], pct_copy[FH_MAX_VERSIONS];
    int regime[2]; /* from the measurement */
} FhRow;

typedef struct FhRefusal {
    size_t n;
    char why[256];
} FhRefusal;

typedef struct FhRun {
    const FusecChain *c;
    FhOptions o;
    FhDevice d;
    FusecProfile prof;
    FhCalib calib;
    int calibrated;
    cudaStream_t s;
    double *par;               /* the params' values (never NULL) */
    double *rtol, *atol;       /* per output */
    double *cancel;            /* per output: 2 ulps (relative) of its least precise dtype */
    double io_bytes;           /* bytes per element of all inputs and outputs */
    char *cmdline;
    FhCheck *checks;
    int nchecks, cap_checks;
    FhRow *rows;
    int nrows, cap_rows;
    FhRefusal *refused;
    int nrefused, cap_refused;
    int verified_sizes, timed_sizes;
    long long fragile_total;
    void *flush;               /* the L2 flush buffer (timing only) */
    size_t flush_bytes;
    unsigned *sink;
    cudaEvent_t *ev;           /* reps + 1 events */
    double *times;             /* reps times, us */
    size_t dims[4];            /* a shaped chain: the dims' sizes (--dims; the swept one set per size) */
    int sweep;                 /* the dim --sizes varies */
} FhRun;

/* ================================ shapes ================================ */

/* A shaped chain at size n of the sweep: the dims' sizes. */
static void fh_dims_at(const FhRun *R, size_t n, size_t *dims)
{
    int d;
    for (d = 0; d < 4; d++)
        dims[d] = d < R->c->ndims ? R->dims[d] : 1;
    if (R->c->rank > 0)
        dims[R->sweep] = n;
}

/* The size of position q of the chain's shape. */
static size_t fh_pos_size(const FhRun *R, const size_t *dims, int q)
{
    return R->c->shape[q] < 0 ? 1 : dims[R->c->shape[q]];
}

/* Elements of a tensor that varies along the positions in varies, at size n
 * of the sweep (n itself for a chain without shapes); ~0u: the chain's own. */
static size_t fh_tensor_elems(const FhRun *R, unsigned varies, size_t n)
{
    size_t dims[4], e = 1;
    int q;
    if (R->c->rank == 0)
        return n;
    fh_dims_at(R, n, dims);
    for (q = 0; q < R->c->rank; q++)
        if (varies >> q & 1)
            e *= fh_pos_size(R, dims, q);
    return e;
}

static size_t fh_elems(const FhRun *R, size_t n) { return fh_tensor_elems(R, ~0u, n); }

/* Where element i of the chain's shape is in a tensor that varies along
 * varies (row-major, contiguous): its coordinates, without the broadcast ones. */
static size_t fh_own_index(const FhRun *R, const size_t *dims, unsigned varies, size_t i)
{
    size_t own = 0, stride = 1;
    int q;
    if (R->c->rank == 0)
        return i;
    for (q = R->c->rank - 1; q >= 0; q--) {
        size_t size = fh_pos_size(R, dims, q), coord = i % size;
        i /= size;
        if (varies >> q & 1) {
            own += coord * stride;
            stride *= size;
        }
    }
    return own;
}

static unsigned fh_varies(const FhRun *R, int buffer)
{
    const FusecChain *c = R->c;
    return buffer < c->n_in ? c->in[buffer].varies : c->out[buffer - c->n_in].varies;
}

/* One call of a version at size n of the sweep. */
static cudaError_t fh_call(const FhRun *R, int version, void *const *b, size_t n)
{
    size_t dims[4];
    if (R->c->rank == 0)
        return R->c->run(version, b, R->par, n, R->s);
    fh_dims_at(R, n, dims);
    return R->c->run_dims(version, b, R->par, dims, R->s);
}

/* A version's model at size n of the sweep: its kernels' costs there (a
 * shaped chain's from its terms, into *store) and the elements it covers. */
static FusecVersion fh_version_at(const FhRun *R, int fused, size_t n, FusecKernelCost **store, double *elems)
{
    const FusecChain *c = R->c;
    FusecVersion v = fused ? c->fused : c->unfused;
    size_t dims[4];
    double dd[4];
    int d;
    *elems = (double)fh_elems(R, n);
    if (c->rank == 0)
        return v;
    free(*store);
    *store = (FusecKernelCost *)fh_alloc(sizeof(FusecKernelCost) * (size_t)(v.nkernels + 1));
    memcpy(*store, v.kernels, sizeof(FusecKernelCost) * (size_t)v.nkernels);
    fh_dims_at(R, n, dims);
    for (d = 0; d < 4; d++)
        dd[d] = (double)dims[d];
    fusec_costs_at(*store, v.nkernels, fused ? c->fterms : c->uterms, fused ? c->nfterms : c->nuterms, dd, c->ndims,
                   *elems);
    v.kernels = *store;
    /* the footprint needs the inputs' bytes: the fused kernel's reads */
    FusecKernelCost f = c->fused.kernels[0];
    fusec_costs_at(&f, 1, c->fterms, c->nfterms, dd, c->ndims, *elems);
    v.footprint = fusec_footprint(v.kernels, v.nkernels, f.in_bytes);
    d = c->shape[c->rank - 1];
    fusec_version_rows(&v, d >= 0 ? dd[d] : 1);
    return v;
}

/* Bytes per element of the chain that a version moves at size n. */
static double fh_bytes_per_element(const FhRun *R, int fused, size_t n)
{
    FusecKernelCost *store = NULL;
    double elems, b = 0;
    int k;
    FusecVersion v;
    if (R->c->rank == 0)
        return fused ? R->c->fused_bytes : R->c->unfused_bytes;
    v = fh_version_at(R, fused, n, &store, &elems);
    for (k = 0; k < v.nkernels; k++)
        b += fusec_kernel_bytes(&v.kernels[k]);
    free(store);
    return b;
}

/* ================================ buffers of one size ================================ */

/* Device buffers of one size: inputs, then outputs, as c->run wants them. */
static void **fh_buffers_alloc(const FhRun *R, size_t n)
{
    const FusecChain *c = R->c;
    int nb = c->n_in + c->n_out, k;
    void **b = (void **)fh_alloc(sizeof(void *) * (size_t)(nb ? nb : 1));
    for (k = 0; k < nb; k++) {
        int dt = k < c->n_in ? c->in[k].dtype : c->out[k - c->n_in].dtype;
        if (cudaMalloc(&b[k], fh_tensor_elems(R, fh_varies(R, k), n) * (size_t)fusec_dtype_size[dt]) != cudaSuccess) {
            (void)cudaGetLastError(); /* out of memory is not sticky: clear it */
            while (k-- > 0)
                FH_CHECK(cudaFree(b[k]));
            free(b);
            return NULL;
        }
    }
    return b;
}

static void fh_buffers_free(const FusecChain *c, void **b)
{
    int k;
    for (k = 0; k < c->n_in + c->n_out; k++)
        FH_CHECK(cudaFree(b[k]));
    free(b);
}

static void fh_refuse(FhRun *R, size_t n, const char *why)
{
    char nb[32];
    int i;
    printf("  n = %s (%zu): skipped: %s\n", fh_fmt_n(n, nb, sizeof nb), n, why);
    fflush(stdout);
    for (i = 0; i < R->nrefused; i++)
        if (R->refused[i].n == n)
            return;
    R->refused = (FhRefusal *)fh_grow(R->refused, &R->cap_refused, R->nrefused + 1, sizeof *R->refused);
    R->refused[R->nrefused].n = n;
    fh_format(R->refused[R->nrefused].why, sizeof R->refused[0].why, "%s", why);
    R->nrefused++;
}

#define FH_VERIFY_ALL_MAX ((size_t)1 << 22) /* up to this size every element is checked */
#define FH_VERIFY_SAMPLE ((size_t)1 << 16)  /* else first, last and random blocks of this many */
#define FH_CHUNK_BYTES ((size_t)32 << 20)   /* outputs come back to the host in chunks */

/* Does size n fit? Device: its inputs and outputs, plus the unfused
 * version's scratch (at most n * unfused_bytes: every intermediate it
 * writes), beside what is allocated now. Host: the verification's copies.
 * Writes the reason into why when it does not fit. */
static int fh_fits(const FhRun *R, size_t n, int verifying, char *why, size_t len)
{
    char a[32], b[32], c[32], d[32], e[32], f[32];
    size_t free_b, total;
    size_t elems = fh_elems(R, n);
    double io = 0, scratch = fh_bytes_per_element(R, 0, n) * elems, margin = 128.0 * (1 << 20);
    double sample = elems <= FH_VERIFY_ALL_MAX ? (double)elems : 3.0 * FH_VERIFY_SAMPLE;
    double host = FH_CHUNK_BYTES + sample * (8.0 * R->c->n_out + 1 + 8) + elems / 8.0 * R->c->n_out;
    int k;
    for (k = 0; k < R->c->n_in + R->c->n_out; k++)
        io += (double)fh_tensor_elems(R, fh_varies(R, k), n) *
              fusec_dtype_size[k < R->c->n_in ? R->c->in[k].dtype : R->c->out[k - R->c->n_in].dtype];
    double host_avail = fh_host_available();
    FH_CHECK(cudaMemGetInfo(&free_b, &total));
    if (io + scratch + margin > (double)free_b) {
        fh_format(why, len,
                  "needs %s of device memory (inputs and outputs %s, unfused scratch up to %s, "
                  "margin %s), %s free%s%s%s",
                  fh_fmt_bytes(io + scratch + margin, a, sizeof a), fh_fmt_bytes(io, b, sizeof b),
                  fh_fmt_bytes(scratch, c, sizeof c), fh_fmt_bytes(margin, d, sizeof d),
                  fh_fmt_bytes((double)free_b, e, sizeof e), R->flush ? " (beside the L2 flush buffer, " : "",
                  R->flush ? fh_fmt_bytes((double)R->flush_bytes, f, sizeof f) : "", R->flush ? ")" : "");
        return 0;
    }
    if (verifying && host > 0.5 * host_avail) {
        fh_format(why, len, "verification needs %s of host memory, %s available",
                  fh_fmt_bytes(host, a, sizeof a), fh_fmt_bytes(host_avail, b, sizeof b));
        return 0;
    }
    return 1;
}

/* Allocates the buffers of size n and fills the inputs; NULL (after saying
 * why) when the size does not fit. */
static void **fh_prepare_size(FhRun *R, size_t n, int verifying)
{
    char why[512];
    void **b;
    int k;
    if (!fh_fits(R, n, verifying, why, sizeof why)) {
        fh_refuse(R, n, why);
        return NULL;
    }
    b = fh_buffers_alloc(R, n);
    if (!b) {
        fh_refuse(R, n, "cudaMalloc failed: out of device memory");
        return NULL;
    }
    for (k = 0; k < R->c->n_in; k++) {
        FhGen g = fh_make_gen(R->c, k, n, R->o.seed);
        /* timing: the same values without the special ones at the first
         * indices, which send some ops (a division, exp, log1p of an
         * infinity, a NaN or a subnormal) down slow paths that ordinary data
         * never take; at small n the slow warp set the kernel's time
         * (call 12 of 2026-12-03; docs/harness.md, "Inputs") */
        if (!verifying)
            g.nspecial = 0;
        fh_gen_input(b[k], fh_tensor_elems(R, R->c->in[k].varies, n), &g, R->d.sms, R->s);
    }
    FH_CHECK(cudaStreamSynchronize(R->s));
    return b;
}

/* Runs one version once and checks its errors: what it returns (launch
 * errors), then, after it finished, any error of its kernels. */
static void fh_run_checked(const FhRun *R, int version, void **b, size_t n)
{
    cudaError_t e = fh_call(R, version, b, n);
    if (e != cudaSuccess) {
        fprintf(stderr, "fusec harness: the %s version failed at n = %zu\n", fh_version_name[version], n);
        FH_CHECK(e);
    }
    FH_CHECK(cudaStreamSynchronize(R->s));
    FH_CHECK(cudaGetLastError());
}


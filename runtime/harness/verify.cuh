/* ================================ verification ================================ */

/* Everything the check of one version at one size needs. */
typedef struct FhVerify {
    FhRun *R;
    size_t n;               /* the size (of the sweep dim, for a shaped chain) */
    size_t elems;           /* elements of the chain's shape there: of each output */
    size_t dims[4];         /* a shaped chain's dims there */
    void **bufs;
    FhGen *gens;            /* one per input */
    size_t count;           /* elements compared with the reference */
    size_t *idx;            /* their indices, sorted; NULL: all of 0 .. n-1 */
    FusecValue *ref;        /* ref[j * n_out + k]: output k at the j-th compared index */
    unsigned char *fragile; /* per compared index */
    double *scale;          /* per compared index: the largest magnitude its values reached */
    unsigned char **seen;   /* per output: bitmap of elements holding the first poison */
    unsigned char *chunk;   /* pinned host buffer of FH_CHUNK_BYTES */
    FhCheck *stats;         /* per output */
} FhVerify;

/* The poison of each of the two runs, one byte repeated: 0xFF (a NaN in
 * f16/bf16/f32/f64, 255 in a bool) then 0x7F (a huge finite value, or a NaN
 * in f16; 127 in a bool). A written element has the same value in both runs;
 * an element that holds 0xFF.. after the first and 0x7F.. after the second
 * was never written. */
static const unsigned char fh_poison[2] = {0xFF, 0x7F};

/* Indices compared with the reference: all up to 2^22, else the first and
 * the last 2^16 and 2^16 seeded random ones, sorted, without repeats. */
static void fh_sample(FhVerify *v, unsigned long long seed)
{
    size_t n = v->elems, k, m = 0, cnt = 3 * FH_VERIFY_SAMPLE;
    if (n <= FH_VERIFY_ALL_MAX) {
        v->count = n;
        v->idx = NULL;
        return;
    }
    v->idx = (size_t *)fh_alloc(cnt * sizeof(size_t));
    for (k = 0; k < FH_VERIFY_SAMPLE; k++) {
        v->idx[m++] = k;
        v->idx[m++] = n - FH_VERIFY_SAMPLE + k;
        v->idx[m++] = (size_t)(fh_mix(seed ^ fh_mix(n + k)) % n);
    }
    qsort(v->idx, m, sizeof(size_t), fh_cmp_size);
    for (k = 1, cnt = 1; k < m; k++)
        if (v->idx[k] != v->idx[cnt - 1])
            v->idx[cnt++] = v->idx[k];
    v->count = cnt;
}

/* The reference's version for a version: the CUB version runs the fused
 * chain's element function, so its reference is the fused one. */
static int fh_ref_version(int version)
{
    return version == 0 ? 0 : 1;
}

/* Input value at index i as the reference takes it. */
static void fh_gen_into(FusecValue *in, const FhGen *g, unsigned long long i)
{
    if (g->is_int)
        in->i = fh_gen_int(g, i);
    else
        in->f = fh_gen_value(g, i);
}

/* The reference of one version at every compared index, and which are fragile. */
static void fh_reference(FhVerify *v, int version)
{
    const FusecChain *c = v->R->c;
    FusecValue *in = (FusecValue *)fh_alloc(sizeof(FusecValue) * (size_t)(c->n_in + 1));
    size_t j;
    int k;
    for (j = 0; j < v->count; j++) {
        size_t i = v->idx ? v->idx[j] : j;
        for (k = 0; k < c->n_in; k++)
            fh_gen_into(&in[k], &v->gens[k], fh_own_index(v->R, v->dims, c->in[k].varies, i));
        fusec_ref_fragile = 0;
        fusec_ref_scale = 0;
        fusec_ref_ties_exact = fh_ref_version(version) == 0;
        c->reference(fh_ref_version(version), in, v->R->par, v->ref + j * (size_t)c->n_out);
        v->fragile[j] = (unsigned char)fusec_ref_fragile;
        v->scale[j] = fusec_ref_scale;
    }
    free(in);
}

static unsigned long long fh_bits(const unsigned char *p, int size)
{
    unsigned long long b = 0;
    int i;
    for (i = size - 1; i >= 0; i--)
        b = b << 8 | p[i]; /* little-endian, as the GPU and its hosts */
    return b;
}

/* A stored element as a double (a bool as its byte: 0, 1 or invalid; an
 * integer as its value, rounded beyond 2^53: fh_decode_int is exact). A
 * float is decoded from its bits by its row of fusec_dtype.h: a sign bit,
 * then 8 * size - prec exponent bits (bias 1 - emin), then prec - 1 bits of
 * fraction; the top exponent is inf (fraction 0) or NaN, or, in a format
 * without inf (the row's inf column 0: f8e4m3), numbers but for the
 * all-ones fraction, NaN. */
/* A stored integer, exactly: its bytes, sign-extended when signed. */
static long long fh_decode_int(const unsigned char *p, int dtype)
{
    const FusecDtype *d = &fusec_dtype[dtype];
    return fh_wrap_bits(fh_bits(p, d->size), 8 * d->size, d->prec < 8 * d->size);
}

static double fh_decode(const unsigned char *p, int dtype)
{
    const FusecDtype *d = &fusec_dtype[dtype];
    unsigned long long b, frac;
    int ebits, e, fbits = d->prec - 1;
    double v;
    if (d->kind == FX_KIND_BOOL)
        return p[0];
    if (d->kind == FX_KIND_INT)
        return (double)fh_decode_int(p, dtype);
    b = fh_bits(p, d->size);
    ebits = 8 * d->size - d->prec;
    e = (int)((b >> fbits) & ((1ull << ebits) - 1));
    frac = b & ((1ull << fbits) - 1);
    if (e == (1 << ebits) - 1 && (d->inf || frac == (1ull << fbits) - 1))
        v = d->inf && !frac ? HUGE_VAL : NAN;
    else if (e)
        v = ldexp((double)(frac | 1ull << fbits), e + d->emin - 1 - fbits);
    else
        v = ldexp((double)frac, d->emin - fbits);
    return b >> (8 * d->size - 1) ? -v : v;
}

static int fh_is_poison(const unsigned char *p, int size, unsigned char pat)
{
    int i;
    for (i = 0; i < size; i++)
        if (p[i] != pat)
            return 0;
    return 1;
}

/* got vs ref: NaN only matches NaN, an infinity only itself. */
static int fh_close(double got, double ref, double rtol, double atol)
{
    if (isnan(ref) || isnan(got))
        return isnan(ref) && isnan(got);
    if (isinf(ref) || isinf(got))
        return got == ref;
    return fabs(got - ref) <= atol + rtol * fabs(ref);
}

static void fh_update_stats(FhCheck *st, double got, double ref, int dtype)
{
    double err;
    if (!isfinite(got) || !isfinite(ref))
        return;
    err = fabs(got - ref);
    if (err > st->max_abs)
        st->max_abs = err;
    if (ref != 0 && err / fabs(ref) > st->max_rel)
        st->max_rel = err / fabs(ref);
    if (err / fh_ulp(ref, dtype) > st->max_ulp)
        st->max_ulp = err / fh_ulp(ref, dtype);
}

/* A value of dtype as the reference holds it, for a message. */
static void fh_print_value(FILE *f, FusecValue v, int dtype)
{
    if (fusec_dtype[dtype].kind == FX_KIND_INT)
        fprintf(f, "%lld", v.i);
    else
        fprintf(f, "%.17g", v.f);
}

/* Prints the first bad element: where, the inputs and params there, what
 * came out and what was expected (ref: NULL when nothing is). */
static void fh_print_failure(const FhVerify *v, int version, int run, int k, size_t i, const unsigned char *p,
                             const FusecValue *ref, const char *what)
{
    const FusecChain *c = v->R->c;
    int dt = c->out[k].dtype, j, sz = fusec_dtype_size[dt];
    FusecValue got;
    char nb[32];
    if (fusec_dtype[dt].kind == FX_KIND_INT)
        got.i = fh_decode_int(p, dt);
    else
        got.f = fh_decode(p, dt);
    fflush(stdout);
    fprintf(stderr, "\nVERIFICATION FAILED: %s version, output %s (%s), n = %s, element %zu (run %d)\n",
            fh_version_name[version], c->out[k].name, fusec_dtype_name[dt], fh_fmt_n(v->n, nb, sizeof nb), i,
            run + 1);
    for (j = 0; j < c->n_in; j++) {
        FusecValue x;
        fh_gen_into(&x, &v->gens[j], fh_own_index(v->R, v->dims, c->in[j].varies, i));
        fprintf(stderr, "  input  %-12s = ", c->in[j].name);
        fh_print_value(stderr, x, c->in[j].dtype);
        fprintf(stderr, " (%s)\n", fusec_dtype_name[c->in[j].dtype]);
    }
    for (j = 0; j < c->n_par; j++)
        fprintf(stderr, "  param  %-12s = %.17g\n", c->par[j].name, v->R->par[j]);
    fprintf(stderr, "  got      ");
    fh_print_value(stderr, got, dt);
    fprintf(stderr, " (bits 0x%0*llx)%s\n", 2 * sz, fh_bits(p, sz),
            fh_is_poison(p, sz, fh_poison[run]) ? ", the poison pattern: never written?" : "");
    if (ref) {
        fprintf(stderr, "  expected ");
        fh_print_value(stderr, *ref, dt);
        if (fusec_dtype[dt].kind == FX_KIND_INT && fusec_dtype[c->out[k].tol_dtype].kind != FX_KIND_FLOAT)
            fprintf(stderr, " (exactly: an integer computed from integers)\n");
        else
            fprintf(stderr, " (tolerance %.3g + %.3g * |expected|)\n", v->R->atol[k], v->R->rtol[k]);
    }
    fprintf(stderr, "  %s\n", what);
    {
        /* The reference again, for this element alone: every output. */
        FusecValue in[64], out[64];
        int kk;
        if (c->n_in <= 64 && c->n_out <= 64) {
            for (kk = 0; kk < c->n_in; kk++)
                fh_gen_into(&in[kk], &v->gens[kk], fh_own_index(v->R, v->dims, c->in[kk].varies, i));
            fusec_ref_fragile = 0;
            fusec_ref_ties_exact = fh_ref_version(version) == 0;
            c->reference(fh_ref_version(version), in, v->R->par, out);
            fprintf(stderr, "  reference recomputed for element %zu:", i);
            for (kk = 0; kk < c->n_out; kk++) {
                fprintf(stderr, " %s=", c->out[kk].name);
                fh_print_value(stderr, out[kk], c->out[kk].dtype);
            }
            fprintf(stderr, "%s\n", fusec_ref_fragile ? " (fragile)" : "");
        }
    }
}

/* Checks one chunk of output k: poison everywhere, values at the compared
 * indices. *jp walks the sorted compared indices. Returns 0 on the first bad
 * element (after printing it). */
static int fh_check_chunk(FhVerify *v, int version, int run, int k, size_t first, size_t cnt, size_t *jp)
{
    const FusecChain *c = v->R->c;
    int dt = c->out[k].dtype, sz = fusec_dtype_size[dt];
    int is_int = fusec_dtype[dt].kind == FX_KIND_INT;
    int exact = is_int && fusec_dtype[c->out[k].tol_dtype].kind != FX_KIND_FLOAT;
    FhCheck *st = &v->stats[k];
    size_t e;
    for (e = 0; e < cnt; e++) {
        size_t i = first + e, j;
        const unsigned char *p = v->chunk + e * sz;
        const FusecValue *rv;
        double got, ref;
        if (fh_is_poison(p, sz, fh_poison[run])) {
            if (run == 0) {
                if (!v->seen[k])
                    v->seen[k] = (unsigned char *)calloc(v->elems / 8 + 1, 1);
                if (!v->seen[k])
                    fh_die("out of host memory");
                v->seen[k][i / 8] |= (unsigned char)(1u << (i % 8));
            } else if (v->seen[k] && (v->seen[k][i / 8] >> (i % 8) & 1)) {
                fh_print_failure(v, version, run, k, i, p, NULL,
                                 "this element held the poison after both runs (a different one each "
                                 "time): it was never written");
                return 0;
            }
        }
        if (dt == FX_BOOL && p[0] > 1 && !fh_is_poison(p, sz, fh_poison[run])) {
            fh_print_failure(v, version, run, k, i, p, NULL, "a bool must be stored as 0 or 1");
            return 0;
        }
        if (v->idx) {
            if (*jp >= v->count || v->idx[*jp] != i)
                continue;
            j = (*jp)++;
        } else {
            j = i;
        }
        if (v->fragile[j]) {
            if (run == 0)
                st->fragile++;
            continue;
        }
        rv = &v->ref[j * (size_t)c->n_out + k];
        /* An integer computed from integers only is exact (i64 too); one
         * computed from floats has their tolerance. */
        if (exact) {
            if (fh_decode_int(p, dt) != rv->i) {
                fh_print_failure(v, version, run, k, i, p, rv, "not the exact integer");
                return 0;
            }
            if (run == 0)
                st->checked++;
            continue;
        }
        got = fh_decode(p, dt);
        ref = is_int ? (double)rv->i : rv->f;
        /* Cancellation: a difference of large values is off by a few of
         * their ulps (in the least precise dtype the output depends on). */
        if (!fh_close(got, ref, v->R->rtol[k], v->R->atol[k] + v->R->cancel[k] * v->scale[j])) {
            fh_print_failure(v, version, run, k, i, p, rv, "outside the tolerance");
            return 0;
        }
        if (run == 0)
            st->checked++;
        fh_update_stats(st, got, ref, dt);
    }
    return 1;
}

/* One run of one version: poison the outputs, run, bring every output back
 * in chunks and check it. */
static int fh_verify_run(FhVerify *v, int version, int run)
{
    const FusecChain *c = v->R->c;
    int k;
    for (k = 0; k < c->n_out; k++) {
        int sz = fusec_dtype_size[c->out[k].dtype];
        FH_CHECK(cudaMemsetAsync(v->bufs[c->n_in + k], fh_poison[run], v->elems * sz, v->R->s));
    }
    /* The second run takes every kernel's scalar path (misaligned pointers
     * take it: one element a thread), the first the 16-byte vector path and,
     * at a size that leaves a rest, the tail's one element a thread; the CUB
     * version has one path, which both runs take. */
    fx_scalar_only = run == 1;
    fh_run_checked(v->R, version, v->bufs, v->n);
    fx_scalar_only = false;
    for (k = 0; k < c->n_out; k++) {
        int sz = fusec_dtype_size[c->out[k].dtype];
        size_t per = FH_CHUNK_BYTES / sz, first, j = 0;
        const unsigned char *dev = (const unsigned char *)v->bufs[c->n_in + k];
        for (first = 0; first < v->elems; first += per) {
            size_t cnt = v->elems - first < per ? v->elems - first : per;
            FH_CHECK(cudaMemcpyAsync(v->chunk, dev + first * sz, cnt * sz, cudaMemcpyDeviceToHost, v->R->s));
            FH_CHECK(cudaStreamSynchronize(v->R->s));
            if (!fh_check_chunk(v, version, run, k, first, cnt, &j))
                return 0;
        }
    }
    return 1;
}

static void fh_print_check_header(void)
{
    printf("\nverification: every version against the double reference on the host, each run twice with\n"
           "the outputs poisoned first (0xFF.., then 0x7F..), the second time on the scalar path that\n"
           "misaligned pointers take; every element is scanned for the poison,\n"
           "every element up to n = 2^22 (else the first, last and 2^16 random ones) is compared;\n"
           "fragile = next to a jump of the chain (a comparison, floor, ...), not compared\n");
    printf("%10s  %-7s  %-16s %10s %8s %12s %12s %9s\n", "n", "version", "output", "checked", "fragile",
           "max abs err", "max rel err", "max ulp");
}

static void fh_print_check(const FhRun *R, const FhCheck *st)
{
    char nb[32], ob[64];
    const FusecTensorArg *o = &R->c->out[st->out];
    fh_format(ob, sizeof ob, "%s (%s)", o->name, fusec_dtype_name[o->dtype]);
    printf("%10s  %-7s  %-16s %10lld %8lld %12.3g %12.3g %9.2f\n", fh_fmt_n(st->n, nb, sizeof nb),
           fh_version_name[st->version], ob, st->checked, st->fragile, st->max_abs, st->max_rel, st->max_ulp);
}

/* Verifies every version at size n. Returns 1 pass, 0 fail, -1 skipped. */
static int fh_verify_size(FhRun *R, size_t n)
{
    const FusecChain *c = R->c;
    FhVerify v;
    int version, run, k, ok = 1;
    memset(&v, 0, sizeof v);
    v.R = R;
    v.n = n;
    v.elems = fh_elems(R, n);
    fh_dims_at(R, n, v.dims);
    v.bufs = fh_prepare_size(R, n, 1);
    if (!v.bufs)
        return -1;
    v.gens = (FhGen *)fh_alloc(sizeof(FhGen) * (size_t)(c->n_in + 1));
    for (k = 0; k < c->n_in; k++)
        v.gens[k] = fh_make_gen(c, k, n, R->o.seed);
    fh_sample(&v, R->o.seed);
    v.ref = (FusecValue *)fh_alloc(sizeof(FusecValue) * v.count * (size_t)(c->n_out + 1));
    v.fragile = (unsigned char *)fh_alloc(v.count);
    v.scale = (double *)fh_alloc(sizeof(double) * v.count);
    v.seen = (unsigned char **)calloc((size_t)c->n_out + 1, sizeof(unsigned char *));
    v.stats = (FhCheck *)calloc((size_t)c->n_out + 1, sizeof(FhCheck));
    if (!v.seen || !v.stats)
        fh_die("out of host memory");
    FH_CHECK(cudaMallocHost((void **)&v.chunk, FH_CHUNK_BYTES));
    for (version = 0; version < c->versions && ok; version++) {
        fh_reference(&v, version);
        for (k = 0; k < c->n_out; k++) {
            memset(&v.stats[k], 0, sizeof v.stats[k]);
            v.stats[k].n = n;
            v.stats[k].version = version;
            v.stats[k].out = k;
            free(v.seen[k]);
            v.seen[k] = NULL;
        }
        for (run = 0; run < 2 && ok; run++)
            ok = fh_verify_run(&v, version, run);
        for (k = 0; k < c->n_out && ok; k++) {
            fh_print_check(R, &v.stats[k]);
            R->fragile_total += v.stats[k].fragile;
            R->checks = (FhCheck *)fh_grow(R->checks, &R->cap_checks, R->nchecks + 1, sizeof *R->checks);
            R->checks[R->nchecks++] = v.stats[k];
        }
    }
    fflush(stdout);
    for (k = 0; k < c->n_out; k++)
        free(v.seen[k]);
    FH_CHECK(cudaFreeHost(v.chunk));
    free(v.seen);
    free(v.stats);
    free(v.fragile);
    free(v.scale);
    free(v.ref);
    free(v.idx);
    free(v.gens);
    fh_buffers_free(c, v.bufs);
    return ok;
}



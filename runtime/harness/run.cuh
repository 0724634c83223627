/* ================================ the run: before and after ================================ */

/* A shaped chain's --dims and --sweep, against its dims; the default sizes
 * (those that make 2^12..2^28 elements). Returns -1 to go on, 2 after a
 * usage error. */
static int fh_setup_dims(FhRun *R)
{
    const FusecChain *c = R->c;
    int given[4] = {0, 0, 0, 0}, d, k;
    const char *s = R->o.dims;
    if (c->rank == 0) {
        if (R->o.dims || R->o.sweep)
            return fh_usage_error("this chain has no shapes (its size is n: --sizes), so no dims:",
                                  R->o.dims ? R->o.dims : R->o.sweep);
        return -1;
    }
    while (s && *s) {
        size_t len = strcspn(s, ","), eq = strcspn(s, "=");
        char item[128];
        unsigned long long v[2];
        const char *bad;
        fh_format(item, sizeof item, "%.*s", (int)len, s);
        for (d = 0, k = -1; d < c->ndims; d++)
            if (eq < len && strlen(c->dims[d]) == eq && !strncmp(c->dims[d], s, eq))
                k = d;
        if (k < 0 || given[k] || fusec_sizes_parse(item + eq + 1, v, 2, &bad) != 1 || v[0] == 0) {
            fprintf(stderr, "fusec harness: bad --dims item '%s': %s (the dims:", item,
                    eq >= len ? "not NAME=SIZE" : k < 0 ? "no such dim" : given[k] ? "given twice" : "bad size");
            for (d = 0; d < c->ndims; d++)
                fprintf(stderr, " %s", c->dims[d]);
            fprintf(stderr, ") (try --help)\n");
            return 2;
        }
        given[k] = 1;
        R->dims[k] = (size_t)v[0];
        s += len + (s[len] == ',');
    }
    R->sweep = 0;
    if (R->o.sweep) {
        for (d = 0, R->sweep = -1; d < c->ndims; d++)
            if (!strcmp(c->dims[d], R->o.sweep))
                R->sweep = d;
        if (R->sweep < 0)
            return fh_usage_error("--sweep: the chain has no dim", R->o.sweep);
    }
    for (d = 0; d < c->ndims; d++)
        if (d != R->sweep && !given[d]) {
            fprintf(stderr, "fusec harness: --dims: give the size of %s (every dim but the swept one, %s: "
                            "e.g. --dims=%s=1024) (try --help)\n",
                    c->dims[d], c->dims[R->sweep], c->dims[d]);
            return 2;
        }
    if (!R->o.sizes_given) {
        size_t other = fh_elems(R, 1), e;
        R->o.nsizes = 0;
        for (e = (size_t)1 << 12; e <= (size_t)1 << 28; e *= 2)
            if (e / other >= 1 && (R->o.nsizes == 0 || R->o.sizes[R->o.nsizes - 1] != e / other))
                R->o.sizes[R->o.nsizes++] = e / other;
        if (R->o.nsizes == 0)
            R->o.sizes[R->o.nsizes++] = 1;
    }
    return -1;
}

/* Tolerances, fragility thresholds, byte counts and param values. */
static void fh_setup_reference(FhRun *R)
{
    const FusecChain *c = R->c;
    int k, nd = 0, dts[256];
    double tiny = 0;
    for (k = 0; k < c->n_in && nd < 256; k++)
        dts[nd++] = c->in[k].dtype;
    for (k = 0; k < c->n_out && nd < 255; k++) {
        dts[nd++] = c->out[k].dtype;
        dts[nd++] = c->out[k].tol_dtype;
    }
    for (k = 0; k < c->n_par && nd < 256; k++)
        dts[nd++] = c->par[k].dtype;
    /* fragility is judged at the least precise dtype of the chain */
    fusec_ref_eps = fusec_dtype[FX_F64].frag_eps;
    for (k = 0; k < nd; k++) {
        /* an fp8 value comes from f32 arithmetic, exact from there on */
        if (fusec_dtype[dts[k]].kind != FX_KIND_FLOAT || FX_IS_FP8(dts[k]))
            continue;
        if (fusec_dtype[dts[k]].frag_eps > fusec_ref_eps)
            fusec_ref_eps = fusec_dtype[dts[k]].frag_eps;
        if (ldexp(1.0, fusec_dtype[dts[k]].emin) > tiny)
            tiny = ldexp(1.0, fusec_dtype[dts[k]].emin);
    }
    fusec_ref_tiny = tiny > 0 ? tiny : DBL_MIN;
    R->cancel = (double *)fh_alloc(sizeof(double) * (size_t)(c->n_out + 1));
    R->rtol = (double *)fh_alloc(sizeof(double) * (size_t)(c->n_out + 1));
    R->atol = (double *)fh_alloc(sizeof(double) * (size_t)(c->n_out + 1));
    R->io_bytes = 0;
    for (k = 0; k < c->n_out; k++) {
        int dt = c->out[k].dtype, tol = c->out[k].tol_dtype;
        /* An f64 output computed from f32 values is as precise as f32. An
         * fp8 output is exact: the reference marks the elements next to
         * its rounding boundaries fragile (fusec_ref.h, ref_round_fp8). */
        if (dt != FX_BOOL && !FX_IS_FP8(dt) && fusec_dtype[tol].rtol > fusec_dtype[dt].rtol)
            dt = tol;
        R->cancel[k] = fusec_dtype[dt].kind != FX_KIND_FLOAT || FX_IS_FP8(dt) ? 0 : ldexp(2.0, 1 - fusec_dtype[dt].prec);
        R->rtol[k] = R->o.rtol >= 0 ? R->o.rtol : fusec_dtype[dt].rtol;
        R->atol[k] = R->o.atol >= 0 ? R->o.atol : fusec_dtype[dt].atol;
        dt = c->out[k].dtype;
        R->io_bytes += fusec_dtype_size[dt];
    }
    for (k = 0; k < c->n_in; k++)
        R->io_bytes += fusec_dtype_size[c->in[k].dtype];
    R->par = (double *)fh_alloc(sizeof(double) * (size_t)(c->n_par + 1));
    for (k = 0; k < c->n_par; k++)
        R->par[k] = c->par[k].value;
}

/* "x bf16, bias f32": a shaped chain's with each tensor's shape aligned on the
 * chain's ("bias f32[1, C]" in an [R, C] chain). */
static void fh_print_tensors(const FusecChain *c, const char *what, const FusecTensorArg *t, int n)
{
    int k, q, first;
    printf("  %-8s", what);
    for (k = 0; k < n; k++) {
        printf("%s %s %s", k ? "," : "", t[k].name, fusec_dtype_name[t[k].dtype]);
        for (q = 0, first = 1; q < c->rank; q++, first = 0)
            printf("%s%s", first ? "[" : ", ", t[k].varies >> q & 1 ? c->dims[c->shape[q]] : "1");
        printf("%s", c->rank > 0 ? "]" : "");
    }
    printf("%s\n", n ? "" : " none");
}

static void fh_print_chain(const FhRun *R)
{
    const FusecChain *c = R->c;
    const char *p = c->program ? c->program : "";
    int k;
    printf("fusec harness: chain %s, from %s\n", c->name ? c->name : "?", c->source ? c->source : "?");
    while (*p) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        printf("  | %.*s\n", len, p);
        p += len + (nl ? 1 : 0);
    }
    fh_print_tensors(c, "inputs", c->in, c->n_in);
    fh_print_tensors(c, "outputs", c->out, c->n_out);
    printf("  %-8s", "params");
    for (k = 0; k < c->n_par; k++)
        printf("%s %s = %.9g (%s)", k ? "," : "", c->par[k].name, c->par[k].value, fusec_dtype_name[c->par[k].dtype]);
    printf("%s\n", c->n_par ? "" : " none");
    if (c->rank > 0) {
        printf("  %-8s [", "shape");
        for (k = 0; k < c->rank; k++)
            printf("%s%s", k ? ", " : "", c->shape[k] < 0 ? "1" : c->dims[c->shape[k]]);
        printf("], row-major; --sizes varies %s", c->dims[R->sweep]);
        for (k = 0; k < c->ndims; k++)
            if (k != R->sweep)
                printf(", %s = %zu", c->dims[k], R->dims[k]);
        printf("\n");
    }
    printf("  seed %llu (--seed %llu repeats these inputs)\n", R->o.seed, R->o.seed);
}

static void fh_print_model(const FhRun *R)
{
    const FusecChain *c = R->c;
    size_t last = R->o.sizes[R->o.nsizes - 1];
    double ub = fh_bytes_per_element(R, 0, last), fb = fh_bytes_per_element(R, 1, last);
    printf("\nmodel: unfused %d kernel%s moving %.4g B/element, fused %d kernel%s moving %.4g B/element: "
           "traffic ratio %.2fx%s\n",
           fusec_kernel_count(&c->unfused), fusec_kernel_count(&c->unfused) == 1 ? "" : "s", ub,
           fusec_kernel_count(&c->fused), fusec_kernel_count(&c->fused) == 1 ? "" : "s", fb, ub / fb,
           c->rank > 0 ? " (at the largest size)" : "");
    printf("       (the speedup where both versions are memory-bound; where launches dominate, nearer %d/%d)\n",
           fusec_kernel_count(&c->unfused), fusec_kernel_count(&c->fused));
}

static int fh_verify_all(FhRun *R)
{
    int i, r;
    fh_print_check_header();
    for (i = 0; i < R->o.nsizes; i++) {
        r = fh_verify_size(R, R->o.sizes[i]);
        if (r == 0)
            return 0;
        R->verified_sizes += r > 0;
    }
    printf("verification passed at %d of %d sizes (%lld comparisons skipped as fragile)\n", R->verified_sizes,
           R->o.nsizes, R->fragile_total);
    return 1;
}


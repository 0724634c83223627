/* ================================ the run: before and after ================================ */

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
        if (dts[k] == FX_BOOL)
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
        /* An f64 output computed from f32 values is as precise as f32. */
        if (dt != FX_BOOL && fusec_dtype[tol].rtol > fusec_dtype[dt].rtol)
            dt = tol;
        R->cancel[k] = dt == FX_BOOL ? 0 : ldexp(2.0, 1 - fusec_dtype[dt].prec);
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

static void fh_print_tensors(const char *what, const FusecTensorArg *t, int n)
{
    int k;
    printf("  %-8s", what);
    for (k = 0; k < n; k++)
        printf("%s %s %s", k ? "," : "", t[k].name, fusec_dtype_name[t[k].dtype]);
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
    fh_print_tensors("inputs", c->in, c->n_in);
    fh_print_tensors("outputs", c->out, c->n_out);
    printf("  %-8s", "params");
    for (k = 0; k < c->n_par; k++)
        printf("%s %s = %.9g (%s)", k ? "," : "", c->par[k].name, c->par[k].value, fusec_dtype_name[c->par[k].dtype]);
    printf("%s\n", c->n_par ? "" : " none");
    printf("  seed %llu (--seed %llu repeats these inputs)\n", R->o.seed, R->o.seed);
}

static void fh_print_model(const FhRun *R)
{
    const FusecChain *c = R->c;
    printf("\nmodel: unfused %d kernel%s moving %.4g B/element, fused %d kernel%s moving %.4g B/element: "
           "traffic ratio %.2fx\n",
           fusec_kernel_count(&c->unfused), fusec_kernel_count(&c->unfused) == 1 ? "" : "s", c->unfused_bytes,
           fusec_kernel_count(&c->fused), fusec_kernel_count(&c->fused) == 1 ? "" : "s", c->fused_bytes,
           c->unfused_bytes / c->fused_bytes);
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


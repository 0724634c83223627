/* ================================ CSV and JSON ================================ */

static const char *fh_verify_status(const FhRun *R, int failed)
{
    if (failed)
        return "fail";
    if (R->o.no_verify)
        return "skipped (--no-verify)";
    return R->verified_sizes ? "pass" : "none (every size skipped)";
}

static void fh_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch < 32)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void fh_json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

/* A CSV field: quoted, quotes doubled, line breaks as " ; ". */
static void fh_csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"')
            fputs("\"\"", f);
        else if (*s == '\n')
            fputs(" ; ", f);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* The CUB version's columns of a timing row (CSV and JSON), after the others. */
static const char *const fh_cub_key[] = {"cub_us", "cub_min_us", "cub_max_us", "cub_gbps", "cub_pct_copy", "vs_cub"};

typedef struct FhOutput {
    const FhRun *R;
    int failed; /* verification failed */
} FhOutput;

static void fh_write_json(FILE *f, const FhOutput *out)
{
    const FhRun *R = out->R;
    const FhDevice *d = &R->d;
    int i, m;
    char buf[32];
    fputs("{\n  \"harness\": \"fusec\",\n  \"date_utc\": ", f);
    fh_json_str(f, d->date);
    fputs(",\n  \"chain\": ", f);
    fh_json_str(f, R->c->name);
    fputs(",\n  \"source\": ", f);
    fh_json_str(f, R->c->source);
    fputs(",\n  \"program\": ", f);
    fh_json_str(f, R->c->program);
    fputs(",\n  \"command\": ", f);
    fh_json_str(f, R->cmdline);
    fputs(",\n  \"gpu\": {\"name\": ", f);
    fh_json_str(f, d->name);
    fprintf(f, ", \"sm\": \"%d.%d\", \"sms\": %d, \"l2_bytes\": %zu, \"memory_bytes\": %zu, \"driver\": ",
            d->cc_major, d->cc_minor, d->sms, d->l2_bytes, d->mem_total);
    fh_json_str(f, d->driver);
    fprintf(f, ", \"driver_cuda\": \"%d.%d\", \"runtime\": \"%d.%d\"},\n", d->driver_api / 1000,
            d->driver_api % 1000 / 10, d->runtime_api / 1000, d->runtime_api % 1000 / 10);
    fprintf(f, "  \"seed\": %llu,\n  \"reps\": %d,\n  \"warmup\": %d,\n  \"passes\": %d,\n  \"modes\": [", R->o.seed,
            R->o.reps, R->o.warmup, R->o.passes);
    for (m = 0; m < R->o.nmodes; m++)
        fprintf(f, "%s\"%s\"", m ? ", " : "", fh_mode_name[R->o.modes[m]]);
    fputs("],\n  \"versions\": [", f);
    for (m = 0; m < R->c->versions; m++)
        fprintf(f, "%s\"%s\"", m ? ", " : "", fh_version_name[m]);
    fputs("],\n  \"hot_timing\": \"calls back to back, an event between consecutive calls, median\",\n", f);
    fputs("  \"profile\": ", f);
    if (R->calibrated)
        fusec_profile_write_json(f, &R->prof);
    else
        fputs("null\n", f);
    fputs(",\n  \"verification\": {\"status\": ", f);
    fh_json_str(f, fh_verify_status(R, out->failed));
    fprintf(f, ", \"sizes_verified\": %d, \"fragile_skipped\": %lld, \"results\": [", R->verified_sizes,
            R->fragile_total);
    for (i = 0; i < R->nchecks; i++) {
        const FhCheck *s = &R->checks[i];
        const FusecTensorArg *o = &R->c->out[s->out];
        fprintf(f, "%s\n    {\"n\": %zu, \"version\": \"%s\", \"output\": ", i ? "," : "", s->n,
                fh_version_name[s->version]);
        fh_json_str(f, o->name);
        fprintf(f, ", \"dtype\": \"%s\", \"checked\": %lld, \"fragile\": %lld, \"max_abs_err\": ",
                fusec_dtype_name[o->dtype], s->checked, s->fragile);
        fh_json_num(f, s->max_abs);
        fputs(", \"max_rel_err\": ", f);
        fh_json_num(f, s->max_rel);
        fputs(", \"max_ulp_err\": ", f);
        fh_json_num(f, s->max_ulp);
        fputs(", \"rtol\": ", f);
        fh_json_num(f, R->rtol[s->out]);
        fputs(", \"atol\": ", f);
        fh_json_num(f, R->atol[s->out]);
        fputs("}", f);
    }
    fputs("]},\n  \"skipped\": [", f);
    for (i = 0; i < R->nrefused; i++) {
        fprintf(f, "%s\n    {\"n\": %zu, \"reason\": ", i ? "," : "", R->refused[i].n);
        fh_json_str(f, R->refused[i].why);
        fputs("}", f);
    }
    fputs("],\n  \"timing\": [", f);
    for (i = 0; i < R->nrows; i++) {
        const FhRow *r = &R->rows[i];
        const double v[] = {r->t[0].median, r->t[1].median, r->t[0].min, r->t[1].min, r->t[0].max, r->t[1].max,
                            r->speedup, r->pred_speedup, r->err_pct, r->pred[0].us, r->pred[1].us,
                            r->gbps[0], r->gbps[1], r->pct_copy[0], r->pct_copy[1]};
        static const char *const key[] = {"unfused_us", "fused_us", "unfused_min_us", "fused_min_us",
                                          "unfused_max_us", "fused_max_us", "speedup", "predicted_speedup",
                                          "error_pct", "predicted_unfused_us", "predicted_fused_us",
                                          "unfused_gbps", "fused_gbps", "unfused_pct_copy", "fused_pct_copy"};
        fprintf(f, "%s\n    {\"n\": %zu, \"n_label\": \"%s\", \"mode\": \"%s\", \"model_host\": \"%s\"",
                i ? "," : "", r->n, fh_fmt_n(r->n, buf, sizeof buf), fh_mode_name[r->mode],
                fusec_host_name[r->host]);
        for (m = 0; m < (int)(sizeof key / sizeof *key); m++) {
            fprintf(f, ", \"%s\": ", key[m]);
            fh_json_num(f, v[m]);
        }
        fprintf(f, ", \"unfused_regime\": \"%s\", \"fused_regime\": \"%s\", \"predicted_fused_regime\": \"%s\"",
                fusec_regime_name[r->regime[0]], fusec_regime_name[r->regime[1]],
                fusec_regime_name[r->pred[1].regime]);
        if (R->c->versions > 2) {
            const double cv[] = {r->t[2].median, r->t[2].min, r->t[2].max, r->gbps[2], r->pct_copy[2], r->vs_cub};
            for (m = 0; m < (int)(sizeof cv / sizeof *cv); m++) {
                fprintf(f, ", \"%s\": ", fh_cub_key[m]);
                fh_json_num(f, cv[m]);
            }
        }
        fputs("}", f);
    }
    fputs("]\n}\n", f);
}

static void fh_write_csv(FILE *f, const FhOutput *out)
{
    const FhRun *R = out->R;
    const FhDevice *d = &R->d;
    const FusecProfile *p = &R->prof;
    int i;
    fprintf(f, "# fusec harness run\n# date_utc,%s\n# chain,", d->date);
    fh_csv_str(f, R->c->name);
    fputs("\n# source,", f);
    fh_csv_str(f, R->c->source);
    fputs("\n# program,", f);
    fh_csv_str(f, R->c->program);
    fputs("\n# command,", f);
    fh_csv_str(f, R->cmdline);
    fputs("\n# gpu,", f);
    fh_csv_str(f, d->name);
    fprintf(f, "\n# sm,%d.%d\n# sms,%d\n# l2_bytes,%zu\n# memory_bytes,%zu\n# driver,%s\n", d->cc_major,
            d->cc_minor, d->sms, d->l2_bytes, d->mem_total, d->driver);
    fprintf(f, "# driver_cuda,%d.%d\n# runtime,%d.%d\n# seed,%llu\n# reps,%d\n# warmup,%d\n# passes,%d\n",
            d->driver_api / 1000, d->driver_api % 1000 / 10, d->runtime_api / 1000, d->runtime_api % 1000 / 10,
            R->o.seed, R->o.reps, R->o.warmup, R->o.passes);
    fputs("# hot_timing,calls back to back; an event between consecutive calls; median\n", f);
    if (R->calibrated) {
        fputs("# profile_name,", f);
        fh_csv_str(f, p->name);
        fputs("\n# profile_note,", f);
        fh_csv_str(f, p->note);
        fputc('\n', f);
#define FH_PROFILE_CSV(fl, fmt, lo, hi, def, doc) fprintf(f, "# profile_" #fl "," fmt "\n", p->fl);
        FUSEC_PROFILE_FIELDS(FH_PROFILE_CSV)
#undef FH_PROFILE_CSV
        /* the launch terms' raw points, so that a kept run can be refit */
        fputs("# calibration_chains,k,cold_us,hot_us,graph_us,queued_us\n", f);
        for (i = 0; i < FH_CAL_K; i++)
            fprintf(f, "# calibration_chains,%d,%.3f,%.3f,%.3f,%.3f\n", i + 1, R->calib.cold[i], R->calib.hot[i],
                    R->calib.graph[i], R->calib.queued[i]);
    }
    fprintf(f, "# verification,%s,sizes_verified %d,fragile_skipped %lld\n", fh_verify_status(R, out->failed),
            R->verified_sizes, R->fragile_total);
    fputs("# verify,n,version,output,dtype,checked,fragile,max_abs_err,max_rel_err,max_ulp_err,rtol,atol\n", f);
    for (i = 0; i < R->nchecks; i++) {
        const FhCheck *s = &R->checks[i];
        const FusecTensorArg *o = &R->c->out[s->out];
        fprintf(f, "# verify,%zu,%s,%s,%s,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%.6g\n", s->n, fh_version_name[s->version],
                o->name, fusec_dtype_name[o->dtype], s->checked, s->fragile, s->max_abs, s->max_rel, s->max_ulp,
                R->rtol[s->out], R->atol[s->out]);
    }
    for (i = 0; i < R->nrefused; i++) {
        fprintf(f, "# skipped,%zu,", R->refused[i].n);
        fh_csv_str(f, R->refused[i].why);
        fputc('\n', f);
    }
    fputs("n,mode,model_host,unfused_us,fused_us,unfused_min_us,fused_min_us,unfused_max_us,fused_max_us,speedup,"
          "predicted_speedup,error_pct,predicted_unfused_us,predicted_fused_us,unfused_gbps,fused_gbps,"
          "unfused_pct_copy,fused_pct_copy,unfused_regime,fused_regime,predicted_fused_regime",
          f);
    if (R->c->versions > 2)
        for (i = 0; i < (int)(sizeof fh_cub_key / sizeof *fh_cub_key); i++)
            fprintf(f, ",%s", fh_cub_key[i]);
    fputc('\n', f);
    for (i = 0; i < R->nrows; i++) {
        const FhRow *r = &R->rows[i];
        fprintf(f, "%zu,%s,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.2f,%.3f,%.3f,%.1f,%.1f,%.2f,%.2f,%s,%s,%s",
                r->n, fh_mode_name[r->mode], fusec_host_name[r->host], r->t[0].median, r->t[1].median, r->t[0].min, r->t[1].min,
                r->t[0].max, r->t[1].max, r->speedup, r->pred_speedup, r->err_pct, r->pred[0].us, r->pred[1].us,
                r->gbps[0], r->gbps[1], r->pct_copy[0], r->pct_copy[1], fusec_regime_name[r->regime[0]],
                fusec_regime_name[r->regime[1]], fusec_regime_name[r->pred[1].regime]);
        if (R->c->versions > 2)
            fprintf(f, ",%.3f,%.3f,%.3f,%.1f,%.2f,%.4f", r->t[2].median, r->t[2].min, r->t[2].max, r->gbps[2],
                    r->pct_copy[2], r->vs_cub);
        fputc('\n', f);
    }
}

static void fh_write_profile(FILE *f, const FhOutput *out)
{
    fusec_profile_write_json(f, &out->R->prof);
}

/* Writes path through path.tmp and a rename, so that a reader never sees a
 * half-written file. Returns 1 on success. */
static int fh_write_file(const char *path, void (*write)(FILE *, const FhOutput *), const FhOutput *out)
{
    size_t len = strlen(path) + 8;
    char *tmp = (char *)fh_alloc(len);
    FILE *f;
    int ok;
    fh_format(tmp, len, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "fusec harness: cannot write %s: %s\n", tmp, strerror(errno));
        free(tmp);
        return 0;
    }
    write(f, out);
    ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (ok) {
        printf("wrote %s\n", path);
    } else {
        fprintf(stderr, "fusec harness: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok;
}

static int fh_write_results(const FhRun *R, int failed)
{
    FhOutput out;
    int ok = 1;
    out.R = R;
    out.failed = failed;
    if (R->o.csv)
        ok = fh_write_file(R->o.csv, fh_write_csv, &out) && ok;
    if (R->o.json)
        ok = fh_write_file(R->o.json, fh_write_json, &out) && ok;
    return ok;
}

static void fh_free_run(FhRun *R)
{
    FH_CHECK(cudaStreamDestroy(R->s));
    free(R->ev);
    free(R->times);
    free(R->par);
    free(R->rtol);
    free(R->cancel);
    free(R->atol);
    free(R->cmdline);
    free(R->checks);
    free(R->rows);
    free(R->refused);
}


/*
 * emit_report.c: the static report, as text (--predict), JSON or CSV, and
 * the DAG as Graphviz dot. docs/report.md documents the JSON schema.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusec.h"



/* What the report backends look up per kernel. */
typedef struct Names {
    const Chain *c;
} Names;

static void names_init(Names *nm, const Chain *c) { nm->c = c; }

static void locate(const Names *nm, uint32_t off, int *line, int *col)
{
    diag_locate(nm->c->prog->diag, off, line, col);
}

static void kernel_text(const Names *nm, int k, char *buf, size_t len)
{
    traffic_kernel_text(nm->c->prog, &nm->c->traffic, k, NULL, buf, len);
}

/* A value's name in the dot graph: as in the kernel listing. */
static void value_name(const Names *nm, int i, char *buf, size_t len)
{
    const Program *p = nm->c->prog;
    const char *name = ir_value_name(p, i);
    int k = nm->c->traffic.kernel_of[i];
    if (name)
        snprintf(buf, len, "%s", name);
    else if (k >= 0)
        snprintf(buf, len, "t%d", k + 1);
    else
        snprintf(buf, len, "(scalar)");
}

/* --mode's words: the harness's cold and hot modes (docs/harness.md). */
static const char *mode_text(int hot)
{
    return hot ? "hot: calls back to back on the same buffers, what fits stays in L2"
               : "cold: L2 flushed before each call";
}

static const char *host_text(int host)
{
    return host == FUSEC_HOST_C ? "plain C launches, as the emitted harness makes them"
         : host == FUSEC_HOST_GRAPH ? "one CUDA graph replay per call"
                                    : "PyTorch: unfused = eager, fused = torch.compile";
}

static void print_args(FILE *f, const Program *p, const char *label, const int *syms, int n)
{
    fprintf(f, "%-9s", label);
    if (n == 0)
        fprintf(f, "(none)");
    for (int k = 0; k < n; k++) {
        const Sym *s = &p->sym[syms[k]];
        int dt = s->kind == S_VAR ? p->inst[s->value].dtype : s->dtype;
        fprintf(f, "%s%s: %s", k ? ", " : "", s->name, fusec_dtype_name[dt]);
        if (p->shaped && s->kind != S_PARAM)
            fprintf(f, "%s", shape_text(p, sym_shape(p, s)));
        if (s->kind == S_PARAM) {
            char v[32];
            out_num(v, sizeof v, s->pvalue);
            fprintf(f, " = %s", v);
        }
    }
    fputc('\n', f);
}

#define TABLE_ROWS 40

/* "at R = 2^28, C = 1024" */
static const char *dims_text(const Chain *c)
{
    const Program *p = c->prog;
    char *s = arena_printf(p->arena, "at");
    for (int d = 0; d < p->ndim; d++) {
        char v[32];
        out_n(v, sizeof v, c->dimv[d]);
        s = arena_printf(p->arena, "%s%s %s = %s", s, d ? "," : "", p->dim[d].name, v);
    }
    return s;
}

static void print_dims(FILE *f, const Chain *c)
{
    const Program *p = c->prog;
    fprintf(f, "shape    %s (row-major); --sizes varies %s; totals below %s\n", shape_text(p, &p->full),
            p->dim[c->sweep].name, dims_text(c));
}

/* A shaped version's bytes as formulas in the dims, and their value at the dims. */
static void print_totals(FILE *f, const Chain *c, bool fused)
{
    const Program *p = c->prog;
    const Traffic *t = &c->traffic;
    const FusecTerm *terms = fused ? t->fterm : t->uterm;
    int n = fused ? t->nfterm : t->nuterm;
    double elems = fusec_numel(shape_numel(&p->full).exp, c->dimv, p->ndim);
    char tb[32];
    out_bytes(tb, sizeof tb, elems * (fused ? t->f_read + t->f_write : t->u_read + t->u_write));
    fprintf(f, "  %s%s B read + %s B written = %s B, %s: %s\n", fused ? "" : "total: ",
            traffic_formula(p, terms, n, -1, FUSEC_IN, FUSEC_MID_READ),
            traffic_formula(p, terms, n, -1, FUSEC_MID_WRITE, FUSEC_OUT),
            traffic_formula(p, terms, n, -1, FUSEC_IN, FUSEC_OUT), dims_text(c), tb);
}

static void emit_text(FILE *f, const Chain *c)
{
    const Program *p = c->prog;
    const Traffic *t = &c->traffic;
    const FusecProfile *d = &c->opt->device;
    Names nm;
    names_init(&nm, c);
    fprintf(f, "fusec %s predict: %s (default dtype %s)\n", FUSEC_VERSION, c->src->name,
            fusec_dtype_name[c->opt->dtype]);
    fprintf(f, "device   %s: %s\n", d->name, d->note);
    fprintf(f, "host     %s: %s\n\n", fusec_host_name[c->opt->host], host_text(c->opt->host));
    print_args(f, p, "inputs", p->inputs, p->n_in);
    print_args(f, p, "outputs", p->outputs, p->n_out);
    print_args(f, p, "params", p->params, p->n_par);

    if (p->shaped)
        print_dims(f, c);
    fprintf(f, "\nUnfused: %d kernel%s, one per op as PyTorch eager launches them\n", t->nkernels,
            t->nkernels == 1 ? "" : "s");
    if (p->shaped)
        fprintf(f, "  %5s  %-34s %6s %-8s %5s %5s %13s reads + writes\n", "#", "kernel", "dtype", "shape", "flops",
                "trans", "line:col");
    else
        fprintf(f, "  %5s  %-34s %6s %7s %7s %5s %5s  %s\n", "#", "kernel", "dtype", "reads", "writes", "flops",
                "trans", "line:col");
    for (int k = 0; k < t->nkernels; k++) {
        if (k == TABLE_ROWS && t->nkernels > TABLE_ROWS + 5) {
            fprintf(f, "  %5s  ... %d more kernels (--emit=json lists them all)\n", "", t->nkernels - TABLE_ROWS - 1);
            k = t->nkernels - 1;
        }
        const Kernel *kr = &t->kernels[k];
        const Inst *in = &p->inst[kr->inst];
        char text[400], rb[32], wb[32];
        kernel_text(&nm, k, text, sizeof text);
        if (strlen(text) > 34)
            strcpy(text + 31, "...");
        out_bytes(rb, sizeof rb, kr->read_bytes);
        out_bytes(wb, sizeof wb, kr->write_bytes);
        int line, col;
        locate(&nm, in->off, &line, &col);
        if (p->shaped) { /* bytes as formulas in the dims; flops per element of the kernel's shape */
            int fl, tr;
            op_cost(in, &fl, &tr);
            fprintf(f, "  %5d  %-34s %6s %-8s %5d %5d %8d:%-4d %s B + %s B\n", k + 1, text, fusec_dtype_name[in->dtype],
                    shape_text(p, &in->shape), fl, tr, line, col,
                    traffic_formula(p, t->uterm, t->nuterm, k, FUSEC_IN, FUSEC_MID_READ),
                    traffic_formula(p, t->uterm, t->nuterm, k, FUSEC_MID_WRITE, FUSEC_OUT));
        } else
            fprintf(f, "  %5d  %-34s %6s %7s %7s %5g %5g  %d:%d\n", k + 1, text, fusec_dtype_name[in->dtype], rb, wb,
                    kr->cost.flops, kr->cost.trans, line, col);
    }
    char ur[32], uw[32], ub[32], fr[32], fw[32], fb[32];
    int dig = p->shaped ? 4 : 17; /* a shaped chain's bytes per element: at its dims, rounded */
    out_bytes(ur, sizeof ur, out_round(t->u_read, dig));
    out_bytes(uw, sizeof uw, out_round(t->u_write, dig));
    out_bytes(ub, sizeof ub, out_round(t->u_read + t->u_write, dig));
    out_bytes(fr, sizeof fr, out_round(t->f_read, dig));
    out_bytes(fw, sizeof fw, out_round(t->f_write, dig));
    out_bytes(fb, sizeof fb, out_round(t->f_read + t->f_write, dig));
    if (p->shaped)
        print_totals(f, c, false);
    else
        fprintf(f, "  %5s  %-34s %6s %7s %7s %5g %5g\n", "", "total", "", ur, uw, t->u_flops, t->u_trans);
    fprintf(f, "  %d kernel%s, %s read + %s written = %s per element; %g flop%s + %g transcendental; %.3g "
               "flop/B\n",
            t->nkernels, t->nkernels == 1 ? "" : "s", ur, uw, ub, t->u_flops, t->u_flops == 1 ? "" : "s", t->u_trans,
            (t->u_flops + t->u_trans) / (t->u_read + t->u_write));
    fprintf(f, "\nFused: 1 kernel, each input read once and each output written once\n");
    if (p->shaped)
        print_totals(f, c, true);
    fprintf(f, "  %d distinct op%s, %s read + %s written = %s per element; %g flop%s + %g transcendental; %.3g "
               "flop/B\n",
            t->nfused_ops, t->nfused_ops == 1 ? "" : "s", fr, fw, fb, t->f_flops, t->f_flops == 1 ? "" : "s", t->f_trans,
            (t->f_flops + t->f_trans) / (t->f_read + t->f_write));
    fprintf(f, "\nTraffic ratio: %s / %s = %.2fx, the predicted speedup while memory-bound\n", ub, fb, t->ratio);

    fprintf(f, "\nPredicted sweep (%s; %s)\n", fusec_host_name[c->opt->host], mode_text(c->opt->hot));
    fprintf(f, "  %9s %12s %12s %9s  %-8s  %-8s\n", predict_sweep_name(c), "unfused us", "fused us", "speedup",
            "unfused", "fused");
    for (int i = 0; i < c->sizes->n; i++) {
        Point pt = predict_at(c, c->sizes->v[i]);
        char sn[32];
        out_n(sn, sizeof sn, pt.n);
        fprintf(f, "  %9s %12.2f %12.2f %8.2fx  %-8s  %-8s\n", sn, pt.u.us, pt.f.us, pt.speedup,
                fusec_regime_name[pt.u.regime], fusec_regime_name[pt.f.regime]);
    }
    /* a crossover of 0: that version is never overhead-bound, or always is
     * (up to 2^40), as the explanation says; not "at n = 0" */
    char xs[2][64];
    Point one = predict_at(c, 1);
    for (int v = 0; v < 2; v++) {
        double x = predict_crossover(c, v);
        const char *sn = predict_sweep_name(c);
        if (x > 0)
            snprintf(xs[v], sizeof xs[v], "%s at %s = %.0f", v ? "fused" : "unfused", sn, x);
        else if ((v ? one.f : one.u).regime == FUSEC_OVERHEAD)
            snprintf(xs[v], sizeof xs[v], "%s: always (up to %s = 2^40)", v ? "fused" : "unfused", sn);
        else
            snprintf(xs[v], sizeof xs[v], "%s: never (not even at %s = 1)", v ? "fused" : "unfused", sn);
    }
    fprintf(f, "Crossover (overhead- to memory- or compute-bound): %s, %s\n", xs[0], xs[1]);
    fprintf(f, "\nIn bytes and launches:\n");
    predict_explain(f, c);
}

/* ---- JSON ---------------------------------------------------------------- */

/* A JSON string: valid UTF-8 whatever s holds (a file name need not be
 * UTF-8); a byte that starts no valid character is written as U+FFFD. */
static void json_str(FILE *f, const char *s)
{
    const unsigned char *u = (const unsigned char *)s, *end = u + strlen(s);
    fputc('"', f);
    while (u < end) {
        int n = out_utf8_len(u, end);
        if (n == 0) {
            fputs("\\ufffd", f);
            u++;
            continue;
        }
        if (*u == '"' || *u == '\\')
            fprintf(f, "\\%c", *u);
        else if (*u == '\n')
            fputs("\\n", f);
        else if (*u < 0x20 || *u == 0x7F)
            fprintf(f, "\\u%04x", *u);
        else
            fwrite(u, 1, (size_t)n, f);
        u += n;
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    char buf[40];
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    /* Integers (counts, bytes, sizes) exactly; times and rates to 6
     * significant digits: more would be noise. */
    if (v == floor(v) && fabs(v) < 1e15) {
        out_num(buf, sizeof buf, v);
    } else {
        snprintf(buf, sizeof buf, "%.6g", v);
        out_num(buf, sizeof buf, strtod(buf, NULL));
    }
    fputs(buf, f);
}

static void json_shape(FILE *f, const Program *p, const Shape *sh)
{
    fprintf(f, ", \"shape\": [");
    for (int i = 0; i < sh->rank; i++) {
        fprintf(f, "%s", i ? ", " : "");
        if (sh->dim[i] == DIM_ONE)
            fprintf(f, "1");
        else
            json_str(f, p->dim[sh->dim[i]].name);
    }
    fputc(']', f);
}

/* A shaped version's total bytes at the dims, and as a formula. */
static void json_shaped_bytes(FILE *f, const Chain *c, bool fused)
{
    const Program *p = c->prog;
    const Traffic *t = &c->traffic;
    if (!p->shaped)
        return;
    double elems = fusec_numel(shape_numel(&p->full).exp, c->dimv, p->ndim);
    fprintf(f, ", \"bytes\": ");
    json_num(f, round(elems * (fused ? t->f_read + t->f_write : t->u_read + t->u_write)));
    fprintf(f, ", \"bytes_formula\": ");
    json_str(f, traffic_formula(p, fused ? t->fterm : t->uterm, fused ? t->nfterm : t->nuterm, -1, FUSEC_IN,
                                FUSEC_OUT));
}

static void json_args(FILE *f, const Program *p, const char *key, const int *syms, int n)
{
    fprintf(f, "  \"%s\": [", key);
    for (int k = 0; k < n; k++) {
        const Sym *s = &p->sym[syms[k]];
        int dt = s->kind == S_VAR ? p->inst[s->value].dtype : s->dtype;
        fprintf(f, "%s{\"name\": ", k ? ", " : "");
        json_str(f, s->name);
        fprintf(f, ", \"dtype\": \"%s\"", fusec_dtype_name[dt]);
        if (p->shaped && s->kind != S_PARAM)
            json_shape(f, p, sym_shape(p, s));
        if (s->kind == S_PARAM) {
            fprintf(f, ", \"value\": ");
            json_num(f, s->pvalue);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n");
}

static void json_version(FILE *f, const char *key, int kernels, double rd, double wr, double flops, double trans,
                         const FusecKernelCost *k, int nk)
{
    fprintf(f, "  \"%s\": {\"kernels\": %d, \"bytes_per_element\": ", key, kernels);
    json_num(f, rd + wr);
    fprintf(f, ", \"read_bytes_per_element\": ");
    json_num(f, rd);
    fprintf(f, ", \"write_bytes_per_element\": ");
    json_num(f, wr);
    fprintf(f, ", \"flops_per_element\": ");
    json_num(f, flops);
    fprintf(f, ", \"transcendentals_per_element\": ");
    json_num(f, trans);
    fprintf(f, ", \"arithmetic_intensity\": ");
    json_num(f, (flops + trans) / (rd + wr));
    double s32 = 0, s64 = 0; /* the time model's issue slots (src/opcost.def) */
    for (int i = 0; i < nk; i++) {
        s32 += k[i].slots32;
        s64 += k[i].slots64;
    }
    fprintf(f, ", \"fp32_slots_per_element\": ");
    json_num(f, round(s32 * 1000) / 1000);
    fprintf(f, ", \"fp64_slots_per_element\": ");
    json_num(f, round(s64 * 1000) / 1000);
}

static void emit_json(FILE *f, const Chain *c)
{
    const Program *p = c->prog;
    const Traffic *t = &c->traffic;
    const FusecProfile *d = &c->opt->device;
    Names nm;
    names_init(&nm, c);
    fprintf(f, "{\n  \"fusec_version\": \"%s\",\n  \"source\": ", FUSEC_VERSION);
    json_str(f, c->src->name);
    fprintf(f, ",\n  \"name\": ");
    json_str(f, c->prefix);
    fprintf(f, ",\n  \"dtype\": \"%s\",\n  \"host\": \"%s\",\n  \"mode\": \"%s\",\n",
            fusec_dtype_name[c->opt->dtype], fusec_host_name[c->opt->host], fusec_mode_name[c->opt->hot]);
    fprintf(f, "  \"device\": {\"name\": ");
    json_str(f, d->name);
    fprintf(f, ", \"note\": ");
    json_str(f, d->note);
#define JSON_FIELD(fl, fmt, lo, hi, def, doc)                                                                \
    fprintf(f, ", \"" #fl "\": ");                                                                          \
    json_num(f, d->fl);
    FUSEC_PROFILE_FIELDS(JSON_FIELD)
#undef JSON_FIELD
    fprintf(f, "},\n");
    json_args(f, p, "inputs", p->inputs, p->n_in);
    json_args(f, p, "outputs", p->outputs, p->n_out);
    json_args(f, p, "params", p->params, p->n_par);
    if (p->shaped) {
        fprintf(f, "  \"shape\": {\"dims\": {");
        for (int k = 0; k < p->ndim; k++) {
            fprintf(f, "%s", k ? ", " : "");
            json_str(f, p->dim[k].name);
            fprintf(f, ": ");
            json_num(f, c->dimv[k]);
        }
        fprintf(f, "}, \"sweep\": ");
        json_str(f, predict_sweep_name(c));
        fprintf(f, ", \"elements\": ");
        json_num(f, fusec_numel(shape_numel(&p->full).exp, c->dimv, p->ndim));
        json_shape(f, p, &p->full);
        fprintf(f, "},\n");
    }

    json_version(f, "unfused", t->nkernels, t->u_read, t->u_write, t->u_flops, t->u_trans, t->ucost, t->nkernels);
    json_shaped_bytes(f, c, false);
    fprintf(f, ",\n    \"kernel_list\": [");
    for (int k = 0; k < t->nkernels; k++) {
        const Kernel *kr = &t->kernels[k];
        const Inst *in = &p->inst[kr->inst];
        char text[400];
        int line, col;
        kernel_text(&nm, k, text, sizeof text);
        locate(&nm, in->off, &line, &col);
        fprintf(f, "%s\n      {\"kernel\": ", k ? "," : "");
        json_str(f, text);
        fprintf(f, ", \"op\": ");
        json_str(f, op_name((Op)in->op));
        fprintf(f, ", \"dtype\": \"%s\", \"read_bytes\": ", fusec_dtype_name[in->dtype]);
        json_num(f, kr->read_bytes);
        fprintf(f, ", \"write_bytes\": ");
        json_num(f, kr->write_bytes);
        fprintf(f, ", \"flops\": ");
        json_num(f, kr->cost.flops);
        fprintf(f, ", \"transcendentals\": ");
        json_num(f, kr->cost.trans);
        fprintf(f, ", \"fp32_slots\": ");
        json_num(f, kr->cost.slots32);
        fprintf(f, ", \"fp64_slots\": ");
        json_num(f, kr->cost.slots64);
        fprintf(f, ", \"line\": %d, \"col\": %d", line, col);
        if (p->shaped) {
            json_shape(f, p, &in->shape);
            fprintf(f, ", \"read_bytes_formula\": ");
            json_str(f, traffic_formula(p, t->uterm, t->nuterm, k, FUSEC_IN, FUSEC_MID_READ));
            fprintf(f, ", \"write_bytes_formula\": ");
            json_str(f, traffic_formula(p, t->uterm, t->nuterm, k, FUSEC_MID_WRITE, FUSEC_OUT));
        }
        fputc('}', f);
    }
    fprintf(f, "\n    ]},\n");
    json_version(f, "fused", 1, t->f_read, t->f_write, t->f_flops, t->f_trans, &t->fcost, 1);
    json_shaped_bytes(f, c, true);
    fprintf(f, ", \"distinct_ops\": %d},\n  \"traffic_ratio\": ", t->nfused_ops);
    json_num(f, t->ratio);
    fprintf(f, ",\n  \"crossover\": {\"unfused_n\": ");
    json_num(f, predict_crossover(c, 0));
    fprintf(f, ", \"fused_n\": ");
    json_num(f, predict_crossover(c, 1));
    fprintf(f, "},\n  \"sweep\": [");
    for (int i = 0; i < c->sizes->n; i++) {
        Point pt = predict_at(c, c->sizes->v[i]);
        fprintf(f, "%s\n    {\"n\": %.0f, ", i ? "," : "", pt.n);
        if (p->shaped)
            fprintf(f, "\"elements\": %.0f, ", pt.elems);
        fprintf(f, "\"unfused_us\": ");
        json_num(f, pt.u.us);
        fprintf(f, ", \"fused_us\": ");
        json_num(f, pt.f.us);
        fprintf(f, ", \"speedup\": ");
        json_num(f, pt.speedup);
        fprintf(f, ", \"regime\": \"%s\", \"unfused_regime\": \"%s\", \"fused_regime\": \"%s\"",
                fusec_regime_name[pt.f.regime], fusec_regime_name[pt.u.regime], fusec_regime_name[pt.f.regime]);
        fprintf(f, ", \"unfused_gbps\": ");
        json_num(f, pt.elems * pt.ub / (pt.u.us * 1e3));
        fprintf(f, ", \"fused_gbps\": ");
        json_num(f, pt.elems * pt.fb / (pt.f.us * 1e3));
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"explanation\": ");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        fputs("null", f);
    } else {
        predict_explain(m, c);
        fclose(m);
        json_str(f, buf);
        free(buf);
    }
    fprintf(f, "\n}\n");
}

/* ---- CSV: one row per size, for plotting ---------------------------------- */

static void emit_csv(FILE *f, const Chain *c)
{
    const Traffic *t = &c->traffic;
    fprintf(f, "%s,unfused_us,fused_us,speedup,regime,unfused_regime,fused_regime,unfused_gbps,fused_gbps,"
               "traffic_ratio,unfused_kernels,unfused_bytes_per_element,fused_bytes_per_element,host,mode,device\n",
            predict_sweep_name(c));
    for (int i = 0; i < c->sizes->n; i++) {
        Point pt = predict_at(c, c->sizes->v[i]);
        fprintf(f, "%.0f,", pt.n);
        json_num(f, pt.u.us);
        fputc(',', f);
        json_num(f, pt.f.us);
        fputc(',', f);
        json_num(f, pt.speedup);
        fprintf(f, ",%s,%s,%s,", fusec_regime_name[pt.f.regime], fusec_regime_name[pt.u.regime],
                fusec_regime_name[pt.f.regime]);
        json_num(f, pt.elems * pt.ub / (pt.u.us * 1e3));
        fputc(',', f);
        json_num(f, pt.elems * pt.fb / (pt.f.us * 1e3));
        fputc(',', f);
        json_num(f, c->prog->shaped ? pt.ub / pt.fb : t->ratio);
        fprintf(f, ",%d,", t->nkernels);
        json_num(f, c->prog->shaped ? pt.ub : t->u_read + t->u_write);
        fputc(',', f);
        json_num(f, c->prog->shaped ? pt.fb : t->f_read + t->f_write);
        fprintf(f, ",%s,%s,\"", fusec_host_name[c->opt->host], fusec_mode_name[c->opt->hot]);
        for (const char *d = c->opt->device.name; *d; d++) /* CSV quoting: "" inside */
            fputs(*d == '"' ? "\"\"" : (char[]){*d, 0}, f);
        fprintf(f, "\"\n");
    }
}

/* ---- dot: the DAG, unfused kernels as boxes ------------------------------ */

static void emit_dot(FILE *f, const Chain *c)
{
    const Program *p = c->prog;
    Names nm;
    names_init(&nm, c);
    fprintf(f, "digraph %s {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n", c->prefix);
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (!in->live || in->op == O_CONST)
            continue;
        char name[300];
        value_name(&nm, i, name, sizeof name);
        if (in->op == O_INPUT || in->op == O_PARAM)
            fprintf(f, "  v%d [label=\"%s: %s\", shape=%s];\n", i, name, fusec_dtype_name[in->dtype],
                    in->op == O_INPUT ? "invhouse" : "plaintext");
        else
            fprintf(f, "  v%d [label=\"%s\\n%s = %s\\n%s\", shape=box%s];\n", i,
                    c->traffic.kernel_of[i] >= 0 ? "kernel" : "scalar", name, op_name((Op)in->op),
                    fusec_dtype_name[in->dtype], ir_value_name(p, i) && in->op != O_PARAM ? ", peripheries=2" : "");
        for (int a = 0; a < in->nargs; a++) {
            const Inst *arg = &p->inst[in->arg[a]];
            if (arg->op == O_CONST)
                continue;
            fprintf(f, "  v%d -> v%d [label=\"%d B\"];\n", in->arg[a], i,
                    arg->scalar ? 0 : fusec_dtype_size[arg->dtype]);
        }
    }
    fprintf(f, "}\n");
}

const Backend backend_report = {"report", emit_text};
const Backend backend_json = {"json", emit_json};
const Backend backend_csv = {"csv", emit_csv};
const Backend backend_dot = {"dot", emit_dot};

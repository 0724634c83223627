/*
 * driver.c: one compilation, top to bottom. A diagnostic longjmps back
 * here; the arena takes every allocation with it either way.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "fusec.h"

bool driver_prefix_reserved(const char *prefix)
{
    /* the runtime's names: fx_ (kernels), fh_ (harness), fusec / Fusec / FUSEC */
    static const char *const own[] = {"fx", "fh", "fusec"};
    for (size_t i = 0; i < ARRAY_LEN(own); i++) {
        size_t n = strlen(own[i]);
        if (strncasecmp(prefix, own[i], n) == 0 && (prefix[n] == 0 || prefix[n] == '_' || i == 2))
            return true;
    }
    return false;
}

char *driver_prefix(Arena *a, const char *path, const char *name)
{
    if (name)
        return arena_strndup(a, name, strlen(name));
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strcmp(path, "-") == 0)
        base = "chain";
    size_t len = strcspn(base, ".");
    if (len == 0)
        base = "chain", len = 5;
    char *s = arena_strndup(a, base, len + 1);
    size_t o = 0;
    if (isdigit((unsigned char)base[0]))
        s[o++] = '_';
    for (size_t i = 0; i < len && o < len + 1; i++)
        s[o++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
    s[o] = 0;
    /* A stem such as fx_print would name globals among the runtime's. */
    return driver_prefix_reserved(s) ? arena_printf(a, "chain_%s", s) : s;
}

const Backend *driver_backend(Emit e)
{
    switch (e) {
    case E_CUDA: return &backend_cuda;
    case E_HEADER: return &backend_header;
    case E_JSON: return &backend_json;
    case E_CSV: return &backend_csv;
    case E_DOT: return &backend_dot;
    case E_TORCH: return &backend_torch;
    case E_REPORT:
    default: return &backend_report;
    }
}

/* --dims and --sweep against the program's dims: sizes into c->dimv, the
 * sweep dim into c->sweep. Returns 0, or 2 after a usage error (the report
 * needs a size for every dim but the swept one; the other backends none). */
static int resolve_dims(Chain *c, FILE *diag_out)
{
    const Options *o = c->opt;
    const Program *p = c->prog;
    if (!p->shaped) {
        if (!o->dims && !o->sweep)
            return 0;
        fprintf(diag_out, "fusec: %s: %s declares no shapes, so it has no dims (a chain without shapes has n "
                "elements: --sizes)\n", o->dims ? "--dims" : "--sweep", c->src->name);
        return 2;
    }
    char list[LIMIT_DIMS * 260] = "";
    for (int d = 0; d < p->ndim; d++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", d ? ", " : "", p->dim[d].name);
    bool given[LIMIT_DIMS] = {false, false, false, false};
    for (const char *s = o->dims; s;) { /* each item, empty ones too (--dims=, C=4,) */
        size_t len = strcspn(s, ","), eq = strcspn(s, "=");
        char item[300];
        snprintf(item, sizeof item, "%.*s", (int)(len < 290 ? len : 290), s);
        int d = -1;
        for (int k = 0; k < p->ndim && eq < len; k++)
            if (p->dim[k].len == eq && memcmp(p->dim[k].name, s, eq) == 0)
                d = k;
        if (eq >= len) {
            fprintf(diag_out, "fusec: --dims: '%s' is not NAME=SIZE (write e.g. --dims=%s=1024)\n", item,
                    p->dim[0].name);
            return 2;
        }
        if (d < 0) {
            fprintf(diag_out, "fusec: --dims: %s has no dim '%.*s' (its dims: %s)\n", c->src->name, (int)eq, s, list);
            return 2;
        }
        char err[160];
        SizeList one;
        if (given[d]) {
            fprintf(diag_out, "fusec: --dims: dim '%s' is given twice\n", p->dim[d].name);
            return 2;
        }
        if (sizes_parse(arena_strndup(p->arena, s + eq + 1, len - eq - 1), &one, err, sizeof err) < 0 ||
            one.n != 1) {
            fprintf(diag_out, "fusec: --dims: bad size in '%s' (one size of 1 to 2^40: N, 4K, 1M, 2^20)\n", item);
            return 2;
        }
        given[d] = true;
        c->dimv[d] = one.v[0];
        s = s[len] == ',' ? s + len + 1 : NULL;
    }
    c->sweep = 0;
    if (o->sweep) {
        c->sweep = -1;
        for (int k = 0; k < p->ndim; k++)
            if (strcmp(p->dim[k].name, o->sweep) == 0)
                c->sweep = k;
        if (c->sweep < 0) {
            fprintf(diag_out, "fusec: --sweep: %s has no dim '%s' (its dims: %s)\n", c->src->name, o->sweep, list);
            return 2;
        }
    }
    c->dims_known = true;
    for (int k = 0; k < p->ndim; k++)
        c->dims_known &= k == c->sweep || given[k];
    bool report = o->emit == E_REPORT || o->emit == E_JSON || o->emit == E_CSV;
    if (report && !c->dims_known) {
        char missing[LIMIT_DIMS * 270] = "";
        for (int k = 0; k < p->ndim; k++)
            if (k != c->sweep && !given[k])
                snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s=1024",
                         missing[0] ? "," : "", p->dim[k].name);
        fprintf(diag_out, "fusec: --dims: the report needs the size of every dim but the one --sizes varies (%s): "
                "give e.g. --dims=%s\n", p->dim[c->sweep].name, missing);
        return 2;
    }
    /* Without --sizes, the sweep dim takes the sizes that make 2^12 .. 2^28
     * elements (at least 1 each) with the other dims as given. */
    double other = 1;
    for (int k = 0; k < p->full.rank; k++)
        if (p->full.dim[k] != DIM_ONE && p->full.dim[k] != c->sweep)
            other *= c->dimv[p->full.dim[k]];
    if (c->dims_known && !o->sizes_given) {
        SizeList *sz = arena_alloc(p->arena, sizeof *sz);
        c->sizes = sz;
        sz->n = 0;
        for (int e = 12; e <= 28; e++) {
            double v = floor(ldexp(1, e) / other);
            if (v >= 1 && (sz->n == 0 || sz->v[sz->n - 1] != v))
                sz->v[sz->n++] = v;
        }
        if (sz->n == 0)
            sz->v[sz->n++] = 1;
    }
    /* a chain has at most 2^40 elements, as a flat chain's --sizes (the model's
     * range): at each size of the sweep, and at the sweep dim's own size in
     * --dims, where the totals are taken */
    double largest = 0;
    for (int i = 0; i < c->sizes->n; i++)
        largest = c->sizes->v[i] > largest ? c->sizes->v[i] : largest;
    double top = given[c->sweep] && c->dimv[c->sweep] > largest ? c->dimv[c->sweep] : largest;
    if (c->dims_known && top * other > ldexp(1, 40)) {
        fprintf(diag_out, "fusec: --dims, --sizes: %s = %.0f makes %.3g elements; a chain has at most 2^40\n",
                p->dim[c->sweep].name, top, top * other);
        return 2;
    }
    /* the totals: at the sweep dim's size in --dims, else the sweep's largest */
    if (!given[c->sweep])
        c->dimv[c->sweep] = largest;
    return 0;
}

/* A chain emitted as CUDA has at most LIMIT_KERNELS unfused kernels: nvcc
 * compiles each (twice: 32- and 64-bit indices), about 0.2 CPU s apiece, so
 * 20,000 ops took an hour. The report, the dot graph and the header have no
 * such limit. The error is at the op of the first kernel over it. */
static void check_kernel_limit(const Chain *c)
{
    const Traffic *t = &c->traffic;
    if ((c->opt->emit != E_CUDA && c->opt->emit != E_TORCH) || t->nkernels <= LIMIT_KERNELS)
        return;
    const Inst *in = &c->prog->inst[t->kernels[LIMIT_KERNELS].inst];
    diag_error(c->prog->diag, in->off, in->len,
               "this op makes unfused kernel %d; CUDA output is limited to %d unfused kernels (nvcc compiles each: "
               "about 4 CPU minutes at the limit); --predict and --emit=header have no such limit",
               LIMIT_KERNELS + 1, LIMIT_KERNELS);
}

/* The whole compilation, top to bottom. The backend writes to out, or each of
 * its parts to open(ctx, prefix + suffix). */
static int compile(const Options *opt, const Source *src, FILE *out, OpenPart open, void *ctx, FILE *diag_out)
{
    jmp_buf bail;
    Arena *volatile a = arena_new();
    Diag d = {.src = src, .out = diag_out, .bail = &bail, .no_warnings = opt->no_warnings, .werror = opt->werror,
              .arena = a};
    volatile int rc = 1;
    if (setjmp(bail) == 0) {
        rc = 1;
        Program *p = arena_alloc(a, sizeof *p);
        p->arena = a;
        p->diag = &d;
        p->default_dtype = opt->dtype;
        p->slots = &opt->slots;
        parse_program(p);        /* bytes -> tokens -> instructions */
        ir_build(p);             /* names, types, folding, outputs */
        diag_check_werror(&d);   /* -Werror: a warning fails here */
        Chain c;
        memset(&c, 0, sizeof c);
        c.opt = opt;
        c.src = src;
        c.prog = p;
        c.prefix = driver_prefix(a, opt->input, opt->name);
        c.sizes = &opt->sizes;
        traffic_build(p, &c.traffic); /* bytes and flops of both versions */
        check_kernel_limit(&c);
        if ((rc = resolve_dims(&c, diag_out)) != 0)
            longjmp(bail, 1);
        if (p->shaped && c.dims_known)
            traffic_set(p, &c.traffic, c.dimv); /* at --dims */
        emit_cuda_fused_launches(&c, &c.traffic.fused); /* the fused call's chunks */
        if (!p->shaped || c.dims_known)
            predict_prepare(&c); /* the time model's crossovers */
        const Backend *b = driver_backend(opt->emit);
        bool ok = true;
        if (!b->parts)
            b->emit(out, &c);
        /* A folder's files, each to its own stream (without open: all to out). */
        for (const BackendPart *part = b->parts; part && part->suffix && ok; part++) {
            FILE *f = open ? open(ctx, arena_printf(a, "%s%s", c.prefix, part->suffix)) : out;
            ok = f != NULL;
            if (ok)
                part->backend->emit(f, &c);
        }
        rc = ok ? 0 : 1;
    }
    arena_free(a);
    return rc;
}

int fusec_compile(const Options *opt, const Source *src, FILE *out, FILE *diag_out)
{
    return compile(opt, src, out, NULL, NULL, diag_out);
}

int fusec_compile_parts(const Options *opt, const Source *src, OpenPart open, void *ctx, FILE *diag_out)
{
    return compile(opt, src, NULL, open, ctx, diag_out);
}

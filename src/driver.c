/*
 * driver.c: one compilation, top to bottom. A diagnostic longjmps back
 * here; the arena takes every allocation with it either way.
 */
#include <ctype.h>
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
        Program *p = arena_alloc(a, sizeof *p);
        p->arena = a;
        p->diag = &d;
        p->default_dtype = opt->dtype;
        parse_program(p);        /* bytes -> tokens -> instructions */
        ir_build(p);             /* names, types, folding, outputs */
        diag_check_werror(&d);   /* -Werror: a warning fails here */
        Chain c;
        memset(&c, 0, sizeof c);
        c.opt = opt;
        c.src = src;
        c.prog = p;
        c.prefix = driver_prefix(a, opt->input, opt->name);
        traffic_build(p, &c.traffic); /* bytes and flops of both versions */
        predict_prepare(&c);          /* the time model's crossovers */
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

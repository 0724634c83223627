/*
 * diag.c: located diagnostics in the GCC format,
 *   file:line:col: error: message
 * then the source line and a caret under the column. Tokens keep byte
 * offsets; lines and columns are computed only when a message or a backend
 * asks (diag_locate).
 */
#include <stdlib.h>
#include <string.h>

#include "fusec.h"

/* Line and column (1-based, columns count bytes) of offset off, by binary
 * search in the offsets where lines start (built from the arena when first
 * needed): messages and every backend locate through here. */
void diag_locate(Diag *d, size_t off, int *line, int *col)
{
    const Source *s = d->src;
    if (!d->line_start) {
        int n = 1;
        for (size_t i = 0; i < s->len; i++)
            n += line_ends_at(s->text, i, s->len);
        d->line_start = arena_alloc(d->arena, sizeof(uint32_t) * (size_t)n);
        d->nlines = 0;
        d->line_start[d->nlines++] = 0;
        for (size_t i = 0; i < s->len; i++)
            if (line_ends_at(s->text, i, s->len))
                d->line_start[d->nlines++] = (uint32_t)i + 1;
    }
    if (off > s->len)
        off = s->len;
    int lo = 0, hi = d->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (d->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = lo + 1;
    *col = (int)(off - d->line_start[lo]) + 1;
}

/* The source line with a caret under [off, off+len); long lines are cut
 * around the caret. Bytes that are not printable ASCII show as '?'. The
 * line is read from the caret on, no further than what is shown needs (bol
 * to off holds no line end: bol is the start of off's line), so that the
 * messages of a long line cost their own length each, not the line's: 100,000
 * warnings on one 1.4 MB line took 33 s when each read the whole line. */
static void show_line(FILE *f, const Source *s, size_t off, size_t len, size_t bol)
{
    if (off > s->len)
        off = s->len;
    size_t eol = off, stop = off + 122; /* past the 120 bytes shown from at least off - 60 */
    while (eol < s->len && eol < stop && s->text[eol] != '\n' && s->text[eol] != '\r')
        eol++;
    size_t from = bol, to = eol;
    if (off - from > 60)
        from = off - 40;
    if (to - from > 120)
        to = from + 120;
    fprintf(f, " %s", from > bol ? "..." : "");
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)s->text[i];
        fputc(c == '\t' ? ' ' : (c >= 0x20 && c < 0x7F) ? c : '?', f);
    }
    fprintf(f, "%s\n %*s^", to < eol ? "..." : "", (int)(off - from) + (from > bol ? 3 : 0), "");
    for (size_t i = 1; i < len && off + i < to; i++)
        fputc('~', f);
    fputc('\n', f);
}

/* kind: "error", "warning" or "note"; a warning under -Werror prints as an
 * error tagged [-Werror], as GCC does. */
static void report(Diag *d, const char *kind, size_t off, size_t len, const char *fmt, va_list ap)
{
    int line, col;
    diag_locate(d, off, &line, &col);
    bool promoted = d->werror && strcmp(kind, "warning") == 0;
    fprintf(d->out, "%s:%d:%d: %s: ", d->src->name, line, col, promoted ? "error" : kind);
    vfprintf(d->out, fmt, ap);
    fputs(promoted ? " [-Werror]\n" : "\n", d->out);
    show_line(d->out, d->src, off, len, d->line_start[line - 1]);
}

/* Prints the queued notes after the message they belong to. */
static void flush_notes(Diag *d)
{
    for (int i = 0; i < d->nnotes; i++) {
        int line, col;
        diag_locate(d, d->notes[i].off, &line, &col);
        fprintf(d->out, "%s:%d:%d: note: %s\n", d->src->name, line, col, d->notes[i].msg);
        show_line(d->out, d->src, d->notes[i].off, d->notes[i].len, d->line_start[line - 1]);
    }
    d->nnotes = 0;
}

/* Prints the held warnings, in source order (a stable sort: equal offsets
 * keep the order they were found in). */
void diag_flush_warnings(Diag *d)
{
    for (int i = 1; i < d->nheld; i++) /* insertion sort: a few warnings */
        for (int j = i; j > 0 && d->held[j - 1].off > d->held[j].off; j--) {
            struct DiagHeld t = d->held[j];
            d->held[j] = d->held[j - 1];
            d->held[j - 1] = t;
        }
    for (int i = 0; i < d->nheld; i++)
        fputs(d->held[i].text, d->out);
    d->nheld = 0;
}

void diag_error(Diag *d, size_t off, size_t len, const char *fmt, ...)
{
    diag_flush_warnings(d);
    va_list ap;
    va_start(ap, fmt);
    report(d, "error", off, len, fmt, ap);
    va_end(ap);
    flush_notes(d);
    longjmp(*d->bail, 1);
}

/* Under -Werror a warning prints as an error and the compilation fails
 * once the front end is done (diag_check_werror), so every one is shown. */
void diag_warning(Diag *d, size_t off, size_t len, const char *fmt, ...)
{
    d->warnings++;
    if (d->no_warnings)
        return;
    char *buf = NULL;
    size_t n = 0;
    FILE *out = d->out, *m = open_memstream(&buf, &n);
    if (m) /* rendered now (the notes queued for it go with it), printed by diag_flush_warnings */
        d->out = m;
    va_list ap;
    va_start(ap, fmt);
    report(d, "warning", off, len, fmt, ap);
    va_end(ap);
    flush_notes(d);
    d->out = out;
    if (!m)
        return;
    fclose(m);
    if (d->nheld == d->held_cap) {
        int cap = d->held_cap ? 2 * d->held_cap : 8;
        struct DiagHeld *h = arena_alloc(d->arena, sizeof *h * (size_t)cap);
        if (d->nheld)
            memcpy(h, d->held, sizeof *h * (size_t)d->nheld);
        d->held = h;
        d->held_cap = cap;
    }
    char *text = arena_alloc(d->arena, n + 1);
    memcpy(text, buf, n + 1);
    free(buf);
    d->held[d->nheld].off = off;
    d->held[d->nheld++].text = text;
}

void diag_check_werror(Diag *d)
{
    diag_flush_warnings(d);
    if (d->werror && !d->no_warnings && d->warnings > 0)
        longjmp(*d->bail, 1);
}

/* A note is queued and printed after the error or warning that follows it,
 * as clang prints them. */
void diag_note(Diag *d, size_t off, size_t len, const char *fmt, ...)
{
    if (d->nnotes == (int)ARRAY_LEN(d->notes))
        diag_internal(d, "more than %d notes for one message", (int)ARRAY_LEN(d->notes));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->notes[d->nnotes].msg, sizeof d->notes[0].msg, fmt, ap);
    va_end(ap);
    d->notes[d->nnotes].off = off;
    d->notes[d->nnotes].len = len;
    d->nnotes++;
}

void diag_internal(Diag *d, const char *fmt, ...)
{
    diag_flush_warnings(d);
    va_list ap;
    va_start(ap, fmt);
    fprintf(d->out, "%s: internal error (a bug in fusec, please report it): ", d->src->name);
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    va_end(ap);
    longjmp(*d->bail, 1);
}

/* Levenshtein distance, capped: names are short. */
static int distance(const char *a, size_t la, const char *b, size_t lb)
{
    if (la > 32 || lb > 32)
        return 99;
    int row[33];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *diag_suggest(const char *s, size_t len, const char *const *names, int n)
{
    const char *best = NULL;
    int bestd = len <= 3 ? 2 : 3;
    for (int i = 0; i < n; i++) {
        if (!names[i] || !*names[i])
            continue;
        int dd = distance(s, len, names[i], strlen(names[i]));
        if (dd < bestd) {
            bestd = dd;
            best = names[i];
        }
    }
    return best;
}

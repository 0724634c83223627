/*
 * names.c: the "did you mean" warning for implicit inputs.
 *
 * A name that is used but never assigned or declared becomes an input
 * (docs/language.md). When such a name is one typo away from a name the
 * program already knows, it is most likely that typo: `h = x*2` then
 * `y = h2 + 1` makes a new input h2. fusec keeps the rule and warns:
 *   chain.fuse:3:5: warning: 'h2' is never assigned or declared, so it is a
 *   new input; did you mean 'h'?
 *
 * One typo: one character added or dropped; or, in names of 3 characters
 * or more, one changed (a digit for a digit does not count: a0, a1 are a
 * family) or two neighbours swapped. The known names: those assigned in an earlier statement, declared
 * inputs, params, and (for names of 4 characters or more) the builtins.
 * Implicit names of one character are never suspects (x, y, a, b ...).
 * Runs after name resolution: an implicit input's value is its first use.
 *
 * Cost: linear in the program. The implicit inputs' names and their
 * one-deletion variants go into a small hash table; every known name and its
 * one-deletion variants are looked up in it (two names are one typo apart
 * only if one of them, minus a character or not, equals the other minus a
 * character or not). Names longer than NEAR_MAX_LEN are not compared.
 */
#include <ctype.h>
#include <string.h>

#include "fusec.h"

#define NEAR_MAX_LEN 32
#define BUILTIN_MIN_LEN 4

typedef struct Entry {
    uint64_t hash;
    int imp; /* index into the implicit inputs */
} Entry;

typedef struct Index {
    Entry *e;
    uint32_t mask;
} Index;

/* FNV-1a of s without its character at skip (skip >= len: the whole of s). */
static uint64_t hash_without(const char *s, size_t len, size_t skip)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        if (i != skip)
            h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h ^ (len - (skip < len)); /* the length keeps "ab" and "a" apart */
}

static void index_put(Index *x, uint64_t h, int imp)
{
    uint32_t j = (uint32_t)h & x->mask;
    while (x->e[j].imp >= 0) {
        if (x->e[j].hash == h && x->e[j].imp == imp)
            return;
        j = (j + 1) & x->mask;
    }
    x->e[j].hash = h;
    x->e[j].imp = imp;
}

/* True when a and b (distinct) are one typo apart. */
static bool one_typo(const char *a, size_t la, const char *b, size_t lb)
{
    if (la < lb) {
        const char *t = a;
        size_t lt = la;
        a = b, la = lb, b = t, lb = lt;
    }
    if (la - lb > 1)
        return false;
    size_t i = 0;
    while (i < lb && a[i] == b[i])
        i++;
    if (la != lb) /* a has one character more, at i */
        return memcmp(a + i + 1, b + i, lb - i) == 0;
    if (i == la)
        return false;
    /* Same length: a family of names (a0, a1; x1, x2) and two-character
     * names (a0, s0) differ in one character on purpose. */
    if (la < 3 || (isdigit((unsigned char)a[i]) && isdigit((unsigned char)b[i])))
        return false;
    if (memcmp(a + i + 1, b + i + 1, la - i - 1) == 0) /* one changed */
        return true;
    return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i] && memcmp(a + i + 2, b + i + 2, la - i - 2) == 0;
}

typedef struct Search {
    const Program *p;
    const int *imp;         /* implicit inputs: symbol indices */
    const char **best;      /* per implicit input: the suggestion so far */
    Index x;
} Search;

/* Offers known name s to every implicit input one typo from it whose first
 * use is in a statement after stmt (-1: anywhere). */
static void offer(Search *S, const char *s, size_t len, int stmt)
{
    if (len > NEAR_MAX_LEN)
        return;
    for (size_t skip = 0; skip <= len; skip++) {
        uint64_t h = hash_without(s, len, skip);
        for (uint32_t j = (uint32_t)h & S->x.mask; S->x.e[j].imp >= 0; j = (j + 1) & S->x.mask) {
            if (S->x.e[j].hash != h)
                continue;
            int k = S->x.e[j].imp;
            const Sym *in = &S->p->sym[S->imp[k]];
            if (!S->best[k] && S->p->inst[in->value].stmt > stmt && one_typo(in->name, in->len, s, len))
                S->best[k] = s;
        }
    }
}

void ir_warn_near_names(Program *p)
{
    Arena *a = p->arena;
    int n = 0;
    int *imp = arena_alloc(a, sizeof(int) * (size_t)(p->nsym + 1));
    for (int i = 0; i < p->nsym; i++) {
        const Sym *s = &p->sym[i];
        if (s->kind == S_INPUT && !s->declared_in && s->len >= 2 && s->len <= NEAR_MAX_LEN)
            imp[n++] = i;
    }
    if (n == 0 || p->diag->no_warnings)
        return;
    Search S = {p, imp, arena_alloc(a, sizeof(char *) * (size_t)n), {NULL, 0}};
    memset(S.best, 0, sizeof(char *) * (size_t)n);
    uint32_t cap = 16;
    while (cap < 2u * (uint32_t)n * (NEAR_MAX_LEN + 1))
        cap *= 2;
    S.x.e = arena_alloc(a, sizeof(Entry) * cap);
    S.x.mask = cap - 1;
    for (uint32_t j = 0; j < cap; j++)
        S.x.e[j].imp = -1;
    for (int k = 0; k < n; k++) {
        const Sym *s = &p->sym[imp[k]];
        for (size_t skip = 0; skip <= s->len; skip++)
            index_put(&S.x, hash_without(s->name, s->len, skip), k);
    }
    /* Suggestions in a fixed order: assigned names, declared inputs and
     * params in order of appearance, then builtins. */
    for (int i = 0; i < p->nsym; i++) {
        const Sym *s = &p->sym[i];
        if (s->kind == S_VAR)
            offer(&S, s->name, s->len, s->assign_stmt);
        else if (s->kind == S_PARAM || (s->kind == S_INPUT && s->declared_in))
            offer(&S, s->name, s->len, -1);
    }
    for (int op = 0; op < O_COUNT; op++)
        if (op_is_builtin((Op)op) && strlen(op_info[op].name) >= BUILTIN_MIN_LEN)
            offer(&S, op_info[op].name, strlen(op_info[op].name), -1);
    for (int k = 0; k < n; k++) {
        const Sym *s = &p->sym[imp[k]];
        if (S.best[k])
            diag_warning(p->diag, s->decl_off, s->decl_len,
                         "'%s' is never assigned or declared, so it is a new input; did you mean '%s'?", s->name,
                         S.best[k]);
    }
}

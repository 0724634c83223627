/*
 * arena.c: one memory pool per compilation. Every token, instruction and
 * string of a compilation comes from it and is freed at once with it, so
 * there is no per-node free and nothing to leak.
 */
#include <stdlib.h>
#include <string.h>

#include "fusec.h"

typedef struct Block {
    struct Block *next;
    size_t used, cap;
    max_align_t data[];
} Block;

struct Arena {
    Block *head;
};

static NORETURN void out_of_memory(size_t size)
{
    fprintf(stderr, "fusec: fatal error: out of memory (asked for %zu bytes)\n", size);
    exit(1);
}

Arena *arena_new(void)
{
    Arena *a = calloc(1, sizeof *a);
    if (!a)
        out_of_memory(sizeof *a);
    return a;
}

void *arena_alloc(Arena *a, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    Block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > (64u << 10) ? size : (64u << 10);
        b = malloc(sizeof *b + cap);
        if (!b)
            out_of_memory(size);
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t len)
{
    char *p = arena_alloc(a, len + 1);
    memcpy(p, s, len);
    p[len] = 0;
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void arena_grow(Arena *a, void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = arena_alloc(a, (size_t)n * elem);
    if (*cap)
        memcpy(q, *p, (size_t)*cap * elem);
    *p = q;
    *cap = n;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

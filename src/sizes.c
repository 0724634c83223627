/*
 * sizes.c: fusec --sizes, through runtime/fusec_sizes.h: the grammar and its
 * one implementation, which the harness compiles too.
 */
#include <math.h>
#include <string.h>

#include "fusec.h"
#include "fusec_sizes.h"

/* Why the count at s is not one: NULL when it is, or when the grammar's
 * example says it best (a letter, a blank). */
static const char *count_fault(const char **s)
{
    const char *p = *s;
    unsigned long long v;
    if (fusec_size_count(s, &v) == 0)
        return NULL;
    if (*p == 0 || *p == ',')
        return "an empty size";
    p += p[0] == '2' && p[1] == '^' ? 2 : 0;
    size_t digits = strspn(p, "0123456789");
    char after = p[digits];
    if (digits == 0 || (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z' && !strchr("KMG", after)))
        return NULL; /* 0x100, 1e6: not a count at all */
    if (strspn(p, "0") >= digits)
        return "a size of 0 (a size is 1 to 2^40)";
    return "a size above 2^40";
}

/* Why the list fails at item (the item fusec_sizes_parse stopped at). */
static const char *list_fault(const char *item)
{
    const char *p = item, *why = count_fault(&p);
    unsigned long long a, b;
    if (why || p == item)
        return why;
    if (p[0] != '.' || p[1] != '.')
        return NULL;
    p += 2;
    if (*p == 0 || *p == ',')
        return "a range without its end (write e.g. 2^20..2^28)";
    const char *q = p;
    if ((why = count_fault(&p)) != NULL || p == q)
        return why;
    return fusec_size_count(&item, &a) == 0 && fusec_size_count(&q, &b) == 0 && b < a ? "a range that ends below its start" : NULL;
}

int sizes_parse(const char *s, SizeList *out, char *err, size_t errlen)
{
    static unsigned long long v[LIMIT_SIZES];
    const char *bad;
    int n = fusec_sizes_parse(s, v, LIMIT_SIZES, &bad);
    out->n = 0;
    if (n == -2) {
        snprintf(err, errlen, "more than %d sizes", LIMIT_SIZES);
        return -1;
    }
    const char *why = n == -1 ? list_fault(bad) : NULL;
    if (n == -1 && !*s) {
        snprintf(err, errlen, "the size list is empty (write e.g. 4096,1M,2^20..2^28)");
        return -1;
    }
    if (why) {
        snprintf(err, errlen, "bad size list '%.100s': %s, at %s%.20s%s", s, why, *bad ? "'" : "the end", bad,
                 *bad ? "'" : "");
        return -1;
    }
    if (n < 0) {
        snprintf(err, errlen, "bad size list '%.100s' near '%.20s' (write e.g. 4096,1M,2^20..2^28)", s, bad);
        return -1;
    }
    for (int i = 0; i < n; i++)
        out->v[i] = (double)v[i];
    out->n = n;
    return 0;
}

void sizes_default(SizeList *out)
{
    out->n = 0;
    for (int k = 12; k <= 28; k++)
        out->v[out->n++] = ldexp(1, k);
}

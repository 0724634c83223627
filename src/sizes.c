/*
 * sizes.c: fusec --sizes, through runtime/fusec_sizes.h: the grammar and its
 * one implementation, which the harness compiles too.
 */
#include <math.h>

#include "fusec.h"
#include "fusec_sizes.h"

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
    if (n < 0) {
        snprintf(err, errlen, "bad size list '%s' near '%.20s' (write e.g. 4096,1M,2^20..2^28)", s, bad);
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

/*
 * sizes.c: size lists, the syntax of fusec --sizes (the harness reads the
 * same, up to 2^40 and 256 sizes): items separated by commas; an item is an
 * integer with an optional K, M or G suffix (2^10, 2^20, 2^30; lower case
 * too), or 2^k, or a range A..B of the powers of two from A up to B.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusec.h"

static int one(const char **s, double *v)
{
    const char *p = *s;
    if (p[0] == '2' && p[1] == '^') {
        char *end;
        errno = 0;
        long k = strtol(p + 2, &end, 10);
        if (end == p + 2 || errno || k < 0 || k > 50)
            return -1;
        *v = ldexp(1, (int)k);
        *s = end;
        return 0;
    }
    if (*p < '0' || *p > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(p, &end, 10);
    if (errno)
        return -1;
    char u = (char)(*end & ~32); /* k, m, g as K, M, G */
    double m = u == 'K' ? 1024.0 : u == 'M' ? 1048576.0 : u == 'G' ? 1073741824.0 : 1;
    if (m != 1)
        end++;
    *v = (double)x * m;
    *s = end;
    return *v >= 1 && *v <= ldexp(1, 50) ? 0 : -1;
}

int sizes_parse(const char *s, SizeList *out, char *err, size_t errlen)
{
    out->n = 0;
    const char *p = s;
    for (;;) {
        double a, b;
        const char *item = p;
        if (one(&p, &a) < 0)
            goto bad;
        b = a;
        if (p[0] == '.' && p[1] == '.') {
            p += 2;
            if (one(&p, &b) < 0 || b < a)
                goto bad;
        }
        for (double v = a; v <= b; v *= 2) {
            if (out->n == LIMIT_SIZES) {
                snprintf(err, errlen, "more than %d sizes", LIMIT_SIZES);
                return -1;
            }
            out->v[out->n++] = v;
        }
        if (*p == 0)
            return 0;
        if (*p != ',') {
            s = item;
            goto bad;
        }
        p++;
        continue;
    bad:
        snprintf(err, errlen, "bad size list '%s' near '%.20s' (write e.g. 4096,1M,2^20..2^28)", s, item);
        return -1;
    }
}

void sizes_default(SizeList *out)
{
    out->n = 0;
    for (int k = 12; k <= 28; k++)
        out->v[out->n++] = ldexp(1, k);
}

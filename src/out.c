/* out.c: number formatting shared by the backends (deterministic: no
 * locale, shortest text that reads back to the same double). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusec.h"

void out_num(char *buf, size_t len, double v)
{
    if (isnan(v) || isinf(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void out_n(char *buf, size_t len, double n)
{
    int e;
    double m = frexp(n, &e);
    if (m == 0.5 && e - 1 >= 10)
        snprintf(buf, len, "2^%d", e - 1);
    else
        snprintf(buf, len, "%.0f", n);
}

void out_bytes(char *buf, size_t len, double b)
{
    if (b < 1e4)
        out_num(buf, len, b), strncat(buf, " B", len - strlen(buf) - 1);
    else if (b < 999.5e3)
        snprintf(buf, len, "%.3g kB", b / 1e3);
    else if (b < 999.5e6)
        snprintf(buf, len, "%.3g MB", b / 1e6);
    else if (b < 999.5e9)
        snprintf(buf, len, "%.3g GB", b / 1e9);
    else
        snprintf(buf, len, "%.4g TB", b / 1e12);
}

int out_utf8_len(const unsigned char *p, const unsigned char *lim)
{
    int n = p[0] < 0x80 ? 1 : p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
          : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
    if (n == 0 || p + n > lim)
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F) || /* overlong, surrogates */
        (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] > 0x8F))
        return 0;
    return n;
}

double out_round(double v, int digits)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    return strtod(buf, NULL);
}

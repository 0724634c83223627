/*
 * fusec_sizes.h: size lists, the one grammar of every --sizes: fusec's, the
 * harness's (this file is embedded in every emitted .cu, as fusec_model.h
 * is) and bench/torch_bench.py's (tests/bench.sh checks it, case by case,
 * against fusec).
 *
 *   list  = item { "," item }
 *   item  = count [ ".." count ]
 *   count = digits [ "K" | "M" | "G" ]     (k, m, g too: times 2^10, 2^20, 2^30)
 *         | "2^" digits
 *
 * A..B is A, 2A, 4A, ... while not above B (3000..20000 is 3000, 6000,
 * 12000; 2^12..2^28 is 17 sizes). Every count is 1 to 2^40, B is not below
 * A, nothing else (no blanks, no other base than 2 in b^k) is allowed. The
 * sizes come in the order written, repeats kept.
 *
 * C11 and C++ (nvcc): static inline, no allocation.
 */
#ifndef FUSEC_SIZES_H
#define FUSEC_SIZES_H

#define FUSEC_SIZES_MAX_N (1ull << 40)

/* One count at *s; moves *s past it. Returns 0, or -1 when there is none. */
static inline int fusec_size_count(const char **s, unsigned long long *out)
{
    const char *p = *s;
    unsigned long long v = 0, mul = 1;
    int digits = 0;
    int power = p[0] == '2' && p[1] == '^';
    if (power)
        p += 2;
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        if (v > FUSEC_SIZES_MAX_N)
            return -1; /* far too large already; stop before it overflows */
        v = v * 10 + (unsigned long long)(*p - '0');
    }
    if (digits == 0)
        return -1;
    if (power) {
        if (v > 40)
            return -1;
        *out = 1ull << v;
        *s = p;
        return 0;
    }
    switch (*p) {
    case 'K': case 'k': mul = 1ull << 10; p++; break;
    case 'M': case 'm': mul = 1ull << 20; p++; break;
    case 'G': case 'g': mul = 1ull << 30; p++; break;
    default: break;
    }
    if (v == 0 || v > FUSEC_SIZES_MAX_N / mul)
        return -1;
    *out = v * mul;
    *s = p;
    return 0;
}

/* Parses list s into out[0 .. cap). Returns the number of sizes; -1 when s
 * does not follow the grammar (*bad: the item where it stops); -2 when it
 * holds more than cap sizes. */
static inline int fusec_sizes_parse(const char *s, unsigned long long *out, int cap, const char **bad)
{
    const char *p = s;
    int n = 0;
    for (;;) {
        unsigned long long a, b, v;
        *bad = p;
        if (fusec_size_count(&p, &a) < 0)
            return -1;
        b = a;
        if (p[0] == '.' && p[1] == '.') {
            p += 2;
            if (fusec_size_count(&p, &b) < 0 || b < a)
                return -1;
        }
        if (*p != 0 && *p != ',')
            return -1;
        for (v = a; v <= b; v *= 2) {
            if (n == cap)
                return -2;
            out[n++] = v;
        }
        if (*p == 0)
            return n;
        p++;
    }
}

#endif /* FUSEC_SIZES_H */

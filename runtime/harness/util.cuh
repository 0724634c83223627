/* ================================ small helpers ================================ */

static int fh_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int fh_cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Median of v[0..n), which it sorts. */
static double fh_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, fh_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* "2^20" for a power of two from 1024 up, the number otherwise. */
static const char *fh_fmt_n(size_t n, char *buf, size_t len)
{
    int k = 0;
    while (k < 63 && ((size_t)1 << k) < n)
        k++;
    if (n >= 1024 && ((size_t)1 << k) == n)
        fh_format(buf, len, "2^%d", k);
    else
        fh_format(buf, len, "%zu", n);
    return buf;
}

static const char *fh_fmt_bytes(double b, char *buf, size_t len)
{
    if (b >= 1024.0 * 1024 * 1024)
        fh_format(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024)
        fh_format(buf, len, "%.1f MiB", b / (1024.0 * 1024));
    else
        fh_format(buf, len, "%.1f KiB", b / 1024.0);
    return buf;
}

static void fh_utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm *g = gmtime(&t);
    if (!g || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", g))
        fh_format(buf, len, "unknown");
}

/* The command line, arguments with spaces or quotes in single quotes. */
static char *fh_command_line(int argc, char **argv)
{
    size_t len = 1;
    int i;
    char *s, *p;
    for (i = 0; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;
    s = p = (char *)fh_alloc(len);
    *p = 0;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        int quote = *a == 0 || strpbrk(a, " \t\"'\\$") != NULL;
        if (i)
            *p++ = ' ';
        if (quote)
            *p++ = '\'';
        for (; *a; a++) {
            if (quote && *a == '\'') {
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *a;
            }
        }
        if (quote)
            *p++ = '\'';
        *p = 0;
    }
    return s;
}

/* Bytes of host memory available (MemAvailable of /proc/meminfo); a huge
 * number where that cannot be read. */
static double fh_host_available(void)
{
    char line[256];
    unsigned long long kb;
    double avail = 1e30;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return avail;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            avail = kb * 1024.0;
    fclose(f);
    return avail;
}

/* The spacing of dtype's values at |v| (one ulp). */
static double fh_ulp(double v, int dtype)
{
    int e, p = fusec_dtype[dtype].prec, emin = fusec_dtype[dtype].emin;
    if (fusec_dtype[dtype].kind != FX_KIND_FLOAT)
        return 1;
    if (!(fabs(v) > 0))
        return ldexp(1.0, emin - p + 1);
    frexp(fabs(v), &e);
    if (e - 1 < emin)
        e = emin + 1;
    return ldexp(1.0, e - p);
}


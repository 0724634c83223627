/*
 * fusec_harness.cuh: the test and timing program of an emitted .cu file.
 *
 * main() calls fusec_harness_main(&CHAIN, argc, argv), which does, in order:
 *   1. reads the options (--help lists them);
 *   2. prints the chain and the device;
 *   3. calibrates: measures on this GPU the ceilings that fusec's model uses
 *      (copy and L2 bandwidth, launch and graph-node cost, arithmetic rates)
 *      and builds a FusecProfile from them;
 *   4. verifies both versions (unfused and fused) against the double
 *      reference on the host, at every size, before anything is timed;
 *   5. times both versions at every size in each mode (cold, hot, graph) and
 *      prints each result beside the model's prediction for it;
 *   6. writes --csv and --json.
 * Exit status: 0 all good; 1 a verification failure, a CUDA error or an
 * output file that could not be written; 2 a usage error.
 *
 * Needs fusec_model.h, fusec_kernel.cuh, fusec_chain.h and fusec_ref.h first.
 */
#ifndef FUSEC_HARNESS_CUH
#define FUSEC_HARNESS_CUH

#include <cuda_runtime.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ================================ errors ================================ */

/* Every CUDA call goes through FX_CHECK: an error is fatal (exit status 1). */
#define FX_CHECK(call) fx_check((call), #call, __FILE__, __LINE__)

static void fx_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    fflush(stdout);
    fprintf(stderr, "fusec harness: CUDA error %s (%s)\n  in %s\n  at %s:%d\n", cudaGetErrorName(e),
            cudaGetErrorString(e), what, file, line);
    exit(1);
}

static void fx_die(const char *msg)
{
    fflush(stdout);
    fprintf(stderr, "fusec harness: %s\n", msg);
    exit(1);
}

static void *fx_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        fx_die("out of host memory");
    return p;
}

/* Grows a dynamic array so that it holds `need` elements. */
static void *fx_grow(void *p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return p;
    *cap = need < 16 ? 16 : 2 * need;
    p = realloc(p, (size_t)*cap * elem);
    if (!p)
        fx_die("out of host memory");
    return p;
}

/* snprintf that may truncate (and says nothing about it). */
static void fx_format(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* ================================ options ================================ */

enum { FX_MODE_COLD, FX_MODE_HOT, FX_MODE_GRAPH, FX_NMODES };
static const char *const fx_mode_name[FX_NMODES] = {"cold", "hot", "graph"};

#define FX_MAX_SIZES 256
#define FX_MAX_N (1ull << 40)

typedef struct FxOptions {
    size_t sizes[FX_MAX_SIZES];
    int nsizes;
    int modes[FX_NMODES]; /* in the order given */
    int nmodes;
    int reps, warmup;
    const char *csv, *json, *calibrate;
    int verify_only, no_verify;
    unsigned long long seed;
    int device;
    double rtol, atol; /* < 0: the output dtype's default */
} FxOptions;

static void fx_usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options]\n"
            "Checks the unfused version (one kernel per PyTorch eager op) and the fused version\n"
            "(one kernel) of this chain against a double reference, then times both and prints\n"
            "the measurement beside fusec's prediction, after calibrating the model on this GPU.\n"
            "\n"
            "  --sizes LIST       element counts, comma separated (default 2^12..2^28). An item is\n"
            "                     N (an integer, with an optional K, M or G: 2^10, 2^20, 2^30), 2^k,\n"
            "                     or A..B: A, 2A, 4A, ... up to B (2^12..2^28 is 17 sizes)\n"
            "  --modes LIST       any of cold,hot,graph, comma separated (default cold,hot,graph)\n"
            "                       cold   the L2 cache is flushed before each call (a kernel reads and\n"
            "                              writes a buffer of 3x the L2 size, then reads it again);\n"
            "                              each call is timed alone with a pair of CUDA events\n"
            "                       hot    calls run back to back on the same buffers, which may stay\n"
            "                              in L2; an event recorded between one call and the next\n"
            "                              times each call\n"
            "                       graph  each version is captured once in a CUDA graph; replays run\n"
            "                              back to back, an event between them times each one\n"
            "  --reps N           timed calls per version, size and mode; the median is reported (30)\n"
            "  --warmup N         untimed calls before them (5)\n"
            "  --verify-only      verify at every size and time nothing; exit status 0 pass, 1 fail\n"
            "  --no-verify        time without verifying first (not recommended)\n"
            "  --rtol X           relative tolerance for every output: |got - ref| <= atol + rtol |ref|\n"
            "  --atol X           absolute tolerance for every output. Defaults (rtol = atol) by the\n"
            "                     least precise dtype the output depends on: f64 1e-9, f32 1e-5,\n"
            "                     f16 2e-3, bf16 1.6e-2, plus 2 of its ulps of the largest value\n"
            "                     the element passed through (cancellation); bool exact; NaN must\n"
            "                     match NaN, infinities must match exactly\n"
            "  --seed N           seed of the random inputs and sampled indices (default: from the\n"
            "                     clock; printed, so a run can be repeated)\n"
            "  --device N         CUDA device number (default 0)\n"
            "  --csv FILE         write the run and its results as CSV\n"
            "  --json FILE        write the same as JSON\n"
            "  --calibrate FILE   write the calibrated device profile as JSON, the format that\n"
            "                     fusec --device FILE reads\n"
            "  --help             print this text\n"
            "\n"
            "Files are written to FILE.tmp and renamed, so a reader never sees half a file.\n"
            "Exit status: 0 all good; 1 a verification failure, a CUDA error or a file that could\n"
            "not be written; 2 a usage error.\n",
            prog);
}

static int fx_usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "fusec harness: %s '%s' (try --help)\n", what, arg);
    return 2;
}

/* One count: "1234", "4K", "16M", "1G" or "2^20"; 1 <= count <= 2^40. */
static int fx_parse_count(const char *s, unsigned long long *out)
{
    unsigned long long v, mul = 1;
    char *end;
    if (s[0] == '2' && s[1] == '^') {
        if (!isdigit((unsigned char)s[2]))
            return 0;
        errno = 0;
        v = strtoull(s + 2, &end, 10);
        if (errno || *end || v > 40)
            return 0;
        *out = 1ull << v;
        return 1;
    }
    if (!isdigit((unsigned char)s[0]))
        return 0;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno)
        return 0;
    if (*end == 'K' || *end == 'k')
        mul = 1ull << 10, end++;
    else if (*end == 'M' || *end == 'm')
        mul = 1ull << 20, end++;
    else if (*end == 'G' || *end == 'g')
        mul = 1ull << 30, end++;
    if (*end || v == 0 || v > FX_MAX_N / mul)
        return 0;
    *out = v * mul;
    return 1;
}

static int fx_add_size(FxOptions *o, unsigned long long n)
{
    if (o->nsizes == FX_MAX_SIZES)
        return 0;
    o->sizes[o->nsizes++] = (size_t)n;
    return 1;
}

/* "4096,2^20,1M..1G": items separated by commas; A..B doubles from A to B. */
static int fx_parse_sizes(FxOptions *o, const char *list)
{
    char item[64];
    const char *p = list;
    o->nsizes = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char *dots;
        unsigned long long a, b;
        if (len == 0 || len >= sizeof item)
            return 0;
        memcpy(item, p, len);
        item[len] = 0;
        dots = strstr(item, "..");
        if (dots) {
            *dots = 0;
            if (!fx_parse_count(item, &a) || !fx_parse_count(dots + 2, &b) || a > b)
                return 0;
            for (; a <= b; a *= 2)
                if (!fx_add_size(o, a))
                    return 0;
        } else if (!fx_parse_count(item, &a) || !fx_add_size(o, a)) {
            return 0;
        }
        if (!comma)
            return 1;
        p = comma + 1;
    }
}

static int fx_parse_modes(FxOptions *o, const char *list)
{
    char item[16];
    const char *p = list;
    o->nmodes = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int m, found = -1;
        if (len == 0 || len >= sizeof item)
            return 0;
        memcpy(item, p, len);
        item[len] = 0;
        for (m = 0; m < FX_NMODES; m++)
            if (!strcmp(item, fx_mode_name[m]))
                found = m;
        if (found < 0)
            return 0;
        for (m = 0; m < o->nmodes; m++)
            if (o->modes[m] == found)
                found = -1; /* listed twice: once is enough */
        if (found >= 0)
            o->modes[o->nmodes++] = found;
        if (!comma)
            return 1;
        p = comma + 1;
    }
}

static int fx_parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return 0;
    *out = (int)v;
    return 1;
}

static int fx_parse_tol(const char *s, double *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0) || isinf(v))
        return 0;
    *out = v;
    return 1;
}

/* Options that take a value. ORDER: the cases of fx_parse_options. */
static const char *const fx_valued_opts[] = {"--sizes", "--modes", "--reps",   "--warmup", "--csv",
                                             "--json",  "--calibrate", "--seed", "--device", "--rtol",
                                             "--atol"};
static const char *const fx_flag_opts[] = {"--help", "--verify-only", "--no-verify"};

/* Returns -1 to go on, 0 after --help, 2 on a usage error. */
static int fx_parse_options(FxOptions *o, int argc, char **argv)
{
    int i, k;
    memset(o, 0, sizeof *o);
    fx_parse_sizes(o, "2^12..2^28");
    fx_parse_modes(o, "cold,hot,graph");
    o->reps = 30;
    o->warmup = 5;
    o->rtol = o->atol = -1;
    o->seed = (unsigned long long)time(NULL) ^ ((unsigned long long)clock() << 8);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '='), *v = NULL;
        char name[32];
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        int valued = -1, flag = -1, ok = 1;
        if (len < sizeof name) {
            memcpy(name, a, len);
            name[len] = 0;
            for (k = 0; k < (int)(sizeof fx_valued_opts / sizeof *fx_valued_opts); k++)
                if (!strcmp(name, fx_valued_opts[k]))
                    valued = k;
            for (k = 0; k < (int)(sizeof fx_flag_opts / sizeof *fx_flag_opts); k++)
                if (!strcmp(name, fx_flag_opts[k]))
                    flag = k;
        }
        if (valued < 0 && flag < 0)
            return fx_usage_error("unknown option", a);
        if (flag >= 0) {
            if (eq)
                return fx_usage_error("this option takes no value:", a);
            if (flag == 0) {
                fx_usage(stdout, argv[0]);
                return 0;
            }
            if (flag == 1)
                o->verify_only = 1;
            else
                o->no_verify = 1;
            continue;
        }
        if (eq)
            v = eq + 1;
        else if (i + 1 < argc)
            v = argv[++i];
        else
            return fx_usage_error("missing value for", a);
        switch (valued) {
        case 0: ok = fx_parse_sizes(o, v); break;
        case 1: ok = fx_parse_modes(o, v); break;
        case 2: ok = fx_parse_int(v, 1, 1000000, &o->reps); break;
        case 3: ok = fx_parse_int(v, 0, 1000000, &o->warmup); break;
        case 4: o->csv = v; break;
        case 5: o->json = v; break;
        case 6: o->calibrate = v; break;
        case 7: {
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 0);
            ok = !errno && end != v && !*end;
            break;
        }
        case 8: ok = fx_parse_int(v, 0, 1 << 20, &o->device); break;
        case 9: ok = fx_parse_tol(v, &o->rtol); break;
        default: ok = fx_parse_tol(v, &o->atol); break;
        }
        if (!ok) {
            fprintf(stderr, "fusec harness: bad value for %s: '%s'%s (try --help)\n", name, v,
                    valued == 0 ? " (items are N, NK, NM, NG, 2^k or A..B)" : "");
            return 2;
        }
    }
    if (o->verify_only && o->no_verify)
        return fx_usage_error("--verify-only and --no-verify together make no sense:", "--no-verify");
    return -1;
}

/* ================================ small helpers ================================ */

static int fx_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int fx_cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Median of v[0..n), which it sorts. */
static double fx_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, fx_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* "2^20" for a power of two from 1024 up, the number otherwise. */
static const char *fx_fmt_n(size_t n, char *buf, size_t len)
{
    int k = 0;
    while (k < 63 && ((size_t)1 << k) < n)
        k++;
    if (n >= 1024 && ((size_t)1 << k) == n)
        fx_format(buf, len, "2^%d", k);
    else
        fx_format(buf, len, "%zu", n);
    return buf;
}

static const char *fx_fmt_bytes(double b, char *buf, size_t len)
{
    if (b >= 1024.0 * 1024 * 1024)
        fx_format(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024)
        fx_format(buf, len, "%.1f MiB", b / (1024.0 * 1024));
    else
        fx_format(buf, len, "%.1f KiB", b / 1024.0);
    return buf;
}

static void fx_utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm *g = gmtime(&t);
    if (!g || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", g))
        fx_format(buf, len, "unknown");
}

/* The command line, arguments with spaces or quotes in single quotes. */
static char *fx_command_line(int argc, char **argv)
{
    size_t len = 1;
    int i;
    char *s, *p;
    for (i = 0; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;
    s = p = (char *)fx_alloc(len);
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
static double fx_host_available(void)
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

/* Per storage dtype: significant bits, smallest normal exponent, largest
 * finite value. ORDER: FX_BOOL .. FX_F64. */
static const int fx_prec[FX_NDTYPES] = {1, 11, 8, 24, 53};
static const int fx_emin[FX_NDTYPES] = {0, -14, -126, -126, -1022};
static const double fx_max_finite[FX_NDTYPES] = {1, 65504.0, 3.3895313892515355e38, 3.4028234663852886e38,
                                                 DBL_MAX};
/* Relative distance to a jump under which the reference calls an element
 * fragile (fusec_ref_eps): about 4 ulps of the storage dtype, since an
 * unfused intermediate may round to the neighbouring value on the device. */
static const double fx_frag_eps[FX_NDTYPES] = {0, 3.90625e-3 /* 2^-8 */, 3.125e-2 /* 2^-5 */,
                                               9.5367431640625e-7 /* 2^-20 */, 3.552713678800501e-15 /* 2^-48 */};
/* Default tolerances by output dtype: |got - ref| <= atol + rtol |ref|. */
static const double fx_def_rtol[FX_NDTYPES] = {0, 2e-3, 1.6e-2, 1e-5, 1e-9};
static const double fx_def_atol[FX_NDTYPES] = {0, 2e-3, 1.6e-2, 1e-5, 1e-9};

/* The spacing of dtype's values at |v| (one ulp). */
static double fx_ulp(double v, int dtype)
{
    int e, p = fx_prec[dtype], emin = fx_emin[dtype];
    if (dtype == FX_BOOL)
        return 1;
    if (!(fabs(v) > 0))
        return ldexp(1.0, emin - p + 1);
    frexp(fabs(v), &e);
    if (e - 1 < emin)
        e = emin + 1;
    return ldexp(1.0, e - p);
}

/* ================================ device ================================ */

typedef struct FxDevice {
    int id;
    char name[256];
    int cc_major, cc_minor, sms;
    size_t l2_bytes, mem_total, mem_free;
    int driver_api, runtime_api; /* CUDA versions as 13000 = 13.0 */
    char driver[64];             /* kernel module version, "unknown" where not readable */
    char date[32];               /* when the run started, UTC */
} FxDevice;

/* The NVIDIA kernel module's version from /proc (Linux); "unknown" elsewhere. */
static void fx_driver_version(char *buf, size_t len)
{
    char line[512];
    const char *m;
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    fx_format(buf, len, "unknown");
    if (!f)
        return;
    /* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04 ...":
     * the first word after "Kernel Module" that starts with a digit */
    if (fgets(line, sizeof line, f) && (m = strstr(line, "Kernel Module")) != NULL) {
        char v[64];
        int used = 0;
        m += strlen("Kernel Module");
        while (sscanf(m, " %63s%n", v, &used) == 1) {
            if (v[0] >= '0' && v[0] <= '9') {
                fx_format(buf, len, "%s", v);
                break;
            }
            m += used;
        }
    }
    fclose(f);
}

/* Opens device id and fills d. Returns 0, or 2 when there is no such device. */
static int fx_open_device(FxDevice *d, int id)
{
    cudaDeviceProp p;
    int count = 0, l2 = 0;
    FX_CHECK(cudaGetDeviceCount(&count));
    if (id >= count) {
        fprintf(stderr, "fusec harness: --device %d, but there are %d device(s)\n", id, count);
        return 2;
    }
    memset(d, 0, sizeof *d);
    d->id = id;
    FX_CHECK(cudaSetDevice(id));
    FX_CHECK(cudaGetDeviceProperties(&p, id));
    fx_format(d->name, sizeof d->name, "%s", p.name);
    FX_CHECK(cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, id));
    FX_CHECK(cudaDeviceGetAttribute(&d->cc_major, cudaDevAttrComputeCapabilityMajor, id));
    FX_CHECK(cudaDeviceGetAttribute(&d->cc_minor, cudaDevAttrComputeCapabilityMinor, id));
    FX_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, id));
    d->l2_bytes = (size_t)l2;
    FX_CHECK(cudaFree(0)); /* create the context now, outside any measurement */
    FX_CHECK(cudaMemGetInfo(&d->mem_free, &d->mem_total));
    FX_CHECK(cudaDriverGetVersion(&d->driver_api));
    FX_CHECK(cudaRuntimeGetVersion(&d->runtime_api));
    fx_driver_version(d->driver, sizeof d->driver);
    fx_utc_now(d->date, sizeof d->date);
    return 0;
}

static void fx_print_device(const FxDevice *d)
{
    char a[32], b[32], c[32];
    printf("device %d: %s, sm_%d%d, %d SMs, L2 %s, memory %s (%s free)\n", d->id, d->name, d->cc_major,
           d->cc_minor, d->sms, fx_fmt_bytes((double)d->l2_bytes, a, sizeof a),
           fx_fmt_bytes((double)d->mem_total, b, sizeof b), fx_fmt_bytes((double)d->mem_free, c, sizeof c));
    printf("driver %s (CUDA %d.%d), runtime %d.%d, %s\n", d->driver, d->driver_api / 1000,
           d->driver_api % 1000 / 10, d->runtime_api / 1000, d->runtime_api % 1000 / 10, d->date);
}

/* ================================ kernels of the harness ================================ */

/* A kernel that does nothing: what a launch costs by itself. */
static __global__ void fx_empty_kernel(void) {}

/* Throughput kernels: each thread runs 8 independent chains (enough work in
 * flight to hide the latency of each instruction) and stores their sum, so
 * that the compiler keeps the work. */
#define FX_CHAINS 8

/* FMA throughput in T (float or double; fma has an overload for each). */
template <typename T> static __global__ void fx_fma_kernel(T *out, int iters, T a, T b)
{
    T x[FX_CHAINS];
#pragma unroll
    for (int j = 0; j < FX_CHAINS; j++)
        x[j] = T(threadIdx.x) * T(1e-3) + T(j);
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < FX_CHAINS; j++)
            x[j] = fma(x[j], a, b);
    T s = 0;
#pragma unroll
    for (int j = 0; j < FX_CHAINS; j++)
        s += x[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* The accurate expf, as the fused kernels call it: x -> exp(-x) stays in
 * [0.36, 1]. */
static __global__ void fx_exp32_kernel(float *out, int iters)
{
    float x[FX_CHAINS];
#pragma unroll
    for (int j = 0; j < FX_CHAINS; j++)
        x[j] = 0.4f + 0.05f * j + threadIdx.x * 1e-5f;
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < FX_CHAINS; j++)
            x[j] = expf(-x[j]);
    float s = 0;
#pragma unroll
    for (int j = 0; j < FX_CHAINS; j++)
        s += x[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* Fills a buffer with non-zero values (never time on zeros). */
static __global__ void fx_fill_kernel(unsigned *p, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = ((unsigned)i * 2654435761u ^ seed) | 1u;
}

/* The L2 flush, in two passes over a buffer of 3x the L2 size. The first
 * reads and writes every line, which evicts whatever the timed call touched
 * before. It leaves L2 full of dirty lines; the second pass reads the buffer
 * again, so those lines are written back now and not during the timed call,
 * which then starts with its inputs in HBM and a clean L2. */
static __global__ void fx_flush_rw_kernel(uint4 *p, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 v = p[i];
        v.x += 1;
        p[i] = v;
    }
}

static __global__ void fx_flush_read_kernel(const uint4 *p, size_t n, unsigned *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) /* almost never: it only keeps the loads */
        *sink = acc;
}

/* Blocks for a grid-stride kernel over n items: enough to fill the GPU. */
static unsigned fx_grid(size_t n, int sms)
{
    size_t b = (n + 255) / 256, cap = (size_t)sms * 16;
    return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}

/* ================================ timing primitives ================================ */

/* Work to time: enqueues one unit on stream s. */
typedef void (*FxWork)(const void *ctx, cudaStream_t s);

/* Median time in us of one unit of work: `warmup` units untimed, then
 * `samples` samples of `per_sample` units back to back between two events. */
static double fx_median_us(FxWork work, const void *ctx, cudaStream_t s, int warmup, int samples,
                           int per_sample)
{
    cudaEvent_t e0, e1;
    double t[32];
    int i, k;
    if (samples > 32)
        samples = 32;
    FX_CHECK(cudaEventCreate(&e0));
    FX_CHECK(cudaEventCreate(&e1));
    for (i = 0; i < warmup; i++)
        work(ctx, s);
    FX_CHECK(cudaStreamSynchronize(s));
    for (k = 0; k < samples; k++) {
        float ms;
        FX_CHECK(cudaEventRecord(e0, s));
        for (i = 0; i < per_sample; i++)
            work(ctx, s);
        FX_CHECK(cudaEventRecord(e1, s));
        FX_CHECK(cudaEventSynchronize(e1));
        FX_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t[k] = ms * 1e3 / per_sample;
    }
    FX_CHECK(cudaGetLastError());
    FX_CHECK(cudaEventDestroy(e0));
    FX_CHECK(cudaEventDestroy(e1));
    return fx_median(t, samples);
}

/* ================================ calibration ================================ */

typedef struct FxCopyWork {
    void *dst;
    const void *src;
    size_t bytes;
} FxCopyWork;

static void fx_copy_work(const void *ctx, cudaStream_t s)
{
    const FxCopyWork *w = (const FxCopyWork *)ctx;
    FX_CHECK(cudaMemcpyAsync(w->dst, w->src, w->bytes, cudaMemcpyDeviceToDevice, s));
}

static void fx_launch_work(const void *ctx, cudaStream_t s)
{
    (void)ctx;
    fx_empty_kernel<<<1, 32, 0, s>>>();
}

static void fx_graph_work(const void *ctx, cudaStream_t s)
{
    FX_CHECK(cudaGraphLaunch(*(const cudaGraphExec_t *)ctx, s));
}

typedef struct FxRateWork {
    int kind; /* 0 fp32 FMA, 1 fp64 FMA, 2 expf */
    int blocks, iters;
    void *out;
} FxRateWork;

static void fx_rate_work(const void *ctx, cudaStream_t s)
{
    const FxRateWork *w = (const FxRateWork *)ctx;
    if (w->kind == 0)
        fx_fma_kernel<float><<<w->blocks, 256, 0, s>>>((float *)w->out, w->iters, 0.9999f, 1e-4f);
    else if (w->kind == 1)
        fx_fma_kernel<double><<<w->blocks, 256, 0, s>>>((double *)w->out, w->iters, 0.9999, 1e-4);
    else
        fx_exp32_kernel<<<w->blocks, 256, 0, s>>>((float *)w->out, w->iters);
}

/* What the calibration measured, for the printout and the files. */
typedef struct FxCalib {
    size_t copy_bytes, l2_copy_bytes; /* per buffer */
    int launches, graph_nodes;
} FxCalib;

/* Bandwidth of a device-to-device copy of `bytes`, counting bytes read plus
 * bytes written. A large copy measures HBM; a copy that fits in L2,
 * repeated, measures L2. */
static double fx_copy_gbps(size_t bytes, int per_sample, int sms, cudaStream_t s)
{
    FxCopyWork w;
    void *a, *b;
    double us;
    FX_CHECK(cudaMalloc(&a, bytes));
    FX_CHECK(cudaMalloc(&b, bytes));
    fx_fill_kernel<<<fx_grid(bytes / 4, sms), 256, 0, s>>>((unsigned *)a, bytes / 4, 12345u);
    FX_CHECK(cudaGetLastError());
    w.dst = b;
    w.src = a;
    w.bytes = bytes;
    us = fx_median_us(fx_copy_work, &w, s, 3, 9, per_sample);
    FX_CHECK(cudaFree(a));
    FX_CHECK(cudaFree(b));
    return 2.0 * bytes / (us * 1e3);
}

/* Copies a to b and back, `passes` times, with 16-byte accesses; every
 * thread touches the same elements in each pass, so no two threads race.
 * On a buffer that fits in L2 this measures what an elementwise kernel gets
 * from L2 (a cudaMemcpy of such a buffer is launch-bound and reads low). */
static __global__ void fx_l2_copy_kernel(float4 *a, float4 *b, size_t n4, int passes)
{
    for (int p = 0; p < passes; p++) {
        float4 *src = p & 1 ? b : a, *dst = p & 1 ? a : b;
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
            dst[i] = src[i];
    }
}

typedef struct FxL2Work {
    float4 *a, *b;
    size_t n4;
    int passes, blocks;
} FxL2Work;

static void fx_l2_work(const void *ctx, cudaStream_t s)
{
    const FxL2Work *w = (const FxL2Work *)ctx;
    fx_l2_copy_kernel<<<w->blocks, 256, 0, s>>>(w->a, w->b, w->n4, w->passes);
}

/* L2 bandwidth, read + write bytes: 64 passes over two buffers of `bytes`
 * each (together half the L2), in one kernel. */
static double fx_l2_gbps(size_t bytes, int sms, cudaStream_t s)
{
    FxL2Work w;
    double us;
    w.n4 = bytes / sizeof(float4);
    w.passes = 64;
    w.blocks = sms * 8;
    FX_CHECK(cudaMalloc(&w.a, bytes));
    FX_CHECK(cudaMalloc(&w.b, bytes));
    FX_CHECK(cudaMemsetAsync(w.a, 1, bytes, s));
    FX_CHECK(cudaMemsetAsync(w.b, 2, bytes, s));
    us = fx_median_us(fx_l2_work, &w, s, 2, 7, 1);
    FX_CHECK(cudaFree(w.a));
    FX_CHECK(cudaFree(w.b));
    return 2.0 * bytes * w.passes / (us * 1e3);
}

/* Cost of one dependent kernel node: a graph of `nodes` empty kernels in a
 * chain, replayed; time per replay / nodes. */
static double fx_graph_node_us(int nodes, cudaStream_t s)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    double us;
    int i;
    float4 *buf;
    /* Nodes like a small chain's: each a 4096-element copy over 8 blocks,
     * reading what the node before wrote. An empty kernel costs less (about
     * 0.5 us a node on an H200) than any kernel that touches memory. */
    FX_CHECK(cudaMalloc(&buf, 2 * 1024 * sizeof(float4)));
    FX_CHECK(cudaMemsetAsync(buf, 0, 2 * 1024 * sizeof(float4), s));
    FX_CHECK(cudaStreamSynchronize(s));
    FX_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (i = 0; i < nodes; i++)
        fx_l2_copy_kernel<<<8, 128, 0, s>>>(buf + (i & 1) * 1024, buf + (~i & 1) * 1024, 1024, 1);
    FX_CHECK(cudaStreamEndCapture(s, &g));
    FX_CHECK(cudaGraphInstantiate(&ge, g, 0));
    us = fx_median_us(fx_graph_work, &ge, s, 3, 7, 20);
    FX_CHECK(cudaGraphExecDestroy(ge));
    FX_CHECK(cudaGraphDestroy(g));
    FX_CHECK(cudaFree(buf));
    return us / nodes;
}

/* Operations per second (in G/s) of a throughput kernel; ops per thread and
 * iteration: 2 per FMA (the usual flop count), 1 per expf. */
static double fx_rate_gops(int kind, int iters, int sms, cudaStream_t s)
{
    FxRateWork w;
    double us, ops;
    w.kind = kind;
    w.blocks = sms * 8;
    w.iters = iters;
    FX_CHECK(cudaMalloc(&w.out, (size_t)w.blocks * 256 * sizeof(double)));
    us = fx_median_us(fx_rate_work, &w, s, 1, 5, 1);
    FX_CHECK(cudaFree(w.out));
    ops = (double)w.blocks * 256 * iters * FX_CHAINS * (kind == 2 ? 1 : 2);
    return ops / (us * 1e3);
}

/* Measures the profile. The host-side costs of PyTorch (eager_op_us,
 * compiled_call_us) cannot be measured here: fusec's defaults stay. */
static void fx_calibrate(const FxDevice *d, cudaStream_t s, FusecProfile *p, FxCalib *info)
{
    size_t free_b, total, big = (size_t)1 << 30, l2 = d->l2_bytes ? d->l2_bytes : (size_t)4 << 20;
    FX_CHECK(cudaMemGetInfo(&free_b, &total));
    while (big > ((size_t)64 << 20) && 2 * big + ((size_t)256 << 20) > free_b)
        big /= 2;
    memset(p, 0, sizeof *p);
    memset(info, 0, sizeof *info);
    info->copy_bytes = big;
    info->l2_copy_bytes = l2 / 4 / 256 * 256;
    info->launches = 1000;
    info->graph_nodes = 64;
    p->hbm_gbps = fx_copy_gbps(big, 1, d->sms, s);
    p->l2_gbps = fx_l2_gbps(info->l2_copy_bytes, d->sms, s);
    p->l2_bytes = (double)d->l2_bytes;
    p->launch_us = fx_median_us(fx_launch_work, NULL, s, 100, 5, info->launches);
    p->graph_node_us = fx_graph_node_us(info->graph_nodes, s);
    p->fp32_gflops = fx_rate_gops(0, 16384, d->sms, s);
    p->fp64_gflops = fx_rate_gops(1, 4096, d->sms, s);
    p->sfu_gops = fx_rate_gops(2, 2048, d->sms, s);
    p->eager_op_us = 12.5;
    p->compiled_call_us = 65.0;
    fx_format(p->name, sizeof p->name, "%s (calibrated)", d->name);
    for (char *c = p->name; *c; c++) /* the profile's JSON writer does not escape */
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
            *c = '_';
    fx_format(p->note, sizeof p->note,
              "calibrated %s by the fusec harness: %zu MiB D2D copy, %zu KiB L2 copy, %d empty "
              "launches, %d-node graph, FMA and expf kernels; eager_op_us and compiled_call_us "
              "are fusec defaults",
              d->date, info->copy_bytes >> 20, info->l2_copy_bytes >> 10, info->launches,
              info->graph_nodes);
}

static void fx_print_profile(const FusecProfile *p, const FxCalib *info)
{
    printf("\ncalibration (each figure a median of several runs after warm-up, CUDA events):\n");
    printf("  %-16s %9.1f GB/s   cudaMemcpy D2D of %zu MiB, bytes read + written\n", "copy (HBM)",
           p->hbm_gbps, info->copy_bytes >> 20);
    printf("  %-16s %9.1f GB/s   a copy kernel, 64 passes over 2 x %zu KiB, which stay in L2\n", "copy (L2)", p->l2_gbps,
           info->l2_copy_bytes >> 10);
    printf("  %-16s %9.2f us     per empty kernel, %d launched back to back\n", "launch", p->launch_us,
           info->launches);
    printf("  %-16s %9.2f us     per node of a CUDA graph of %d dependent 4096-element copies\n", "graph node",
           p->graph_node_us, info->graph_nodes);
    printf("  %-16s %9.0f GFLOP/s fp32 FMA (2 flops each)\n", "fp32", p->fp32_gflops);
    printf("  %-16s %9.0f GFLOP/s fp64 FMA (2 flops each)\n", "fp64", p->fp64_gflops);
    printf("  %-16s %9.0f Gop/s  accurate expf\n", "transcendental", p->sfu_gops);
    printf("  (not measurable here, fusec's defaults: PyTorch eager op %.1f us, compiled call %.1f us)\n",
           p->eager_op_us, p->compiled_call_us);
}

/* ================================ inputs ================================ */

/* Special values put at the first indices of every non-bool input. Slot 0
 * means "a random value"; with several inputs the first indices run through
 * the combinations (NaN with +inf, -0 with a random value, ...). */
#define FX_NSPECIAL 13

/* How to generate one input: the same function on the device (to fill it)
 * and on the host (to know its value for the reference). */
typedef struct FxGen {
    unsigned long long seed;
    int dtype, prec;              /* storage dtype and its significant bits */
    unsigned long long digit_div; /* slot of index i: (i / digit_div + digit_add) % FX_NSPECIAL */
    unsigned long long digit_add;
    unsigned long long nspecial; /* indices below this take special values */
    double special[FX_NSPECIAL];
} FxGen;

/* splitmix64's finaliser: a well-mixed 64-bit hash. */
__host__ __device__ static inline unsigned long long fx_mix(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Input value at index i, exactly representable in g->dtype by construction
 * (p significant bits): a bool is a random 0 or 1; a number is, 7 times in
 * 8, uniform in [-4, 4) on a grid of p bits (never 0), else of magnitude
 * [2^-12, 2^-1) with p random bits and a random sign. */
__host__ __device__ static inline double fx_gen_value(const FxGen *g, unsigned long long i)
{
    unsigned long long h = fx_mix(g->seed ^ fx_mix(i));
    int p = g->prec;
    if (i < g->nspecial) {
        unsigned slot = (unsigned)((i / g->digit_div + g->digit_add) % FX_NSPECIAL);
        if (slot && g->dtype == FX_BOOL)
            return (double)(slot & 1);
        if (slot)
            return g->special[slot];
    }
    if (g->dtype == FX_BOOL)
        return (double)(h >> 63);
    if ((h & 7) == 0) {
        int e = -12 + (int)(((h >> 3) & 31) % 11);
        unsigned long long f = (h >> 8) & ((1ull << (p - 1)) - 1);
        double v = ldexp(1.0 + ldexp((double)f, 1 - p), e);
        return h >> 63 ? -v : v;
    } else {
        long long m = (long long)(h >> (64 - p)) - (1ll << (p - 1));
        return ldexp((double)(m ? m : 1), 3 - p);
    }
}

static __global__ void fx_gen_kernel(void *p, size_t n, FxGen g)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double v = fx_gen_value(&g, i);
        switch (g.dtype) {
        case FX_BOOL: ((uint8_t *)p)[i] = fx_to_bool(v); break;
        case FX_F16: ((__half *)p)[i] = fx_to_f16(v); break;
        case FX_BF16: ((__nv_bfloat16 *)p)[i] = fx_to_bf16(v); break;
        case FX_F32: ((float *)p)[i] = fx_to_f32(v); break;
        default: ((double *)p)[i] = v; break;
        }
    }
}

/* The generator of input k at size n. */
static FxGen fx_make_gen(const FusecChain *c, int k, size_t n, unsigned long long seed)
{
    FxGen g;
    int dt = c->in[k].dtype, p = fx_prec[dt], emin = fx_emin[dt];
    unsigned long long combos = 1;
    int j;
    memset(&g, 0, sizeof g);
    g.seed = fx_mix(fx_mix(seed + 0x5EED + (unsigned long long)k) ^ n);
    g.dtype = dt;
    g.prec = p;
    /* inputs 0, 1, 2 are the digits of i in base FX_NSPECIAL (all pairs and
     * triples); later inputs step through the slots, each at its own offset */
    g.digit_div = 1;
    for (j = 0; j < k && k < 3; j++)
        g.digit_div *= FX_NSPECIAL;
    g.digit_add = k < 3 ? 0 : (unsigned long long)k;
    for (j = 0; j < c->n_in && j < 3; j++)
        combos *= FX_NSPECIAL;
    g.nspecial = combos < 4096 ? combos : 4096;
    if (dt != FX_BOOL) {
        double sub_min = ldexp(1.0, emin - p + 1), min_normal = ldexp(1.0, emin);
        double sp[FX_NSPECIAL] = {0,        NAN,         HUGE_VAL,  -HUGE_VAL,           0.0,
                                  -0.0,     sub_min,     -(min_normal - sub_min), fx_max_finite[dt],
                                  -fx_max_finite[dt], min_normal, 1.0,        -0.5};
        memcpy(g.special, sp, sizeof sp);
    }
    return g;
}

static void fx_gen_input(void *dev, size_t n, const FxGen *g, int sms, cudaStream_t s)
{
    fx_gen_kernel<<<fx_grid(n, sms), 256, 0, s>>>(dev, n, *g);
    FX_CHECK(cudaGetLastError());
}

/* ================================ the run's state ================================ */

/* One version x output, verified at one size. */
typedef struct FxCheck {
    size_t n;
    int version, out;
    long long checked, fragile;
    double max_abs, max_rel, max_ulp;
} FxCheck;

typedef struct FxTimes {
    double median, min, max; /* us per call */
} FxTimes;

/* One size x mode of the timing table. Index 0 unfused, 1 fused. */
typedef struct FxRow {
    size_t n;
    int mode;
    int host; /* the model's FUSEC_HOST_* used for the prediction */
    FxTimes t[2];
    FusecTime pred[2];
    double speedup, pred_speedup, err_pct;
    double gbps[2], pct_copy[2];
    int regime[2]; /* from the measurement */
} FxRow;

typedef struct FxRefusal {
    size_t n;
    char why[256];
} FxRefusal;

typedef struct FxRun {
    const FusecChain *c;
    FxOptions o;
    FxDevice d;
    FusecProfile prof;
    FxCalib calib;
    int calibrated;
    cudaStream_t s;
    double *par;               /* the params' values (never NULL) */
    double *rtol, *atol;       /* per output */
    double *cancel;            /* per output: 2 ulps (relative) of its least precise dtype */
    double io_bytes;           /* bytes per element of all inputs and outputs */
    char *cmdline;
    FxCheck *checks;
    int nchecks, cap_checks;
    FxRow *rows;
    int nrows, cap_rows;
    FxRefusal *refused;
    int nrefused, cap_refused;
    int verified_sizes, timed_sizes;
    long long fragile_total;
    void *flush;               /* the L2 flush buffer (timing only) */
    size_t flush_bytes;
    unsigned *sink;
    cudaEvent_t *ev;           /* reps + 1 events */
    double *times;             /* reps times, us */
} FxRun;

static const char *const fx_version_name[2] = {"unfused", "fused"};

/* ================================ buffers of one size ================================ */

/* Device buffers of one size: inputs, then outputs, as c->run wants them. */
static void **fx_buffers_alloc(const FusecChain *c, size_t n)
{
    int nb = c->n_in + c->n_out, k;
    void **b = (void **)fx_alloc(sizeof(void *) * (size_t)(nb ? nb : 1));
    for (k = 0; k < nb; k++) {
        int dt = k < c->n_in ? c->in[k].dtype : c->out[k - c->n_in].dtype;
        if (cudaMalloc(&b[k], n * (size_t)fusec_dtype_size[dt]) != cudaSuccess) {
            (void)cudaGetLastError(); /* out of memory is not sticky: clear it */
            while (k-- > 0)
                FX_CHECK(cudaFree(b[k]));
            free(b);
            return NULL;
        }
    }
    return b;
}

static void fx_buffers_free(const FusecChain *c, void **b)
{
    int k;
    for (k = 0; k < c->n_in + c->n_out; k++)
        FX_CHECK(cudaFree(b[k]));
    free(b);
}

static void fx_refuse(FxRun *R, size_t n, const char *why)
{
    char nb[32];
    int i;
    printf("  n = %s (%zu): skipped: %s\n", fx_fmt_n(n, nb, sizeof nb), n, why);
    fflush(stdout);
    for (i = 0; i < R->nrefused; i++)
        if (R->refused[i].n == n)
            return;
    R->refused = (FxRefusal *)fx_grow(R->refused, &R->cap_refused, R->nrefused + 1, sizeof *R->refused);
    R->refused[R->nrefused].n = n;
    fx_format(R->refused[R->nrefused].why, sizeof R->refused[0].why, "%s", why);
    R->nrefused++;
}

#define FX_VERIFY_ALL_MAX ((size_t)1 << 22) /* up to this size every element is checked */
#define FX_VERIFY_SAMPLE ((size_t)1 << 16)  /* else first, last and random blocks of this many */
#define FX_CHUNK_BYTES ((size_t)32 << 20)   /* outputs come back to the host in chunks */

/* Does size n fit? Device: its inputs and outputs, plus the unfused
 * version's scratch (at most n * unfused_bytes: every intermediate it
 * writes), beside what is allocated now. Host: the verification's copies.
 * Writes the reason into why when it does not fit. */
static int fx_fits(const FxRun *R, size_t n, int verifying, char *why, size_t len)
{
    char a[32], b[32], c[32], d[32], e[32], f[32];
    size_t free_b, total;
    double io = R->io_bytes * n, scratch = R->c->unfused_bytes * n, margin = 128.0 * (1 << 20);
    double sample = n <= FX_VERIFY_ALL_MAX ? (double)n : 3.0 * FX_VERIFY_SAMPLE;
    double host = FX_CHUNK_BYTES + sample * (8.0 * R->c->n_out + 1 + 8) + n / 8.0 * R->c->n_out;
    double host_avail = fx_host_available();
    FX_CHECK(cudaMemGetInfo(&free_b, &total));
    if (io + scratch + margin > (double)free_b) {
        fx_format(why, len,
                  "needs %s of device memory (inputs and outputs %s, unfused scratch up to %s, "
                  "margin %s), %s free%s%s%s",
                  fx_fmt_bytes(io + scratch + margin, a, sizeof a), fx_fmt_bytes(io, b, sizeof b),
                  fx_fmt_bytes(scratch, c, sizeof c), fx_fmt_bytes(margin, d, sizeof d),
                  fx_fmt_bytes((double)free_b, e, sizeof e), R->flush ? " (beside the L2 flush buffer, " : "",
                  R->flush ? fx_fmt_bytes((double)R->flush_bytes, f, sizeof f) : "", R->flush ? ")" : "");
        return 0;
    }
    if (verifying && host > 0.5 * host_avail) {
        fx_format(why, len, "verification needs %s of host memory, %s available",
                  fx_fmt_bytes(host, a, sizeof a), fx_fmt_bytes(host_avail, b, sizeof b));
        return 0;
    }
    return 1;
}

/* Allocates the buffers of size n and fills the inputs; NULL (after saying
 * why) when the size does not fit. */
static void **fx_prepare_size(FxRun *R, size_t n, int verifying)
{
    char why[512];
    void **b;
    int k;
    if (!fx_fits(R, n, verifying, why, sizeof why)) {
        fx_refuse(R, n, why);
        return NULL;
    }
    b = fx_buffers_alloc(R->c, n);
    if (!b) {
        fx_refuse(R, n, "cudaMalloc failed: out of device memory");
        return NULL;
    }
    for (k = 0; k < R->c->n_in; k++) {
        FxGen g = fx_make_gen(R->c, k, n, R->o.seed);
        fx_gen_input(b[k], n, &g, R->d.sms, R->s);
    }
    FX_CHECK(cudaStreamSynchronize(R->s));
    return b;
}

/* Runs one version once and checks its errors: what it returns (launch
 * errors), then, after it finished, any error of its kernels. */
static void fx_run_checked(const FxRun *R, int version, void **b, size_t n)
{
    cudaError_t e = R->c->run(version, b, R->par, n, R->s);
    if (e != cudaSuccess) {
        fprintf(stderr, "fusec harness: the %s version failed at n = %zu\n", fx_version_name[version], n);
        FX_CHECK(e);
    }
    FX_CHECK(cudaStreamSynchronize(R->s));
    FX_CHECK(cudaGetLastError());
}

/* ================================ verification ================================ */

/* Everything the check of one version at one size needs. */
typedef struct FxVerify {
    FxRun *R;
    size_t n;
    void **bufs;
    FxGen *gens;            /* one per input */
    size_t count;           /* elements compared with the reference */
    size_t *idx;            /* their indices, sorted; NULL: all of 0 .. n-1 */
    double *ref;            /* ref[j * n_out + k]: output k at the j-th compared index */
    unsigned char *fragile; /* per compared index */
    double *scale;          /* per compared index: the largest magnitude its values reached */
    unsigned char **seen;   /* per output: bitmap of elements holding the first poison */
    unsigned char *chunk;   /* pinned host buffer of FX_CHUNK_BYTES */
    FxCheck *stats;         /* per output */
} FxVerify;

/* The poison of each of the two runs, one byte repeated: 0xFF (a NaN in
 * f16/bf16/f32/f64, 255 in a bool) then 0x7F (a huge finite value, or a NaN
 * in f16; 127 in a bool). A written element has the same value in both runs;
 * an element that holds 0xFF.. after the first and 0x7F.. after the second
 * was never written. */
static const unsigned char fx_poison[2] = {0xFF, 0x7F};

/* Indices compared with the reference: all up to 2^22, else the first and
 * the last 2^16 and 2^16 seeded random ones, sorted, without repeats. */
static void fx_sample(FxVerify *v, unsigned long long seed)
{
    size_t n = v->n, k, m = 0, cnt = 3 * FX_VERIFY_SAMPLE;
    if (n <= FX_VERIFY_ALL_MAX) {
        v->count = n;
        v->idx = NULL;
        return;
    }
    v->idx = (size_t *)fx_alloc(cnt * sizeof(size_t));
    for (k = 0; k < FX_VERIFY_SAMPLE; k++) {
        v->idx[m++] = k;
        v->idx[m++] = n - FX_VERIFY_SAMPLE + k;
        v->idx[m++] = (size_t)(fx_mix(seed ^ fx_mix(n + k)) % n);
    }
    qsort(v->idx, m, sizeof(size_t), fx_cmp_size);
    for (k = 1, cnt = 1; k < m; k++)
        if (v->idx[k] != v->idx[cnt - 1])
            v->idx[cnt++] = v->idx[k];
    v->count = cnt;
}

/* The reference of one version at every compared index, and which are fragile. */
static void fx_reference(FxVerify *v, int version)
{
    const FusecChain *c = v->R->c;
    double *in = (double *)fx_alloc(sizeof(double) * (size_t)(c->n_in + 1));
    size_t j;
    int k;
    for (j = 0; j < v->count; j++) {
        size_t i = v->idx ? v->idx[j] : j;
        for (k = 0; k < c->n_in; k++)
            in[k] = fx_gen_value(&v->gens[k], i);
        fusec_ref_fragile = 0;
        fusec_ref_scale = 0;
        c->reference(version, in, v->R->par, v->ref + j * (size_t)c->n_out);
        v->fragile[j] = (unsigned char)fusec_ref_fragile;
        v->scale[j] = fusec_ref_scale;
    }
    free(in);
}

/* A stored element as a double (a bool as its byte: 0, 1 or invalid). */
static double fx_decode(const unsigned char *p, int dtype)
{
    uint16_t h;
    uint32_t u;
    float f;
    double d;
    switch (dtype) {
    case FX_BOOL:
        return p[0];
    case FX_F16: {
        int e, m;
        memcpy(&h, p, 2);
        e = (h >> 10) & 31;
        m = h & 1023;
        d = e == 31 ? (m ? NAN : HUGE_VAL) : e ? ldexp(1024.0 + m, e - 25) : ldexp((double)m, -24);
        return h >> 15 ? -d : d;
    }
    case FX_BF16:
        memcpy(&h, p, 2);
        u = (uint32_t)h << 16;
        memcpy(&f, &u, 4);
        return f;
    case FX_F32:
        memcpy(&f, p, 4);
        return f;
    default:
        memcpy(&d, p, 8);
        return d;
    }
}

static unsigned long long fx_bits(const unsigned char *p, int size)
{
    unsigned long long b = 0;
    int i;
    for (i = size - 1; i >= 0; i--)
        b = b << 8 | p[i]; /* little-endian, as the GPU and its hosts */
    return b;
}

static int fx_is_poison(const unsigned char *p, int size, unsigned char pat)
{
    int i;
    for (i = 0; i < size; i++)
        if (p[i] != pat)
            return 0;
    return 1;
}

/* got vs ref: NaN only matches NaN, an infinity only itself. */
static int fx_close(double got, double ref, double rtol, double atol)
{
    if (isnan(ref) || isnan(got))
        return isnan(ref) && isnan(got);
    if (isinf(ref) || isinf(got))
        return got == ref;
    return fabs(got - ref) <= atol + rtol * fabs(ref);
}

static void fx_update_stats(FxCheck *st, double got, double ref, int dtype)
{
    double err;
    if (!isfinite(got) || !isfinite(ref))
        return;
    err = fabs(got - ref);
    if (err > st->max_abs)
        st->max_abs = err;
    if (ref != 0 && err / fabs(ref) > st->max_rel)
        st->max_rel = err / fabs(ref);
    if (err / fx_ulp(ref, dtype) > st->max_ulp)
        st->max_ulp = err / fx_ulp(ref, dtype);
}

/* Prints the first bad element: where, the inputs and params there, what
 * came out and what was expected. */
static void fx_print_failure(const FxVerify *v, int version, int run, int k, size_t i, const unsigned char *p,
                             double ref, const char *what)
{
    const FusecChain *c = v->R->c;
    int dt = c->out[k].dtype, j, sz = fusec_dtype_size[dt];
    double got = fx_decode(p, dt);
    char nb[32];
    fflush(stdout);
    fprintf(stderr, "\nVERIFICATION FAILED: %s version, output %s (%s), n = %s, element %zu (run %d)\n",
            fx_version_name[version], c->out[k].name, fusec_dtype_name[dt], fx_fmt_n(v->n, nb, sizeof nb), i,
            run + 1);
    for (j = 0; j < c->n_in; j++)
        fprintf(stderr, "  input  %-12s = %.17g (%s)\n", c->in[j].name, fx_gen_value(&v->gens[j], i),
                fusec_dtype_name[c->in[j].dtype]);
    for (j = 0; j < c->n_par; j++)
        fprintf(stderr, "  param  %-12s = %.17g\n", c->par[j].name, v->R->par[j]);
    fprintf(stderr, "  got      %.17g (bits 0x%0*llx)%s\n", got, 2 * sz, fx_bits(p, sz),
            fx_is_poison(p, sz, fx_poison[run]) ? ", the poison pattern: never written?" : "");
    fprintf(stderr, "  expected %.17g (tolerance %.3g + %.3g * |expected|)\n", ref, v->R->atol[k], v->R->rtol[k]);
    fprintf(stderr, "  %s\n", what);
    {
        /* The reference again, for this element alone: every output. */
        double in[64], out[64];
        int kk;
        if (c->n_in <= 64 && c->n_out <= 64) {
            for (kk = 0; kk < c->n_in; kk++)
                in[kk] = fx_gen_value(&v->gens[kk], i);
            fusec_ref_fragile = 0;
            c->reference(version, in, v->R->par, out);
            fprintf(stderr, "  reference recomputed for element %zu:", i);
            for (kk = 0; kk < c->n_out; kk++)
                fprintf(stderr, " %s=%.17g", c->out[kk].name, out[kk]);
            fprintf(stderr, "%s\n", fusec_ref_fragile ? " (fragile)" : "");
        }
    }
}

/* Checks one chunk of output k: poison everywhere, values at the compared
 * indices. *jp walks the sorted compared indices. Returns 0 on the first bad
 * element (after printing it). */
static int fx_check_chunk(FxVerify *v, int version, int run, int k, size_t first, size_t cnt, size_t *jp)
{
    const FusecChain *c = v->R->c;
    int dt = c->out[k].dtype, sz = fusec_dtype_size[dt];
    FxCheck *st = &v->stats[k];
    size_t e;
    for (e = 0; e < cnt; e++) {
        size_t i = first + e, j;
        const unsigned char *p = v->chunk + e * sz;
        double got, ref;
        if (fx_is_poison(p, sz, fx_poison[run])) {
            if (run == 0) {
                if (!v->seen[k])
                    v->seen[k] = (unsigned char *)calloc(v->n / 8 + 1, 1);
                if (!v->seen[k])
                    fx_die("out of host memory");
                v->seen[k][i / 8] |= (unsigned char)(1u << (i % 8));
            } else if (v->seen[k] && (v->seen[k][i / 8] >> (i % 8) & 1)) {
                fx_print_failure(v, version, run, k, i, p, NAN,
                                 "this element held the poison after both runs (a different one each "
                                 "time): it was never written");
                return 0;
            }
        }
        if (dt == FX_BOOL && p[0] > 1 && !fx_is_poison(p, sz, fx_poison[run])) {
            fx_print_failure(v, version, run, k, i, p, NAN, "a bool must be stored as 0 or 1");
            return 0;
        }
        if (v->idx) {
            if (*jp >= v->count || v->idx[*jp] != i)
                continue;
            j = (*jp)++;
        } else {
            j = i;
        }
        if (v->fragile[j]) {
            if (run == 0)
                st->fragile++;
            continue;
        }
        got = fx_decode(p, dt);
        ref = v->ref[j * (size_t)c->n_out + k];
        /* Cancellation: a difference of large values is off by a few of
         * their ulps (in the least precise dtype the output depends on). */
        if (!fx_close(got, ref, v->R->rtol[k], v->R->atol[k] + v->R->cancel[k] * v->scale[j])) {
            fx_print_failure(v, version, run, k, i, p, ref, "outside the tolerance");
            return 0;
        }
        if (run == 0)
            st->checked++;
        fx_update_stats(st, got, ref, dt);
    }
    return 1;
}

/* One run of one version: poison the outputs, run, bring every output back
 * in chunks and check it. */
static int fx_verify_run(FxVerify *v, int version, int run)
{
    const FusecChain *c = v->R->c;
    int k;
    for (k = 0; k < c->n_out; k++) {
        int sz = fusec_dtype_size[c->out[k].dtype];
        FX_CHECK(cudaMemsetAsync(v->bufs[c->n_in + k], fx_poison[run], v->n * sz, v->R->s));
    }
    /* The second run takes every kernel's scalar path (misaligned pointers
     * and the tail take it), the first the 16-byte vector path. */
    fx_scalar_only = run == 1;
    fx_run_checked(v->R, version, v->bufs, v->n);
    fx_scalar_only = false;
    for (k = 0; k < c->n_out; k++) {
        int sz = fusec_dtype_size[c->out[k].dtype];
        size_t per = FX_CHUNK_BYTES / sz, first, j = 0;
        const unsigned char *dev = (const unsigned char *)v->bufs[c->n_in + k];
        for (first = 0; first < v->n; first += per) {
            size_t cnt = v->n - first < per ? v->n - first : per;
            FX_CHECK(cudaMemcpyAsync(v->chunk, dev + first * sz, cnt * sz, cudaMemcpyDeviceToHost, v->R->s));
            FX_CHECK(cudaStreamSynchronize(v->R->s));
            if (!fx_check_chunk(v, version, run, k, first, cnt, &j))
                return 0;
        }
    }
    return 1;
}

static void fx_print_check_header(void)
{
    printf("\nverification: both versions against the double reference on the host, each run twice with\n"
           "the outputs poisoned first (0xFF.., then 0x7F..), the second time on the scalar path that\n"
           "misaligned pointers take; every element is scanned for the poison,\n"
           "every element up to n = 2^22 (else the first, last and 2^16 random ones) is compared;\n"
           "fragile = next to a jump of the chain (a comparison, floor, ...), not compared\n");
    printf("%10s  %-7s  %-16s %10s %8s %12s %12s %9s\n", "n", "version", "output", "checked", "fragile",
           "max abs err", "max rel err", "max ulp");
}

static void fx_print_check(const FxRun *R, const FxCheck *st)
{
    char nb[32], ob[64];
    const FusecTensorArg *o = &R->c->out[st->out];
    fx_format(ob, sizeof ob, "%s (%s)", o->name, fusec_dtype_name[o->dtype]);
    printf("%10s  %-7s  %-16s %10lld %8lld %12.3g %12.3g %9.2f\n", fx_fmt_n(st->n, nb, sizeof nb),
           fx_version_name[st->version], ob, st->checked, st->fragile, st->max_abs, st->max_rel, st->max_ulp);
}

/* Verifies both versions at size n. Returns 1 pass, 0 fail, -1 skipped. */
static int fx_verify_size(FxRun *R, size_t n)
{
    const FusecChain *c = R->c;
    FxVerify v;
    int version, run, k, ok = 1;
    memset(&v, 0, sizeof v);
    v.R = R;
    v.n = n;
    v.bufs = fx_prepare_size(R, n, 1);
    if (!v.bufs)
        return -1;
    v.gens = (FxGen *)fx_alloc(sizeof(FxGen) * (size_t)(c->n_in + 1));
    for (k = 0; k < c->n_in; k++)
        v.gens[k] = fx_make_gen(c, k, n, R->o.seed);
    fx_sample(&v, R->o.seed);
    v.ref = (double *)fx_alloc(sizeof(double) * v.count * (size_t)(c->n_out + 1));
    v.fragile = (unsigned char *)fx_alloc(v.count);
    v.scale = (double *)fx_alloc(sizeof(double) * v.count);
    v.seen = (unsigned char **)calloc((size_t)c->n_out + 1, sizeof(unsigned char *));
    v.stats = (FxCheck *)calloc((size_t)c->n_out + 1, sizeof(FxCheck));
    if (!v.seen || !v.stats)
        fx_die("out of host memory");
    FX_CHECK(cudaMallocHost((void **)&v.chunk, FX_CHUNK_BYTES));
    for (version = 0; version < 2 && ok; version++) {
        fx_reference(&v, version);
        for (k = 0; k < c->n_out; k++) {
            memset(&v.stats[k], 0, sizeof v.stats[k]);
            v.stats[k].n = n;
            v.stats[k].version = version;
            v.stats[k].out = k;
            free(v.seen[k]);
            v.seen[k] = NULL;
        }
        for (run = 0; run < 2 && ok; run++)
            ok = fx_verify_run(&v, version, run);
        for (k = 0; k < c->n_out && ok; k++) {
            fx_print_check(R, &v.stats[k]);
            R->fragile_total += v.stats[k].fragile;
            R->checks = (FxCheck *)fx_grow(R->checks, &R->cap_checks, R->nchecks + 1, sizeof *R->checks);
            R->checks[R->nchecks++] = v.stats[k];
        }
    }
    fflush(stdout);
    for (k = 0; k < c->n_out; k++)
        free(v.seen[k]);
    FX_CHECK(cudaFreeHost(v.chunk));
    free(v.seen);
    free(v.stats);
    free(v.fragile);
    free(v.scale);
    free(v.ref);
    free(v.idx);
    free(v.gens);
    fx_buffers_free(c, v.bufs);
    return ok;
}


/* ================================ timing ================================ */

/* Median, min and max of R->times[0 .. reps), which it sorts. */
static FxTimes fx_summarize(const FxRun *R)
{
    FxTimes t;
    int reps = R->o.reps;
    t.median = fx_median(R->times, reps);
    t.min = R->times[0];
    t.max = R->times[reps - 1];
    return t;
}

/* The times between consecutive events ev[0 .. reps]. */
static FxTimes fx_event_times(const FxRun *R)
{
    int r;
    for (r = 0; r < R->o.reps; r++) {
        float ms;
        FX_CHECK(cudaEventElapsedTime(&ms, R->ev[r], R->ev[r + 1]));
        R->times[r] = ms * 1e3;
    }
    return fx_summarize(R);
}

/* One call, not waited for; its launch errors are checked. */
static void fx_run_call(const FxRun *R, int version, void **b, size_t n)
{
    cudaError_t e = R->c->run(version, b, R->par, n, R->s);
    if (e != cudaSuccess) {
        fprintf(stderr, "fusec harness: the %s version failed at n = %zu\n", fx_version_name[version], n);
        FX_CHECK(e);
    }
}

/* Hot: the calls run back to back on the same buffers with no
 * synchronisation between them, as a program would call them; an event
 * recorded between one call and the next times each call, and the median of
 * --reps calls is reported. Buffers small enough stay in L2 from one call
 * to the next, which is what the model's hot case assumes. */
static FxTimes fx_time_hot(const FxRun *R, int version, void **b, size_t n)
{
    int r;
    for (r = 0; r < R->o.warmup; r++)
        fx_run_call(R, version, b, n);
    FX_CHECK(cudaEventRecord(R->ev[0], R->s));
    for (r = 0; r < R->o.reps; r++) {
        fx_run_call(R, version, b, n);
        FX_CHECK(cudaEventRecord(R->ev[r + 1], R->s));
    }
    FX_CHECK(cudaStreamSynchronize(R->s));
    FX_CHECK(cudaGetLastError());
    return fx_event_times(R);
}

/* Evicts everything from L2 (see fx_flush_rw_kernel). */
static void fx_flush_l2(const FxRun *R)
{
    size_t n = R->flush_bytes / sizeof(uint4);
    unsigned grid = (unsigned)R->d.sms * 8;
    fx_flush_rw_kernel<<<grid, 256, 0, R->s>>>((uint4 *)R->flush, n);
    fx_flush_read_kernel<<<grid, 256, 0, R->s>>>((const uint4 *)R->flush, n, R->sink);
    FX_CHECK(cudaGetLastError());
}

/* Cold: L2 flushed before each call, and each call timed alone between two
 * events, so its inputs come from HBM as on first touch. */
static FxTimes fx_time_cold(const FxRun *R, int version, void **b, size_t n)
{
    int r;
    for (r = 0; r < R->o.warmup; r++) {
        fx_flush_l2(R);
        fx_run_call(R, version, b, n);
    }
    for (r = 0; r < R->o.reps; r++) {
        float ms;
        fx_flush_l2(R);
        FX_CHECK(cudaEventRecord(R->ev[0], R->s));
        fx_run_call(R, version, b, n);
        FX_CHECK(cudaEventRecord(R->ev[1], R->s));
        FX_CHECK(cudaEventSynchronize(R->ev[1]));
        FX_CHECK(cudaEventElapsedTime(&ms, R->ev[0], R->ev[1]));
        R->times[r] = ms * 1e3;
    }
    FX_CHECK(cudaGetLastError());
    return fx_summarize(R);
}

/* Graph: the version's launches captured once in a CUDA graph (on the
 * harness's own stream, never the legacy default stream), then replayed back
 * to back; an event between one replay and the next times each. The version
 * ran before (fx_time_size), so any scratch it allocates on first use exists
 * already: nothing may allocate during a capture. */
static FxTimes fx_time_graph(const FxRun *R, int version, void **b, size_t n)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaError_t e, e2;
    FxTimes t;
    int r;
    FX_CHECK(cudaStreamBeginCapture(R->s, cudaStreamCaptureModeGlobal));
    e = R->c->run(version, b, R->par, n, R->s);
    e2 = cudaStreamEndCapture(R->s, &g);
    if (e != cudaSuccess || e2 != cudaSuccess) {
        fprintf(stderr,
                "fusec harness: the %s version could not be captured in a CUDA graph at n = %zu "
                "(during a capture it may only launch work on the stream it is given)\n",
                fx_version_name[version], n);
        FX_CHECK(e != cudaSuccess ? e : e2);
    }
    FX_CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (r = 0; r < R->o.warmup; r++)
        FX_CHECK(cudaGraphLaunch(ge, R->s));
    FX_CHECK(cudaEventRecord(R->ev[0], R->s));
    for (r = 0; r < R->o.reps; r++) {
        FX_CHECK(cudaGraphLaunch(ge, R->s));
        FX_CHECK(cudaEventRecord(R->ev[r + 1], R->s));
    }
    FX_CHECK(cudaStreamSynchronize(R->s));
    FX_CHECK(cudaGetLastError());
    t = fx_event_times(R);
    FX_CHECK(cudaGraphExecDestroy(ge));
    FX_CHECK(cudaGraphDestroy(g));
    return t;
}

/* A row of the table: the measurement beside the model's prediction. */
static FxRow fx_make_row(const FxRun *R, size_t n, int mode, const FxTimes *t)
{
    const FusecChain *c = R->c;
    const FusecVersion *ver[2] = {&c->unfused, &c->fused};
    int host = mode == FX_MODE_GRAPH ? FUSEC_HOST_GRAPH : FUSEC_HOST_C, v;
    int hot = mode != FX_MODE_COLD; /* graph replays run back to back too */
    double launch = mode == FX_MODE_GRAPH ? R->prof.graph_node_us : R->prof.launch_us;
    FxRow row;
    memset(&row, 0, sizeof row);
    row.n = n;
    row.mode = mode;
    row.host = host;
    for (v = 0; v < 2; v++) {
        double bytes = (double)n * (v ? c->fused_bytes : c->unfused_bytes);
        row.t[v] = t[v];
        row.pred[v] = fusec_model_time(&R->prof, ver[v], (double)n, host, v, hot);
        row.gbps[v] = bytes / (t[v].median * 1e3);
        row.pct_copy[v] = 100 * row.gbps[v] / R->prof.hbm_gbps;
        /* overhead: under twice what the launches alone cost (a graph
         * replay: one launch, then a node per later kernel) */
        double launches = mode == FX_MODE_GRAPH
                              ? R->prof.launch_us + (fusec_kernel_count(ver[v]) - 1) * R->prof.graph_node_us
                              : fusec_kernel_count(ver[v]) * launch;
        if (t[v].median < 2 * launches)
            row.regime[v] = FUSEC_OVERHEAD;
        else
            row.regime[v] = row.pct_copy[v] >= 50 ? FUSEC_MEMORY : FUSEC_COMPUTE;
    }
    row.speedup = t[0].median / t[1].median;
    row.pred_speedup = row.pred[0].us / row.pred[1].us;
    row.err_pct = 100 * (row.speedup / row.pred_speedup - 1);
    return row;
}

static void fx_print_row_header(const FxRun *R)
{
    printf("\ntiming: us per call, median of %d calls after %d warm-up calls, CUDA events;\n"
           "predicted: fusec's model with the calibrated profile; error: measured speedup / predicted - 1;\n"
           "GB/s: the bytes each version must move / its time; %%copy: of the calibrated copy bandwidth;\n"
           "regime (fused): overhead under 2 launch costs per kernel, memory at 50%% of copy or more, else "
           "compute\n",
           R->o.reps, R->o.warmup);
    printf("%10s  %-5s %11s %11s %8s %9s %8s %9s %6s %9s %6s  %s\n", "n", "mode", "unfused us", "fused us",
           "speedup", "predicted", "error", "unf GB/s", "%copy", "fus GB/s", "%copy", "regime");
}

static void fx_print_row(const FxRow *r)
{
    char nb[32];
    printf("%10s  %-5s %11.2f %11.2f %7.2fx %8.2fx %+7.1f%% %9.1f %5.1f%% %9.1f %5.1f%%  %s\n",
           fx_fmt_n(r->n, nb, sizeof nb), fx_mode_name[r->mode], r->t[0].median, r->t[1].median, r->speedup,
           r->pred_speedup, r->err_pct, r->gbps[0], r->pct_copy[0], r->gbps[1], r->pct_copy[1],
           fusec_regime_name[r->regime[1]]);
    fflush(stdout);
}

/* Times both versions at size n in every mode. */
static void fx_time_size(FxRun *R, size_t n)
{
    void **b = fx_prepare_size(R, n, 0);
    int m, v;
    if (!b)
        return;
    /* One call of each first: the unfused version allocates its scratch on
     * first use, which belongs neither in a timed call nor in a capture. */
    for (v = 0; v < 2; v++)
        fx_run_checked(R, v, b, n);
    for (m = 0; m < R->o.nmodes; m++) {
        int mode = R->o.modes[m];
        FxTimes t[2];
        for (v = 0; v < 2; v++)
            t[v] = mode == FX_MODE_HOT    ? fx_time_hot(R, v, b, n)
                   : mode == FX_MODE_COLD ? fx_time_cold(R, v, b, n)
                                          : fx_time_graph(R, v, b, n);
        R->rows = (FxRow *)fx_grow(R->rows, &R->cap_rows, R->nrows + 1, sizeof *R->rows);
        R->rows[R->nrows] = fx_make_row(R, n, mode, t);
        fx_print_row(&R->rows[R->nrows++]);
    }
    fx_buffers_free(R->c, b);
    R->timed_sizes++;
}

/* Events, the times array and, for the cold mode, the flush buffer: 3x the
 * L2 size (at least 64 MiB), filled with non-zero data. */
static void fx_time_all(FxRun *R)
{
    int i, m, cold = 0;
    R->ev = (cudaEvent_t *)fx_alloc(sizeof(cudaEvent_t) * (size_t)(R->o.reps + 1));
    R->times = (double *)fx_alloc(sizeof(double) * (size_t)R->o.reps);
    for (i = 0; i <= R->o.reps; i++)
        FX_CHECK(cudaEventCreate(&R->ev[i]));
    for (m = 0; m < R->o.nmodes; m++)
        cold |= R->o.modes[m] == FX_MODE_COLD;
    if (cold) {
        R->flush_bytes = 3 * R->d.l2_bytes;
        if (R->flush_bytes < ((size_t)64 << 20))
            R->flush_bytes = (size_t)64 << 20;
        FX_CHECK(cudaMalloc(&R->flush, R->flush_bytes));
        FX_CHECK(cudaMalloc((void **)&R->sink, sizeof(unsigned)));
        fx_fill_kernel<<<fx_grid(R->flush_bytes / 4, R->d.sms), 256, 0, R->s>>>((unsigned *)R->flush,
                                                                               R->flush_bytes / 4, 777u);
        FX_CHECK(cudaGetLastError());
        FX_CHECK(cudaStreamSynchronize(R->s));
    }
    fx_print_row_header(R);
    for (i = 0; i < R->o.nsizes; i++)
        fx_time_size(R, R->o.sizes[i]);
    for (i = 0; i <= R->o.reps; i++)
        FX_CHECK(cudaEventDestroy(R->ev[i]));
    if (R->flush) {
        FX_CHECK(cudaFree(R->flush));
        FX_CHECK(cudaFree(R->sink));
        R->flush = NULL;
    }
}

/* ================================ the run: before and after ================================ */

/* Tolerances, fragility thresholds, byte counts and param values. */
static void fx_setup_reference(FxRun *R)
{
    const FusecChain *c = R->c;
    int k, nd = 0, dts[256];
    double tiny = 0;
    for (k = 0; k < c->n_in && nd < 256; k++)
        dts[nd++] = c->in[k].dtype;
    for (k = 0; k < c->n_out && nd < 255; k++) {
        dts[nd++] = c->out[k].dtype;
        dts[nd++] = c->out[k].tol_dtype;
    }
    for (k = 0; k < c->n_par && nd < 256; k++)
        dts[nd++] = c->par[k].dtype;
    /* fragility is judged at the least precise dtype of the chain */
    fusec_ref_eps = fx_frag_eps[FX_F64];
    for (k = 0; k < nd; k++) {
        if (dts[k] == FX_BOOL)
            continue;
        if (fx_frag_eps[dts[k]] > fusec_ref_eps)
            fusec_ref_eps = fx_frag_eps[dts[k]];
        if (ldexp(1.0, fx_emin[dts[k]]) > tiny)
            tiny = ldexp(1.0, fx_emin[dts[k]]);
    }
    fusec_ref_tiny = tiny > 0 ? tiny : DBL_MIN;
    R->cancel = (double *)fx_alloc(sizeof(double) * (size_t)(c->n_out + 1));
    R->rtol = (double *)fx_alloc(sizeof(double) * (size_t)(c->n_out + 1));
    R->atol = (double *)fx_alloc(sizeof(double) * (size_t)(c->n_out + 1));
    R->io_bytes = 0;
    for (k = 0; k < c->n_out; k++) {
        int dt = c->out[k].dtype, tol = c->out[k].tol_dtype;
        /* An f64 output computed from f32 values is as precise as f32. */
        if (dt != FX_BOOL && fx_def_rtol[tol] > fx_def_rtol[dt])
            dt = tol;
        R->cancel[k] = dt == FX_BOOL ? 0 : ldexp(2.0, 1 - fx_prec[dt]);
        R->rtol[k] = R->o.rtol >= 0 ? R->o.rtol : fx_def_rtol[dt];
        R->atol[k] = R->o.atol >= 0 ? R->o.atol : fx_def_atol[dt];
        dt = c->out[k].dtype;
        R->io_bytes += fusec_dtype_size[dt];
    }
    for (k = 0; k < c->n_in; k++)
        R->io_bytes += fusec_dtype_size[c->in[k].dtype];
    R->par = (double *)fx_alloc(sizeof(double) * (size_t)(c->n_par + 1));
    for (k = 0; k < c->n_par; k++)
        R->par[k] = c->par[k].value;
}

static void fx_print_tensors(const char *what, const FusecTensorArg *t, int n)
{
    int k;
    printf("  %-8s", what);
    for (k = 0; k < n; k++)
        printf("%s %s %s", k ? "," : "", t[k].name, fusec_dtype_name[t[k].dtype]);
    printf("%s\n", n ? "" : " none");
}

static void fx_print_chain(const FxRun *R)
{
    const FusecChain *c = R->c;
    const char *p = c->program ? c->program : "";
    int k;
    printf("fusec harness: chain %s, from %s\n", c->name ? c->name : "?", c->source ? c->source : "?");
    while (*p) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        printf("  | %.*s\n", len, p);
        p += len + (nl ? 1 : 0);
    }
    fx_print_tensors("inputs", c->in, c->n_in);
    fx_print_tensors("outputs", c->out, c->n_out);
    printf("  %-8s", "params");
    for (k = 0; k < c->n_par; k++)
        printf("%s %s = %.9g (%s)", k ? "," : "", c->par[k].name, c->par[k].value, fusec_dtype_name[c->par[k].dtype]);
    printf("%s\n", c->n_par ? "" : " none");
    printf("  seed %llu (--seed %llu repeats these inputs)\n", R->o.seed, R->o.seed);
}

static void fx_print_model(const FxRun *R)
{
    const FusecChain *c = R->c;
    printf("\nmodel: unfused %d kernel%s moving %.4g B/element, fused %d kernel%s moving %.4g B/element: "
           "traffic ratio %.2fx\n",
           fusec_kernel_count(&c->unfused), fusec_kernel_count(&c->unfused) == 1 ? "" : "s", c->unfused_bytes,
           fusec_kernel_count(&c->fused), fusec_kernel_count(&c->fused) == 1 ? "" : "s", c->fused_bytes,
           c->unfused_bytes / c->fused_bytes);
    printf("       (the speedup where both versions are memory-bound; where launches dominate, nearer %d/%d)\n",
           fusec_kernel_count(&c->unfused), fusec_kernel_count(&c->fused));
}

static int fx_verify_all(FxRun *R)
{
    int i, r;
    fx_print_check_header();
    for (i = 0; i < R->o.nsizes; i++) {
        r = fx_verify_size(R, R->o.sizes[i]);
        if (r == 0)
            return 0;
        R->verified_sizes += r > 0;
    }
    printf("verification passed at %d of %d sizes (%lld comparisons skipped as fragile)\n", R->verified_sizes,
           R->o.nsizes, R->fragile_total);
    return 1;
}

/* ================================ CSV and JSON ================================ */

static const char *fx_verify_status(const FxRun *R, int failed)
{
    if (failed)
        return "fail";
    if (R->o.no_verify)
        return "skipped (--no-verify)";
    return R->verified_sizes ? "pass" : "none (every size skipped)";
}

static void fx_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch < 32)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void fx_json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

/* A CSV field: quoted, quotes doubled, line breaks as " ; ". */
static void fx_csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"')
            fputs("\"\"", f);
        else if (*s == '\n')
            fputs(" ; ", f);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

typedef struct FxOutput {
    const FxRun *R;
    int failed; /* verification failed */
} FxOutput;

static void fx_write_json(FILE *f, const FxOutput *out)
{
    const FxRun *R = out->R;
    const FxDevice *d = &R->d;
    int i, m;
    char buf[32];
    fputs("{\n  \"harness\": \"fusec\",\n  \"date_utc\": ", f);
    fx_json_str(f, d->date);
    fputs(",\n  \"chain\": ", f);
    fx_json_str(f, R->c->name);
    fputs(",\n  \"source\": ", f);
    fx_json_str(f, R->c->source);
    fputs(",\n  \"program\": ", f);
    fx_json_str(f, R->c->program);
    fputs(",\n  \"command\": ", f);
    fx_json_str(f, R->cmdline);
    fputs(",\n  \"gpu\": {\"name\": ", f);
    fx_json_str(f, d->name);
    fprintf(f, ", \"sm\": \"%d.%d\", \"sms\": %d, \"l2_bytes\": %zu, \"memory_bytes\": %zu, \"driver\": ",
            d->cc_major, d->cc_minor, d->sms, d->l2_bytes, d->mem_total);
    fx_json_str(f, d->driver);
    fprintf(f, ", \"driver_cuda\": \"%d.%d\", \"runtime\": \"%d.%d\"},\n", d->driver_api / 1000,
            d->driver_api % 1000 / 10, d->runtime_api / 1000, d->runtime_api % 1000 / 10);
    fprintf(f, "  \"seed\": %llu,\n  \"reps\": %d,\n  \"warmup\": %d,\n  \"modes\": [", R->o.seed, R->o.reps,
            R->o.warmup);
    for (m = 0; m < R->o.nmodes; m++)
        fprintf(f, "%s\"%s\"", m ? ", " : "", fx_mode_name[R->o.modes[m]]);
    fputs("],\n  \"hot_timing\": \"calls back to back, an event between consecutive calls, median\",\n", f);
    fputs("  \"profile\": ", f);
    if (R->calibrated)
        fusec_profile_write_json(f, &R->prof);
    else
        fputs("null\n", f);
    fputs(",\n  \"verification\": {\"status\": ", f);
    fx_json_str(f, fx_verify_status(R, out->failed));
    fprintf(f, ", \"sizes_verified\": %d, \"fragile_skipped\": %lld, \"results\": [", R->verified_sizes,
            R->fragile_total);
    for (i = 0; i < R->nchecks; i++) {
        const FxCheck *s = &R->checks[i];
        const FusecTensorArg *o = &R->c->out[s->out];
        fprintf(f, "%s\n    {\"n\": %zu, \"version\": \"%s\", \"output\": ", i ? "," : "", s->n,
                fx_version_name[s->version]);
        fx_json_str(f, o->name);
        fprintf(f, ", \"dtype\": \"%s\", \"checked\": %lld, \"fragile\": %lld, \"max_abs_err\": ",
                fusec_dtype_name[o->dtype], s->checked, s->fragile);
        fx_json_num(f, s->max_abs);
        fputs(", \"max_rel_err\": ", f);
        fx_json_num(f, s->max_rel);
        fputs(", \"max_ulp_err\": ", f);
        fx_json_num(f, s->max_ulp);
        fputs(", \"rtol\": ", f);
        fx_json_num(f, R->rtol[s->out]);
        fputs(", \"atol\": ", f);
        fx_json_num(f, R->atol[s->out]);
        fputs("}", f);
    }
    fputs("]},\n  \"skipped\": [", f);
    for (i = 0; i < R->nrefused; i++) {
        fprintf(f, "%s\n    {\"n\": %zu, \"reason\": ", i ? "," : "", R->refused[i].n);
        fx_json_str(f, R->refused[i].why);
        fputs("}", f);
    }
    fputs("],\n  \"timing\": [", f);
    for (i = 0; i < R->nrows; i++) {
        const FxRow *r = &R->rows[i];
        const double v[] = {r->t[0].median, r->t[1].median, r->t[0].min, r->t[1].min, r->t[0].max, r->t[1].max,
                            r->speedup, r->pred_speedup, r->err_pct, r->pred[0].us, r->pred[1].us,
                            r->gbps[0], r->gbps[1], r->pct_copy[0], r->pct_copy[1]};
        static const char *const key[] = {"unfused_us", "fused_us", "unfused_min_us", "fused_min_us",
                                          "unfused_max_us", "fused_max_us", "speedup", "predicted_speedup",
                                          "error_pct", "predicted_unfused_us", "predicted_fused_us",
                                          "unfused_gbps", "fused_gbps", "unfused_pct_copy", "fused_pct_copy"};
        fprintf(f, "%s\n    {\"n\": %zu, \"n_label\": \"%s\", \"mode\": \"%s\", \"model_host\": \"%s\"",
                i ? "," : "", r->n, fx_fmt_n(r->n, buf, sizeof buf), fx_mode_name[r->mode],
                fusec_host_name[r->host]);
        for (m = 0; m < (int)(sizeof key / sizeof *key); m++) {
            fprintf(f, ", \"%s\": ", key[m]);
            fx_json_num(f, v[m]);
        }
        fprintf(f, ", \"unfused_regime\": \"%s\", \"fused_regime\": \"%s\", \"predicted_fused_regime\": \"%s\"}",
                fusec_regime_name[r->regime[0]], fusec_regime_name[r->regime[1]],
                fusec_regime_name[r->pred[1].regime]);
    }
    fputs("]\n}\n", f);
}

static void fx_write_csv(FILE *f, const FxOutput *out)
{
    const FxRun *R = out->R;
    const FxDevice *d = &R->d;
    const FusecProfile *p = &R->prof;
    int i;
    fprintf(f, "# fusec harness run\n# date_utc,%s\n# chain,", d->date);
    fx_csv_str(f, R->c->name);
    fputs("\n# source,", f);
    fx_csv_str(f, R->c->source);
    fputs("\n# program,", f);
    fx_csv_str(f, R->c->program);
    fputs("\n# command,", f);
    fx_csv_str(f, R->cmdline);
    fputs("\n# gpu,", f);
    fx_csv_str(f, d->name);
    fprintf(f, "\n# sm,%d.%d\n# sms,%d\n# l2_bytes,%zu\n# memory_bytes,%zu\n# driver,%s\n", d->cc_major,
            d->cc_minor, d->sms, d->l2_bytes, d->mem_total, d->driver);
    fprintf(f, "# driver_cuda,%d.%d\n# runtime,%d.%d\n# seed,%llu\n# reps,%d\n# warmup,%d\n", d->driver_api / 1000,
            d->driver_api % 1000 / 10, d->runtime_api / 1000, d->runtime_api % 1000 / 10, R->o.seed, R->o.reps,
            R->o.warmup);
    fputs("# hot_timing,calls back to back; an event between consecutive calls; median\n", f);
    if (R->calibrated) {
        fputs("# profile_name,", f);
        fx_csv_str(f, p->name);
        fputs("\n# profile_note,", f);
        fx_csv_str(f, p->note);
        fprintf(f,
                "\n# profile_hbm_gbps,%.1f\n# profile_l2_gbps,%.1f\n# profile_l2_bytes,%.0f\n"
                "# profile_launch_us,%.3f\n# profile_graph_node_us,%.3f\n# profile_fp32_gflops,%.0f\n"
                "# profile_fp64_gflops,%.0f\n# profile_sfu_gops,%.0f\n# profile_eager_op_us,%.3f\n"
                "# profile_compiled_call_us,%.3f\n",
                p->hbm_gbps, p->l2_gbps, p->l2_bytes, p->launch_us, p->graph_node_us, p->fp32_gflops,
                p->fp64_gflops, p->sfu_gops, p->eager_op_us, p->compiled_call_us);
    }
    fprintf(f, "# verification,%s,sizes_verified %d,fragile_skipped %lld\n", fx_verify_status(R, out->failed),
            R->verified_sizes, R->fragile_total);
    fputs("# verify,n,version,output,dtype,checked,fragile,max_abs_err,max_rel_err,max_ulp_err,rtol,atol\n", f);
    for (i = 0; i < R->nchecks; i++) {
        const FxCheck *s = &R->checks[i];
        const FusecTensorArg *o = &R->c->out[s->out];
        fprintf(f, "# verify,%zu,%s,%s,%s,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%.6g\n", s->n, fx_version_name[s->version],
                o->name, fusec_dtype_name[o->dtype], s->checked, s->fragile, s->max_abs, s->max_rel, s->max_ulp,
                R->rtol[s->out], R->atol[s->out]);
    }
    for (i = 0; i < R->nrefused; i++) {
        fprintf(f, "# skipped,%zu,", R->refused[i].n);
        fx_csv_str(f, R->refused[i].why);
        fputc('\n', f);
    }
    fputs("n,mode,model_host,unfused_us,fused_us,unfused_min_us,fused_min_us,unfused_max_us,fused_max_us,speedup,"
          "predicted_speedup,error_pct,predicted_unfused_us,predicted_fused_us,unfused_gbps,fused_gbps,"
          "unfused_pct_copy,fused_pct_copy,unfused_regime,fused_regime,predicted_fused_regime\n",
          f);
    for (i = 0; i < R->nrows; i++) {
        const FxRow *r = &R->rows[i];
        fprintf(f, "%zu,%s,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.2f,%.3f,%.3f,%.1f,%.1f,%.2f,%.2f,%s,%s,%s\n",
                r->n, fx_mode_name[r->mode], fusec_host_name[r->host], r->t[0].median, r->t[1].median, r->t[0].min, r->t[1].min,
                r->t[0].max, r->t[1].max, r->speedup, r->pred_speedup, r->err_pct, r->pred[0].us, r->pred[1].us,
                r->gbps[0], r->gbps[1], r->pct_copy[0], r->pct_copy[1], fusec_regime_name[r->regime[0]],
                fusec_regime_name[r->regime[1]], fusec_regime_name[r->pred[1].regime]);
    }
}

static void fx_write_profile(FILE *f, const FxOutput *out)
{
    fusec_profile_write_json(f, &out->R->prof);
}

/* Writes path through path.tmp and a rename, so that a reader never sees a
 * half-written file. Returns 1 on success. */
static int fx_write_file(const char *path, void (*write)(FILE *, const FxOutput *), const FxOutput *out)
{
    size_t len = strlen(path) + 8;
    char *tmp = (char *)fx_alloc(len);
    FILE *f;
    int ok;
    fx_format(tmp, len, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "fusec harness: cannot write %s: %s\n", tmp, strerror(errno));
        free(tmp);
        return 0;
    }
    write(f, out);
    ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (ok) {
        printf("wrote %s\n", path);
    } else {
        fprintf(stderr, "fusec harness: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok;
}

static int fx_write_results(const FxRun *R, int failed)
{
    FxOutput out;
    int ok = 1;
    out.R = R;
    out.failed = failed;
    if (R->o.csv)
        ok = fx_write_file(R->o.csv, fx_write_csv, &out) && ok;
    if (R->o.json)
        ok = fx_write_file(R->o.json, fx_write_json, &out) && ok;
    return ok;
}

static void fx_free_run(FxRun *R)
{
    FX_CHECK(cudaStreamDestroy(R->s));
    free(R->ev);
    free(R->times);
    free(R->par);
    free(R->rtol);
    free(R->cancel);
    free(R->atol);
    free(R->cmdline);
    free(R->checks);
    free(R->rows);
    free(R->refused);
}

/* ================================ main ================================ */

static int fusec_harness_main(const FusecChain *c, int argc, char **argv)
{
    FxRun R;
    FxOutput out;
    int rc, status = 0;
    memset(&R, 0, sizeof R);
    R.c = c;
    rc = fx_parse_options(&R.o, argc, argv);
    if (rc >= 0)
        return rc;
    R.cmdline = fx_command_line(argc, argv);
    fx_setup_reference(&R);
    fx_print_chain(&R);
    rc = fx_open_device(&R.d, R.o.device);
    if (rc)
        return rc;
    fx_print_device(&R.d);
    FX_CHECK(cudaStreamCreateWithFlags(&R.s, cudaStreamNonBlocking));

    /* The model's ceilings, measured here (not needed to verify only). */
    if (!R.o.verify_only || R.o.calibrate) {
        fx_calibrate(&R.d, R.s, &R.prof, &R.calib);
        R.calibrated = 1;
        fx_print_profile(&R.prof, &R.calib);
        out.R = &R;
        out.failed = 0;
        if (R.o.calibrate && !fx_write_file(R.o.calibrate, fx_write_profile, &out))
            status = 1;
    }
    fx_print_model(&R);

    /* Correct first: nothing is timed before both versions passed. */
    if (!R.o.no_verify && !fx_verify_all(&R)) {
        fx_write_results(&R, 1);
        return 1;
    }
    if (!R.o.verify_only)
        fx_time_all(&R);

    if (R.o.verify_only ? !R.verified_sizes : !R.timed_sizes) {
        fprintf(stderr, "fusec harness: no size could be run\n");
        status = 1;
    }
    if (!fx_write_results(&R, 0))
        status = 1;
    fx_free_run(&R);
    return status;
}

#endif /* FUSEC_HARNESS_CUH */

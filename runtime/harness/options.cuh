/* ================================ options ================================ */

enum { FH_MODE_COLD, FH_MODE_HOT, FH_MODE_GRAPH, FH_NMODES };
static const char *const fh_mode_name[FH_NMODES] = {"cold", "hot", "graph"};

#define FH_MAX_SIZES 256

typedef struct FhOptions {
    size_t sizes[FH_MAX_SIZES];
    int nsizes;
    int modes[FH_NMODES]; /* in the order given */
    int nmodes;
    int reps, warmup, passes;
    const char *csv, *json, *calibrate;
    int verify_only, no_verify;
    unsigned long long seed;
    int device;
    double rtol, atol; /* < 0: the output dtype's default */
    const char *dims, *sweep; /* a shaped chain's --dims and --sweep, as given */
    int sizes_given;
} FhOptions;

static void fh_usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options]\n"
            "Checks the unfused version (one kernel per PyTorch eager op) and the fused version\n"
            "(one kernel) of this chain against a double reference, then times both and prints\n"
            "the measurement beside fusec's prediction, after calibrating the model on this GPU.\n"
            "Compiled with -DFUSEC_CUB, it checks and times a third version beside them: the\n"
            "fused chain through cub::DeviceTransform (CCCL), the library baseline.\n"
            "\n"
            "  --sizes LIST       element counts, comma separated (default 2^12..2^28). An item is\n"
            "                     N (an integer, with an optional K, M or G: 2^10, 2^20, 2^30), 2^k,\n"
            "                     or A..B: A, 2A, 4A, ... up to B (2^12..2^28 is 17 sizes). A shaped\n"
            "                     chain: the sizes of the --sweep dim (default: those that make\n"
            "                     2^12..2^28 elements)\n"
            "  --dims D=N,...     a shaped chain: the size of every dim but the swept one, e.g.\n"
            "                     --dims=C=1024 (the chain's banner lists its dims)\n"
            "  --sweep D          a shaped chain: the dim --sizes varies (default: the first)\n"
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
            "  --passes N         times each size N times over (all its modes and versions in turn,\n"
            "                     then again) and keeps each version's lowest median (2): a slow spell\n"
            "                     of the machine's (another process, a clock change) spoils one pass,\n"
            "                     not the row\n"
            "  --verify-only      verify at every size and time nothing; exit status 0 pass, 1 fail\n"
            "  --no-verify        time without verifying first (not recommended)\n"
            "  --rtol X           relative tolerance for every output: |got - ref| <= atol + rtol |ref|\n"
            "  --atol X           absolute tolerance for every output. Defaults (rtol = atol) by the\n"
            "                     least precise dtype the output depends on: f64 1e-9, f32 1e-5,\n"
            "                     f16 2e-3, bf16 1.6e-2, plus 2 of its ulps of the largest value\n"
            "                     the element passed through (cancellation); bool, fp8 exact; NaN must\n"
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

static int fh_usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "fusec harness: %s '%s' (try --help)\n", what, arg);
    return 2;
}

/* --sizes: the grammar and its parser are runtime/fusec_sizes.h, fusec's own. */
static int fh_parse_sizes(FhOptions *o, const char *list)
{
    unsigned long long v[FH_MAX_SIZES];
    const char *bad;
    int i, n = fusec_sizes_parse(list, v, FH_MAX_SIZES, &bad);
    if (n < 0)
        return 0;
    for (i = 0; i < n; i++)
        o->sizes[i] = (size_t)v[i];
    o->nsizes = n;
    return 1;
}

static int fh_parse_modes(FhOptions *o, const char *list)
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
        for (m = 0; m < FH_NMODES; m++)
            if (!strcmp(item, fh_mode_name[m]))
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

static int fh_parse_int(const char *s, long lo, long hi, int *out)
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

static int fh_parse_tol(const char *s, double *out)
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

/* Options that take a value. ORDER: the cases of fh_parse_options. */
static const char *const fh_valued_opts[] = {"--sizes", "--modes", "--reps",   "--warmup", "--csv",
                                             "--json",  "--calibrate", "--seed", "--device", "--rtol",
                                             "--atol",  "--dims",  "--sweep", "--passes"};
static const char *const fh_flag_opts[] = {"--help", "--verify-only", "--no-verify"};

/* Returns -1 to go on, 0 after --help, 2 on a usage error. */
static int fh_parse_options(FhOptions *o, int argc, char **argv)
{
    int i, k;
    memset(o, 0, sizeof *o);
    fh_parse_sizes(o, "2^12..2^28");
    fh_parse_modes(o, "cold,hot,graph");
    o->reps = 30;
    o->warmup = 5;
    o->passes = 2;
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
            for (k = 0; k < (int)(sizeof fh_valued_opts / sizeof *fh_valued_opts); k++)
                if (!strcmp(name, fh_valued_opts[k]))
                    valued = k;
            for (k = 0; k < (int)(sizeof fh_flag_opts / sizeof *fh_flag_opts); k++)
                if (!strcmp(name, fh_flag_opts[k]))
                    flag = k;
        }
        if (valued < 0 && flag < 0)
            return fh_usage_error("unknown option", a);
        if (flag >= 0) {
            if (eq)
                return fh_usage_error("this option takes no value:", a);
            if (flag == 0) {
                fh_usage(stdout, argv[0]);
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
            return fh_usage_error("missing value for", a);
        switch (valued) {
        case 0: ok = fh_parse_sizes(o, v); o->sizes_given = 1; break;
        case 1: ok = fh_parse_modes(o, v); break;
        case 2: ok = fh_parse_int(v, 1, 1000000, &o->reps); break;
        case 3: ok = fh_parse_int(v, 0, 1000000, &o->warmup); break;
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
        case 8: ok = fh_parse_int(v, 0, 1 << 20, &o->device); break;
        case 9: ok = fh_parse_tol(v, &o->rtol); break;
        case 10: ok = fh_parse_tol(v, &o->atol); break;
        case 11: o->dims = v; break;
        case 12: o->sweep = v; break;
        case 13: ok = fh_parse_int(v, 1, 100, &o->passes); break;
        default: return fh_usage_error("an option the harness has no case for:", a);
        }
        if (!ok) {
            fprintf(stderr, "fusec harness: bad value for %s: '%s'%s (try --help)\n", name, v,
                    valued == 0 ? " (items are N, NK, NM, NG, 2^k or A..B)" : "");
            return 2;
        }
    }
    if (o->verify_only && o->no_verify)
        return fh_usage_error("--verify-only and --no-verify together make no sense:", "--no-verify");
    return -1;
}


/*
 * main.c: the command line. Reads the program, runs the compilation into a
 * temporary file beside the output and renames it into place only when
 * everything succeeded, so an error never leaves a partial or damaged file.
 * Exit status: 0 success, 1 an error in the program or in writing, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fusec.h"

static const char usage[] =
    "usage: fusec [options] FILE.fuse        (FILE '-' reads standard input)\n"
    "\n"
    "Compiles an elementwise chain into one .cu file holding the unfused kernels (one per\n"
    "op, as PyTorch eager runs them), the fused kernel and a timing harness, or predicts\n"
    "what fusion buys before anything runs.\n"
    "\n"
    "  -o FILE              write to FILE ('-': standard output, the default)\n"
    "  --emit=KIND          cuda (default), header, report, json, csv, dot\n"
    "  --predict            the static report (same as --emit=report; see --format)\n"
    "  --format=FMT         text (default), json or csv: the form of --predict\n"
    "  --dtype=DT           dtype of inputs that are not declared: f16, bf16, f32 (default), f64\n"
    "  --device=NAME|FILE   device profile: h200 (default), h100, a100, rtx4090, or a JSON\n"
    "                       file written by a harness's --calibrate\n"
    "  --host=HOST          c (default: plain launches), graph (CUDA graph replay),\n"
    "                       pytorch (unfused = eager, fused = torch.compile)\n"
    "  --sizes=LIST         sizes to predict, e.g. 4096,1M,2^20..2^28 (default 2^12..2^28)\n"
    "  --name=PREFIX        C prefix of the generated API (default: the file's stem)\n"
    "  -w                   no warnings\n"
    "  --help, --version\n"
    "\n"
    "Docs: docs/language.md (the language), docs/model.md (the model), docs/harness.md.\n";

static NORETURN void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "fusec: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(fusec --help lists the options)\n");
    exit(2);
}

/* Reads all of f, with a NUL after it. Returns NULL (and errno) on failure
 * or when the file is larger than the limit (errno EFBIG). */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n > LIMIT_FILE_BYTES) {
            free(buf);
            errno = EFBIG;
            return NULL;
        }
        if (n == cap) {
            char *b = realloc(buf, cap * 2 + 1);
            if (!b)
                free(buf);
            buf = b;
            cap *= 2;
        }
    }
    if (!buf)
        return NULL;
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

static int pick(const char *arg, const char *const *names, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (strcmp(arg, names[i]) == 0)
            return i;
    static char msg[128];
    snprintf(msg, sizeof msg, "unknown %s '%%s'", what);
    usage_error(msg, arg);
}

/* Writes through a temporary file renamed into place on success. */
static int run_to_file(const Options *opt, const Source *src)
{
    struct stat st;
    if (stat(opt->output, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "fusec: error: cannot write '%s': it is a directory\n", opt->output);
        return 1;
    }
    size_t len = strlen(opt->output);
    char *tmp = malloc(len + 16);
    if (!tmp)
        return 1;
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", opt->output);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "fusec: error: cannot write '%s': %s\n", opt->output, strerror(errno));
        free(tmp);
        return 1;
    }
    FILE *f = fdopen(fd, "w");
    int rc = f ? fusec_compile(opt, src, f, stderr) : 1;
    if (f) {
        if (ferror(f) && rc == 0) {
            fprintf(stderr, "fusec: error: writing '%s' failed\n", opt->output);
            rc = 1;
        }
        if (fclose(f) != 0 && rc == 0) {
            fprintf(stderr, "fusec: error: writing '%s' failed: %s\n", opt->output, strerror(errno));
            rc = 1;
        }
    } else {
        close(fd);
    }
    if (rc == 0) {
        /* mkstemp makes the file 0600; give it the usual mode. */
        mode_t mask = umask(0);
        umask(mask);
        chmod(tmp, 0666 & ~mask);
        if (rename(tmp, opt->output) != 0) {
            fprintf(stderr, "fusec: error: cannot write '%s': %s\n", opt->output, strerror(errno));
            rc = 1;
        }
    }
    if (rc != 0)
        unlink(tmp);
    free(tmp);
    return rc;
}

int main(int argc, char **argv)
{
    static const char *const emits[] = {"cuda", "header", "report", "json", "csv", "dot"};
    static const char *const formats[] = {"text", "json", "csv"};
    enum { OPT_EMIT = 256, OPT_PREDICT, OPT_FORMAT, OPT_DTYPE, OPT_DEVICE, OPT_HOST, OPT_SIZES, OPT_NAME, OPT_HELP, OPT_VERSION };
    static const struct option longopts[] = {
        {"emit", required_argument, 0, OPT_EMIT},     {"predict", no_argument, 0, OPT_PREDICT},
        {"format", required_argument, 0, OPT_FORMAT}, {"dtype", required_argument, 0, OPT_DTYPE},
        {"device", required_argument, 0, OPT_DEVICE}, {"host", required_argument, 0, OPT_HOST},
        {"sizes", required_argument, 0, OPT_SIZES},   {"name", required_argument, 0, OPT_NAME},
        {"help", no_argument, 0, OPT_HELP},           {"version", no_argument, 0, OPT_VERSION},
        {0, 0, 0, 0},
    };
    static Options opt;
    opt.emit = E_CUDA;
    opt.dtype = FX_F32;
    opt.host = FUSEC_HOST_C;
    opt.device = device_builtin[0];
    sizes_default(&opt.sizes);
    bool predict = false;
    int format = 0;
    char err[512];
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "o:w", longopts, NULL)) != -1) {
        switch (ch) {
        case 'o': opt.output = optarg; break;
        case 'w': opt.no_warnings = true; break;
        case OPT_EMIT: opt.emit = (Emit)pick(optarg, emits, 6, "--emit kind"); break;
        case OPT_PREDICT: predict = true; break;
        case OPT_FORMAT: format = pick(optarg, formats, 3, "--format"); break;
        case OPT_DTYPE:
            opt.dtype = pick(optarg, fusec_dtype_name, FX_NDTYPES, "--dtype");
            if (fusec_dtype[opt.dtype].kind != FX_KIND_FLOAT)
                usage_error("--dtype %s: the default dtype must be a float type", optarg);
            break;
        case OPT_DEVICE:
            if (device_load(optarg, &opt.device, err, sizeof err) < 0)
                usage_error("--device: %s", err);
            break;
        case OPT_HOST: opt.host = pick(optarg, fusec_host_name, FUSEC_NHOSTS, "--host"); break;
        case OPT_SIZES:
            if (sizes_parse(optarg, &opt.sizes, err, sizeof err) < 0)
                usage_error("--sizes: %s", err);
            break;
        case OPT_NAME: {
            const char *s = optarg;
            bool ok = (*s == '_' || ((*s | 32) >= 'a' && (*s | 32) <= 'z')) && strlen(s) <= 64;
            for (; *s && ok; s++)
                ok = *s == '_' || ((*s | 32) >= 'a' && (*s | 32) <= 'z') || (*s >= '0' && *s <= '9');
            if (!ok)
                usage_error("--name '%s' is not a C identifier (letters, digits, _; 64 at most)", optarg);
            opt.name = optarg;
            break;
        }
        case OPT_HELP: fputs(usage, stdout); return 0;
        case OPT_VERSION: printf("fusec %s\n", FUSEC_VERSION); return 0;
        default:
            usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (predict)
        opt.emit = format == 1 ? E_JSON : format == 2 ? E_CSV : E_REPORT;
    if (optind != argc - 1)
        usage_error("%s", optind >= argc ? "no input file" : "more than one input file");
    opt.input = argv[optind];

    Source src = {opt.input, NULL, 0};
    FILE *in = strcmp(opt.input, "-") == 0 ? stdin : fopen(opt.input, "rb");
    if (strcmp(opt.input, "-") == 0)
        src.name = "<stdin>";
    char *text = NULL;
    if (in)
        text = read_all(in, &src.len);
    int saved = errno;
    if (in && in != stdin)
        fclose(in);
    if (!text) {
        if (saved == EFBIG)
            fprintf(stderr, "%s:1:1: error: the file is larger than the %u MiB limit\n", src.name,
                    LIMIT_FILE_BYTES >> 20);
        else
            fprintf(stderr, "fusec: error: cannot read '%s': %s\n", opt.input, strerror(saved));
        return 1;
    }
    src.text = text;
    int rc;
    if (!opt.output || strcmp(opt.output, "-") == 0) {
        /* To standard output: nothing to protect, but stop at an error. */
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        rc = m ? fusec_compile(&opt, &src, m, stderr) : 1;
        if (m)
            fclose(m);
        if (rc == 0 && (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)) {
            fprintf(stderr, "fusec: error: writing to standard output failed\n");
            rc = 1;
        }
        free(buf);
    } else {
        rc = run_to_file(&opt, &src);
    }
    free(text);
    return rc;
}

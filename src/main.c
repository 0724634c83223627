/*
 * main.c: the command line. Reads the program and compiles it; -o replaces
 * a regular file through a temporary file renamed into place only when
 * everything succeeded, so an error never leaves a partial or damaged file,
 * and writes through to anything else (a FIFO, a device). The input is never
 * the output.
 * Exit status: 0 success, 1 an error in the program or in writing, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
    "  --emit=KIND          cuda (default), header, report, json, csv, dot, or torch: a folder\n"
    "                       (-o DIR) with the .cu, the header, a PyTorch binding and its module\n"
    "  --predict            the static report (same as --emit=report; see --format)\n"
    "  --format=FMT         text (default), json or csv: the form of the report; implies\n"
    "                       --predict (with an --emit other than report, a usage error)\n"
    "  --dtype=DT           dtype of inputs that are not declared: f16, bf16, f32 (default), f64\n"
    "  --device=NAME|FILE   device profile: h200 (default), h100, a100, rtx4090, or a JSON\n"
    "                       file written by a harness's --calibrate\n"
    "  --host=HOST          c (default: plain launches), graph (CUDA graph replay),\n"
    "                       pytorch (unfused = eager, fused = torch.compile)\n"
    "  --mode=MODE          cold (default: L2 flushed before each call) or hot (calls back\n"
    "                       to back on the same buffers: what fits stays in L2)\n"
    "  --sizes=LIST         sizes to predict, e.g. 4096,1M,2^20..2^28 (default 2^12..2^28)\n"
    "  --dims=D=N,...       a shaped chain: the sizes of its dims, e.g. --dims=C=1024 (every\n"
    "                       dim but the swept one; the swept one's sets the report's totals)\n"
    "  --sweep=D            the dim --sizes varies (default: the first dim)\n"
    "  --name=PREFIX        C prefix of the generated API (default: the file's stem)\n"
    "  -w                   no warnings\n"
    "  -Werror              warnings are errors: exit 1 and no output\n"
    "  -h, --help           this text;  -V, --version: the version\n"
    "\n"
    "An option given twice must have the same value both times.\n"
    "\n"
    "Exit status: 0 success (warnings may have been printed), 1 an error in the program\n"
    "or in reading or writing a file (nothing written), 2 a usage error (a --device\n"
    "profile that cannot be read or parsed is one: it is part of the command line).\n"
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

/* An option that takes a value, given a second time: the same value is
 * harmless, a different one a contradiction (as --predict beside --emit),
 * never silently resolved by taking the last. */
static const char *once(const char *before, const char *arg, int ch, const struct option *longopts)
{
    if (before && strcmp(before, arg) != 0) {
        const char *name = "o";
        for (const struct option *o = longopts; o->name; o++)
            if (o->val == ch)
                name = o->name;
        static char msg[600];
        snprintf(msg, sizeof msg, "%s%s given twice, as '%.200s' and '%.200s': give it once", ch == 'o' ? "-" : "--",
                 name, before, arg);
        usage_error("%s", msg);
    }
    return arg;
}

/* The message of an option getopt_long refused ('?' or ':'): word is the
 * argument it was reading, when known (a long option's; a short option in a
 * cluster such as -wx is named alone). */
static NORETURN void bad_option(int ch, const char *word, const struct option *longopts)
{
    static char msg[600];
    bool is_long = optopt == 0 || optopt > 255;
    size_t len = is_long && word ? strcspn(word, "=") : 0;
    if (is_long && !word)
        word = "--";
    if (is_long && len <= 2) /* --=x: the whole word */
        len = strlen(word);
    if (ch == ':' && !is_long && optopt == 'W')
        usage_error("%s", "unknown option '-W' (-Werror is the one -W option)");
    if (ch == ':' && !is_long)
        snprintf(msg, sizeof msg, "option '-%c' needs a value (-o FILE)", optopt);
    else if (ch == ':')
        snprintf(msg, sizeof msg, "option '%.*s' needs a value (%.*s=...)", (int)len, word, (int)len, word);
    else if (!is_long)
        snprintf(msg, sizeof msg, "unknown option '-%c'", optopt);
    else if (optopt != 0)
        snprintf(msg, sizeof msg, "option '%.*s' takes no value", (int)len, word);
    else {
        int n = 0, at = snprintf(msg, sizeof msg, "unknown option '%.*s'", (int)len, word);
        for (const struct option *o = longopts; o->name; o++)
            n += len > 2 && strncmp(o->name, word + 2, len - 2) == 0;
        if (n > 1) { /* an abbreviation of several: say which */
            at = snprintf(msg, sizeof msg, "ambiguous option '%.*s' (", (int)len, word);
            for (const struct option *o = longopts; o->name; o++)
                if (strncmp(o->name, word + 2, len - 2) == 0 && at < (int)sizeof msg - 80)
                    at += snprintf(msg + at, sizeof msg - (size_t)at, "%s--%s", msg[at - 1] == '(' ? "" : ", ", o->name);
            snprintf(msg + at, sizeof msg - (size_t)at, ")");
        }
    }
    usage_error("%s", msg);
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

/* The temporary files being written (one a file of a folder backend), removed
 * if a signal or an exit() ends fusec before they are renamed into place:
 * out of memory (arena.c) exits at once, and a closed pipe (SIGPIPE) or the
 * file-size limit (SIGXFSZ) kill it while it writes. */
static char *volatile tmp_path[8];

static void remove_temps(void)
{
    for (size_t i = 0; i < ARRAY_LEN(tmp_path); i++)
        if (tmp_path[i])
            unlink(tmp_path[i]);
}

static void on_signal(int sig)
{
    remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Blocks (how = SIG_BLOCK) or unblocks the signals that remove tmp_path. */
static void mask_signals(int how)
{
    static const int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ};
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
        sigaddset(&set, sigs[i]);
    sigprocmask(how, &set, NULL);
    static bool installed;
    if (installed)
        return;
    installed = true;
    atexit(remove_temps);
    for (size_t i = 0; i < ARRAY_LEN(sigs); i++) {
        struct sigaction old, sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* A signal ignored by whoever started fusec (nohup) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
}

/* Compiles into memory: *buf (malloc'd) and *len. Returns the status. */
static int compile_to_memory(const Options *opt, const Source *src, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    FILE *m = open_memstream(buf, len);
    int rc = m ? fusec_compile(opt, src, m, stderr) : 1;
    if (m && fclose(m) != 0)
        rc = 1;
    return rc;
}

/* What goes into a file: write(f, ctx) returns 0, or 1 after a message. */
typedef int (*Writer)(FILE *f, void *ctx);

typedef struct Compilation {
    const Options *opt;
    const Source *src;
} Compilation;

static int write_compiled(FILE *f, void *ctx)
{
    const Compilation *c = ctx;
    return fusec_compile(c->opt, c->src, f, stderr);
}

/* Writes what writer gives into a temporary file beside path, in tmp_path's
 * slot: its name (malloc'd) with *status 0, or NULL after a message (no
 * temporary left) with *status the writer's (2: the driver's usage errors) or 1.
 * The temporary's name stays within NAME_MAX, however long the target's;
 * it takes the old file's mode, or the usual one. Messages name the file as
 * shown. */
static char *stage_file(const char *shown, const char *path, const struct stat *old, Writer writer, void *ctx,
                        int slot, int *status)
{
    *status = 1;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t baselen = strlen(path) - dirlen;
    static const char suffix[] = ".tmpXXXXXX";
    if (baselen > NAME_MAX - (sizeof suffix - 1))
        baselen = NAME_MAX - (sizeof suffix - 1);
    char *tmp = malloc(dirlen + baselen + sizeof suffix);
    if (!tmp)
        return NULL;
    memcpy(tmp, path, dirlen + baselen);
    memcpy(tmp + dirlen + baselen, suffix, sizeof suffix);
    mask_signals(SIG_BLOCK);
    int fd = mkstemp(tmp);
    if (fd >= 0)
        tmp_path[slot] = tmp;
    mask_signals(SIG_UNBLOCK);
    if (fd < 0) {
        fprintf(stderr, "fusec: error: cannot write '%s': %s\n", shown, strerror(errno));
        free(tmp);
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    int rc = f ? writer(f, ctx) : 1;
    if (f) {
        if (ferror(f) && rc == 0) {
            fprintf(stderr, "fusec: error: writing '%s' failed\n", shown);
            rc = 1;
        }
        if (fclose(f) != 0 && rc == 0) {
            fprintf(stderr, "fusec: error: writing '%s' failed: %s\n", shown, strerror(errno));
            rc = 1;
        }
    } else {
        close(fd);
    }
    if (rc == 0) {
        mode_t mask = umask(0); /* mkstemp makes the file 0600 */
        umask(mask);
        chmod(tmp, old ? old->st_mode & 07777 : 0666 & ~mask);
        *status = 0;
        return tmp;
    }
    mask_signals(SIG_BLOCK);
    unlink(tmp);
    tmp_path[slot] = NULL;
    mask_signals(SIG_UNBLOCK);
    free(tmp);
    *status = rc;
    return NULL;
}

/* Renames a staged temporary into place (keep), or removes it; frees it. */
static int commit_file(const char *shown, char *tmp, const char *path, int slot, bool keep)
{
    int rc = keep ? 0 : 1;
    mask_signals(SIG_BLOCK);
    if (keep && rename(tmp, path) != 0) {
        fprintf(stderr, "fusec: error: cannot write '%s': %s\n", shown, strerror(errno));
        rc = 1;
    }
    if (rc != 0)
        unlink(tmp);
    tmp_path[slot] = NULL;
    mask_signals(SIG_UNBLOCK);
    free(tmp);
    return rc;
}

/* Writes a regular file (or a new one) through a temporary file beside it,
 * renamed into place on success: an error or a signal leaves the old file
 * whole and no temporary behind. */
static int write_via_rename(const char *shown, const char *path, const struct stat *old, Writer writer, void *ctx)
{
    int status;
    char *tmp = stage_file(shown, path, old, writer, ctx, 0, &status);
    return tmp ? commit_file(shown, tmp, path, 0, true) : status;
}

/* Writes through to what is there: a FIFO, a device, a terminal, or the
 * missing target of a symlink (as gcc does). The program is compiled first,
 * so an error writes nothing. */
static int write_through(const Options *opt, const Source *src)
{
    char *buf;
    size_t len;
    int rc = compile_to_memory(opt, src, &buf, &len);
    if (rc == 0) {
        FILE *f = fopen(opt->output, "w");
        if (!f || fwrite(buf, 1, len, f) != len || fflush(f) != 0) {
            fprintf(stderr, "fusec: error: cannot write '%s': %s\n", opt->output, strerror(errno));
            rc = 1;
        }
        if (f && fclose(f) != 0 && rc == 0) {
            fprintf(stderr, "fusec: error: writing '%s' failed: %s\n", opt->output, strerror(errno));
            rc = 1;
        }
    }
    free(buf);
    return rc;
}

/* True, with the message, when path (existing, st its stat) is the input
 * file, by whatever name: standard input too (fusec - -o /dev/stdin < s.fuse).
 * Only a regular file: a terminal can be both standard input and output. */
static bool is_input(const Options *opt, const char *path, const struct stat *st)
{
    struct stat in;
    bool std_in = strcmp(opt->input, "-") == 0;
    if ((std_in ? fstat(0, &in) : stat(opt->input, &in)) != 0 || !S_ISREG(in.st_mode) || in.st_dev != st->st_dev ||
        in.st_ino != st->st_ino)
        return false;
    fprintf(stderr, "fusec: error: cannot write '%s': it is the input file\n", path);
    return true;
}

/* -o FILE: never the input; a regular file (through any symlinks) or a new
 * one is replaced whole; anything else is written through. */
static int run_to_file(const Options *opt, const Source *src)
{
    struct stat st;
    bool exists = stat(opt->output, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "fusec: error: cannot write '%s': it is a directory\n", opt->output);
        return 1;
    }
    if (exists && is_input(opt, opt->output, &st))
        return 1;
    struct stat link;
    bool is_link = lstat(opt->output, &link) == 0 && S_ISLNK(link.st_mode);
    Compilation comp = {opt, src};
    if (exists ? !S_ISREG(st.st_mode) : is_link)
        return write_through(opt, src);
    if (!is_link)
        return write_via_rename(opt->output, opt->output, exists ? &st : NULL, write_compiled, &comp);
    char *real = realpath(opt->output, NULL);
    if (!real) {
        fprintf(stderr, "fusec: error: cannot write '%s': %s\n", opt->output, strerror(errno));
        return 1;
    }
    int rc = write_via_rename(opt->output, real, &st, write_compiled, &comp);
    free(real);
    return rc;
}

/* Whether standard output was closed when fusec started. */
static bool stdout_closed;

/* The files of a folder backend (--emit=torch), each compiled into memory. */
typedef struct Folder {
    int n;
    char *name[8], *buf[8];
    size_t len[8];
    FILE *f[8];
} Folder;

static FILE *open_part(void *ctx, const char *name)
{
    Folder *d = ctx;
    if (d->n == (int)ARRAY_LEN(d->f))
        return NULL;
    d->name[d->n] = strdup(name);
    d->f[d->n] = d->name[d->n] ? open_memstream(&d->buf[d->n], &d->len[d->n]) : NULL;
    if (!d->f[d->n]) {
        free(d->name[d->n]);
        fprintf(stderr, "fusec: fatal error: out of memory\n");
        return NULL;
    }
    return d->f[d->n++];
}

typedef struct Bytes {
    const char *buf;
    size_t len;
} Bytes;

static int write_bytes(FILE *f, void *ctx)
{
    const Bytes *b = ctx;
    return fwrite(b->buf, 1, b->len, f) == b->len ? 0 : 1;
}

/* -o DIR of --emit=torch: every file is compiled into memory; only when all
 * succeeded is the folder made (one level, when missing) and each file
 * replaced whole in it. */
static int run_to_dir(const Options *opt, const Source *src)
{
    Folder d = {0}; /* not static: main may run twice (tests/fuzz/fuzz_cli.c) */
    int rc = fusec_compile_parts(opt, src, open_part, &d, stderr);
    for (int k = 0; k < d.n; k++)
        if (fclose(d.f[k]) != 0)
            rc = 1;
    struct stat st;
    if (rc == 0 && stat(opt->output, &st) != 0 && mkdir(opt->output, 0777) != 0) {
        fprintf(stderr, "fusec: error: cannot make the folder '%s': %s\n", opt->output, strerror(errno));
        rc = 1;
    } else if (rc == 0 && stat(opt->output, &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "fusec: error: cannot write into '%s': it is not a folder\n", opt->output);
        rc = 1;
    }
    char *path[ARRAY_LEN(d.name)] = {NULL};
    for (int k = 0; k < d.n && rc == 0; k++) { /* none of the files is the input (s.py in its folder) */
        size_t len = strlen(opt->output) + strlen(d.name[k]) + 2;
        if (!(path[k] = malloc(len)))
            rc = 1;
        else
            snprintf(path[k], len, "%s/%s", opt->output, d.name[k]);
        if (rc == 0 && stat(path[k], &st) == 0 && is_input(opt, path[k], &st))
            rc = 1;
    }
    for (int k = 0; k < d.n && rc == 0; k++)
        if (stat(path[k], &st) == 0 && !S_ISREG(st.st_mode)) { /* a rename could not replace it */
            fprintf(stderr, "fusec: error: cannot write '%s': it is not a regular file\n", path[k]);
            rc = 1;
        }
    /* every file staged first, then all renamed: an error writes none of them */
    char *tmp[ARRAY_LEN(d.name)] = {NULL};
    for (int k = 0; k < d.n && rc == 0; k++) {
        Bytes b = {d.buf[k], d.len[k]};
        tmp[k] = stage_file(path[k], path[k], stat(path[k], &st) == 0 ? &st : NULL, write_bytes, &b, k, &rc);
    }
    int staged = rc == 0;
    for (int k = 0; k < d.n; k++) {
        if (tmp[k] && commit_file(path[k], tmp[k], path[k], k, staged) != 0 && staged)
            rc = 1;
        free(path[k]);
        free(d.name[k]);
        free(d.buf[k]);
    }
    return rc;
}

/* Makes file descriptors 0-2 valid (on /dev/null), so that no file fusec
 * opens becomes standard error by accident. (fcntl.h is not included: its
 * O_ names collide with the op enum's.) */
static bool standard_fds_valid(void)
{
    struct stat st;
    for (int fd = 0; fd <= 2; fd++)
        if (fstat(fd, &st) < 0 && errno == EBADF) {
            stdout_closed |= fd == 1;
            FILE *f = fopen("/dev/null", fd ? "w" : "r"); /* takes the lowest free fd, kept open */
            if (!f || fileno(f) != fd)
                return false;
        }
    return true;
}

/* Writes buf to standard output: 0, or 1 with a message when it is closed
 * or the write fails (a full disk). */
static int write_stdout(const char *buf, size_t len)
{
    if (stdout_closed || fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(stderr, "fusec: error: writing to standard output failed: %s\n",
                stdout_closed ? "it is closed" : strerror(errno));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const emits[] = {"cuda", "header", "report", "json", "csv", "dot", "torch"};
    static const char *const formats[] = {"text", "json", "csv"};
    enum { OPT_EMIT = 256, OPT_PREDICT, OPT_FORMAT, OPT_DTYPE, OPT_DEVICE, OPT_HOST, OPT_SIZES, OPT_NAME, OPT_HELP, OPT_VERSION,
           OPT_DIMS, OPT_SWEEP, OPT_MODE };
    static const struct option longopts[] = {
        {"emit", required_argument, 0, OPT_EMIT},     {"predict", no_argument, 0, OPT_PREDICT},
        {"format", required_argument, 0, OPT_FORMAT}, {"dtype", required_argument, 0, OPT_DTYPE},
        {"device", required_argument, 0, OPT_DEVICE}, {"host", required_argument, 0, OPT_HOST},
        {"sizes", required_argument, 0, OPT_SIZES},   {"name", required_argument, 0, OPT_NAME},
        {"help", no_argument, 0, OPT_HELP},           {"version", no_argument, 0, OPT_VERSION},
        {"dims", required_argument, 0, OPT_DIMS},     {"sweep", required_argument, 0, OPT_SWEEP},
        {"mode", required_argument, 0, OPT_MODE},     {0, 0, 0, 0},
    };
    stdout_closed = false;
    if (!standard_fds_valid())
        return 1;
    static Options opt; /* static: the device and size list are large; zeroed, as main may run twice (tests/fuzz/fuzz_cli.c) */
    memset(&opt, 0, sizeof opt);
    opt.emit = E_CUDA;
    opt.dtype = FX_F32;
    opt.host = FUSEC_HOST_C;
    opt.device = device_builtin[0];
    sizes_default(&opt.sizes);
    bool predict = false;
    int format = -1, emit = -1;
    char err[512];
    int ch;
    opterr = 0;
    /* each option that takes a value, as given (once() refuses a second, different one) */
    const char *given[OPT_MODE + 1] = {NULL};
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) /* -werror: not -w, then -e ... */
        if (strcasecmp(argv[i], "-Werror") == 0 && strcmp(argv[i], "-Werror") != 0)
            usage_error("unknown option '%s' (did you mean -Werror?)", argv[i]);
    while ((ch = getopt_long(argc, argv, ":o:wW:hV", longopts, NULL)) != -1) {
        if (ch == 'o' || (ch >= OPT_EMIT && ch <= OPT_MODE && optarg))
            given[ch] = once(given[ch], optarg, ch, longopts);
        switch (ch) {
        case 'o':
            if (!*optarg)
                usage_error("%s", "-o: the file name is empty");
            opt.output = optarg;
            break;
        case 'w': opt.no_warnings = true; break;
        case 'W':
            if (optarg == argv[optind - 1])
                optarg = ""; /* -W FILE: -W alone, not -W with the file as its value */
            if (strcmp(optarg, "error") != 0)
                usage_error("unknown option '-W%s' (-Werror is the one -W option)", optarg);
            opt.werror = true;
            break;
        case OPT_EMIT: emit = pick(optarg, emits, 7, "--emit kind"); break;
        case OPT_PREDICT: predict = true; break;
        case OPT_FORMAT: format = pick(optarg, formats, 3, "--format"); break;
        case OPT_DTYPE:
            opt.dtype = pick(optarg, fusec_dtype_name, FX_NDTYPES, "--dtype");
            if (fusec_dtype[opt.dtype].kind != FX_KIND_FLOAT || FX_IS_FP8(opt.dtype))
                usage_error("--dtype %s: the default dtype must be a float type other than fp8 (fp8 has no "
                            "arithmetic)", optarg);
            break;
        case OPT_DEVICE:
            if (device_load_ops(optarg, &opt.device, &opt.slots, err, sizeof err) < 0)
                usage_error("--device: %s", err);
            break;
        case OPT_HOST: opt.host = pick(optarg, fusec_host_name, FUSEC_NHOSTS, "--host"); break;
        case OPT_MODE: opt.hot = pick(optarg, fusec_mode_name, ARRAY_LEN(fusec_mode_name), "--mode"); break;
        case OPT_SIZES:
            opt.sizes_given = true;
            if (sizes_parse(optarg, &opt.sizes, err, sizeof err) < 0)
                usage_error("--sizes: %s", err);
            break;
        case OPT_DIMS: opt.dims = optarg; break;
        case OPT_SWEEP: opt.sweep = optarg; break;
        case OPT_NAME: {
            const char *s = optarg;
            bool ok = (*s == '_' || ((*s | 32) >= 'a' && (*s | 32) <= 'z')) && strlen(s) <= 64;
            for (; *s && ok; s++)
                ok = *s == '_' || ((*s | 32) >= 'a' && (*s | 32) <= 'z') || (*s >= '0' && *s <= '9');
            if (!ok)
                usage_error("--name '%s' is not a C identifier (letters, digits, _; 64 at most)", optarg);
            if (driver_prefix_reserved(optarg))
                usage_error("--name '%s' would reach fusec's own names (fx_, fh_, fusec...)", optarg);
            opt.name = optarg;
            break;
        }
        case 'h':
        case OPT_HELP: return write_stdout(usage, strlen(usage));
        case 'V':
        case OPT_VERSION: return write_stdout("fusec " FUSEC_VERSION "\n", strlen("fusec " FUSEC_VERSION "\n"));
        default: bad_option(ch, optind > 1 && optind <= argc ? argv[optind - 1] : NULL, longopts);
        }
    }
    /* --predict and --format choose the report; an --emit of something else
     * beside them is a contradiction, never silently resolved. */
    if ((predict || format >= 0) && emit >= 0 && emit != E_REPORT) {
        snprintf(err, sizeof err, "--%s asks for the report; it cannot be combined with --emit=%%s",
                 format >= 0 ? "format" : "predict");
        usage_error(err, emits[emit]);
    }
    if (predict || format >= 0)
        opt.emit = format == 1 ? E_JSON : format == 2 ? E_CSV : E_REPORT;
    else if (emit >= 0)
        opt.emit = (Emit)emit;
    if (optind != argc - 1)
        usage_error("%s", optind >= argc ? "no input file" : "more than one input file");
    opt.input = argv[optind];
    if (opt.emit == E_TORCH) {
        if (!opt.output || strcmp(opt.output, "-") == 0)
            usage_error("%s: it writes a folder of files: give -o DIR", "--emit=torch");
        Arena *a = arena_new();
        const char *prefix = driver_prefix(a, opt.input, opt.name);
        char name[256];
        snprintf(name, sizeof name, "%s", prefix); /* the arena goes before the message */
        bool bad = emit_torch_reserved(prefix);
        arena_free(a);
        if (bad)
            usage_error("--emit=torch: the op name '%s' is a Python keyword: pick another with --name", name);
        /* NAME.py imports these: named so, it would import itself */
        if (strcmp(name, "torch") == 0 || strcmp(name, "os") == 0 || strcmp(name, "subprocess") == 0)
            usage_error("--emit=torch: the module %s.py would shadow the Python module it imports: pick another "
                        "name with --name", name);
    }

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
        char *buf;
        size_t len;
        rc = compile_to_memory(&opt, &src, &buf, &len);
        if (rc == 0)
            rc = write_stdout(buf, len);
        free(buf);
    } else if (opt.emit == E_TORCH) {
        rc = run_to_dir(&opt, &src);
    } else {
        rc = run_to_file(&opt, &src);
    }
    if (rc == 2) /* the driver's usage errors (--dims, --sweep, --sizes against the chain) */
        fprintf(stderr, "(fusec --help lists the options)\n");
    free(text);
    return rc;
}

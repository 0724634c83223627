/*
 * fuzz_cli.c: libFuzzer target for the command line (src/main.c, all of
 * it: options, reading the input, -o and its temporary file) and the
 * device-profile reader (src/device.c).
 *
 * An input is a device profile's text, a NUL byte, then the arguments, one a
 * line ('\n'); without a NUL byte it is all profile, and the arguments are
 * "--predict --device=p.json s.fuse". Each run writes the profile to p.json
 * and the seed chain to s.fuse in a private folder (the working directory
 * from the first run on), loads p.json with device_load, and runs fusec's
 * main with the arguments. An argument holding '/' is dropped, so fusec
 * reads and writes nothing outside that folder; whatever it wrote there is
 * removed after the run. Standard input and output are /dev/null; fusec's
 * messages go to /dev/null for the run, a sanitizer's report to the real
 * standard error.
 *
 * tests/fuzz/CMakeLists.txt compiles src/main.c into this target with
 * main renamed fusec_cli_main and exit() renamed fuzz_exit, a longjmp back
 * here: fusec's usage errors exit(2) from inside option parsing.
 * tests/fuzz/run.sh builds and runs it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <sanitizer/common_interface_defs.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fusec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int fusec_cli_main(int argc, char **argv);
NORETURN void fuzz_exit(int status);

static jmp_buf back;
static int exit_status;

void fuzz_exit(int status)
{
    exit_status = status;
    longjmp(back, 1);
}

static char folder[] = "/tmp/fuzz_cli.XXXXXX";

/* Removes everything fusec wrote into the folder. */
static void clean_folder(void)
{
    DIR *d = opendir(".");
    if (!d)
        abort();
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(e->d_name);
    closedir(d);
}

static void remove_folder(void)
{
    if (chdir(folder) == 0) {
        clean_folder();
        if (chdir("/") == 0)
            rmdir(folder);
    }
}

static void write_file(const char *name, const void *p, size_t n)
{
    FILE *f = fopen(name, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0)
        abort();
}

/* Once, in the first run (libFuzzer's -jobs parent never gets here, so its
 * logs stay in its own working directory). */
static void setup(void)
{
    if (!mkdtemp(folder) || chdir(folder) != 0)
        abort();
    atexit(remove_folder);
    FILE *null_in = freopen("/dev/null", "r", stdin), *null_out = freopen("/dev/null", "w", stdout);
    if (!null_in || !null_out)
        abort();
    /* A sanitizer's report goes to the real standard error, also while
     * fusec's messages go to /dev/null (a crash inside fusec's main was
     * silent: CI, stop 21). */
    int report = dup(2);
    if (report < 0)
        abort();
    __sanitizer_set_report_fd((void *)(intptr_t)report);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        setup();
        ready = true;
    }
    if (size > 1 << 16)
        return -1;
    const uint8_t *nul = memchr(data, 0, size);
    size_t plen = nul ? (size_t)(nul - data) : size;
    static const char seed[] = "# the seed chain\ny = relu(x*2+1)*0.5\n";
    write_file("s.fuse", seed, sizeof seed - 1);
    write_file("p.json", data, plen);

    FusecProfile prof;
    char err[512];
    if (device_load("p.json", &prof, err, sizeof err) == 0 &&
        (memchr(prof.name, 0, sizeof prof.name) == NULL || memchr(prof.note, 0, sizeof prof.note) == NULL))
        abort(); /* the names are always terminated */

    /* The arguments: a private copy, one string each. */
    char *args = malloc(size - plen + 1);
    if (!args)
        abort();
    char *argv[66];
    int argc = 0;
    argv[argc++] = "fusec";
    if (nul) {
        memcpy(args, nul + 1, size - plen - 1);
        args[size - plen - 1] = 0;
        for (char *s = args, *next; s && argc < 65; s = next) {
            next = strchr(s, '\n');
            if (next)
                *next++ = 0;
            if (!strchr(s, '/'))
                argv[argc++] = s;
        }
    } else {
        argv[argc++] = "--predict";
        argv[argc++] = "--device=p.json";
        argv[argc++] = "s.fuse";
    }
    argv[argc] = NULL;

    /* fusec's messages to /dev/null for the run; libFuzzer's stay. */
    fflush(stderr);
    int saved = dup(2);
    FILE *null_err = fopen("/dev/null", "w");
    if (saved < 0 || !null_err || dup2(fileno(null_err), 2) < 0)
        abort();
    fclose(null_err);
    optind = 0; /* glibc: start getopt afresh */
    int rc;
    if (setjmp(back) == 0)
        rc = fusec_cli_main(argc, argv);
    else
        rc = exit_status;
    fflush(stderr);
    if (dup2(saved, 2) < 0)
        abort();
    close(saved);
    /* 0 success, 1 an error in the program or in writing, 2 usage. */
    if (rc < 0 || rc > 2)
        abort();
    free(args);
    clean_folder();
    return 0;
}

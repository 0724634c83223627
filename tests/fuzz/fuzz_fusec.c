/*
 * fuzz_fusec.c: libFuzzer target for the whole pipeline, bytes to emitted
 * text: lex + parse, IR, traffic and time model, then one backend writing
 * into memory (open_memstream), as main.c does for standard output.
 *
 * The first input byte picks the options; it is NOT removed from the
 * source, so the seed corpus can hold plain .fuse files:
 *   byte % 7        the backend: cuda, header, report, json, csv, dot, torch
 *                   (torch: its four files one after another into memory)
 *   byte / 7 % 4    the default dtype: f16, bf16, f32, f64
 *   byte / 28 % 3   the host: c, graph, pytorch
 *   byte & 0x80     -w (no warnings)
 *   byte & 0x40     -Werror
 * A report (text, JSON, CSV) of a chain with shapes needs --dims: when the
 * compile stops for that, the target compiles again with the dims fusec
 * suggests, each a size picked by the last input byte (1, 3, 64, 1000, 4K, 1M,
 * 2^30 or 2^40), so that the shaped reports are fuzzed too. Diagnostics go to
 * memory and are dropped. Built by tests/fuzz/CMakeLists.txt and run by
 * tests/fuzz/run.sh.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fusec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > LIMIT_FILE_BYTES) /* main.c refuses these before compiling */
        return -1;
    static const Emit emits[] = {E_CUDA, E_HEADER, E_REPORT, E_JSON, E_CSV, E_DOT, E_TORCH};
    unsigned sel = size > 0 ? data[0] : 0;
    static Options opt; /* static as in main.c: device and sizes are large */
    memset(&opt, 0, sizeof opt);
    opt.input = "fuzz.fuse";
    opt.emit = emits[sel % 7];
    opt.dtype = FX_F16 + (int)(sel / 7 % 4);
    opt.host = (int)(sel / 28 % FUSEC_NHOSTS);
    opt.hot = (int)(sel / 84 % 2);
    opt.no_warnings = (sel & 0x80) != 0;
    opt.werror = (sel & 0x40) != 0;
    opt.device = device_builtin[0];
    sizes_default(&opt.sizes);

    /* Source.text needs a NUL after len. */
    char *text = malloc(size + 1);
    if (!text)
        abort();
    if (size)
        memcpy(text, data, size);
    text[size] = 0;
    Source src = {"fuzz.fuse", text, size};

    char dims[LIMIT_DIMS * 300];
    for (int pass = 0; pass < 2; pass++) {
        char *buf = NULL, *diag = NULL;
        size_t len = 0, dlen = 0;
        FILE *out = open_memstream(&buf, &len), *derr = open_memstream(&diag, &dlen);
        if (!out || !derr)
            abort();
        int rc = fusec_compile(&opt, &src, out, derr);
        if (fclose(out) != 0 || fclose(derr) != 0)
            abort();
        /* A success writes something; an error never reaches the backend. */
        if (rc == 0 && len == 0)
            abort();
        /* 2: a usage error, which the options alone cause here (the dims of
         * a shaped report, or a dim size too large for the sweep) */
        if (rc != 0 && rc != 1 && rc != 2)
            abort();
        const char *hint = rc == 2 && pass == 0 ? strstr(diag ? diag : "", "give e.g. --dims=") : NULL;
        free(buf);
        if (hint) { /* the suggested NAME=1024,... with sizes of our own */
            static const char *const sizes[] = {"1", "3", "64", "1000", "4K", "1M", "2^30", "2^40"};
            unsigned pick = size > 0 ? data[size - 1] : 0;
            size_t n = 0;
            for (const char *c = hint + strlen("give e.g. --dims="); *c && *c != '\n' && n + 8 < sizeof dims; c++) {
                if (strncmp(c, "=1024", 5) == 0) {
                    n += (size_t)snprintf(dims + n, sizeof dims - n, "=%s", sizes[pick % 8]);
                    pick = pick / 8 + 5;
                    c += 4;
                } else {
                    dims[n++] = *c;
                }
            }
            dims[n] = 0;
            opt.dims = dims;
        }
        free(diag);
        if (!hint)
            break;
    }
    free(text);
    return 0;
}

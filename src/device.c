/*
 * device.c: device profiles. The built-in ones, and profile files in the
 * JSON that an emitted harness writes with --calibrate (read with jansson).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fusec.h"

/* h200: the harness's calibration on an H200 SXM (driver 580, CUDA 13.0),
 * from examples/seed.fuse's harness in run 5 of 2026-12-01
 * (bench/results/h200-2026-12-01/run-5-fidelity): copy and FMA rates,
 * the hot launch terms, and a ramp of 0 (a copy kernel's time was its
 * bytes at the copy rate plus its launch at every size); the L2 rate and
 * capacity are that run's too. The cold and graph launch terms (the first,
 * second and third kernel, each later one, each past the 32nd) are the
 * medians of the 88 harnesses' calibrations in call X of session 14
 * (2026-12-04, bench/results/h200-2026-12-04/call-2-launch-terms). The
 * others: datasheet bandwidths and rates, with the H200's launch terms
 * assumed; calibrate for real ones. Fields in FUSEC_PROFILE_FIELDS order
 * (runtime/fusec_model.h). */
/* hot_call_us (the GPU's cost of a hot call besides its kernels, the event
 * between calls): FUSEC_HOT_CALL_US (runtime/fusec_model.h says where it
 * comes from). */
#define H200_LAUNCH 0.0, 524288.0, 3.584, 2.208, 2.170, 1.764, 1.925, 1.845, 4.494, FUSEC_HOT_CALL_US, 3.312, 1.016, 1.260, 0.937, 1.024
/* l2_hot_keep and l2_hot_end: the medians of five harnesses' calibrations in
 * call 8 of 2026-12-03 (bench/results/h200-2026-12-03/call-8-*, docs/model.md). */
#define H200_HOT 0.67, 0.79
/* fma_latency_ns and dfma_latency_ns: the medians of the 77 harnesses'
 * calibrations in session 11's call K of 2026-12-03 (2.17-2.31 and 4.12-4.28
 * ns; bench/results/h200-2026-12-03/call-21-*, docs/model.md); assumed for the others. */
/* code_us_per_kb: bench/launchcost.cu in call 2 of session 12 (2026-12-03):
 * chains of 8 kernels each its own function against one function 8 times,
 * with 12.1 KiB more code each, at 4096 elements (0.050 in a graph, 0.054 at
 * 65536: docs/model.md). */
#define H200_LAT 2.24, 4.21, 0.043
/* gather_gelems and write_tail_bytes: runtime/fusec_model.h says where they
 * were measured; assumed for the others (the write tail in the same share of
 * their L2). */
#define H200_GATHER FUSEC_GATHER_GELEMS_H200
/* h100: the medians of the 137 harnesses' calibrations in session 24's calls
 * 2-3 on an H100 80GB HBM3 (driver 580; bench/results/2026-12-05-s24,
 * docs/model.md): copy and L2 rates, launch, host, graph and hot-L2 terms,
 * FMA rates and latencies, code fetch; a ramp of 0 (the calibration clamps a
 * negative one). The host's terms move with the machine: session 23's 137
 * harnesses on an H100 gave 1.41 + 3.91 us where these are 0.83 + 2.92.
 * hot_call_us FUSEC_HOT_CALL_US, as the h200's; the write tail scaled from the
 * H200's by the L2's size. */
#define H100_LAUNCH 0.0, 524288.0, 3.808, 2.464, 2.411, 2.095, 2.224, 0.832, 2.924, FUSEC_HOT_CALL_US, 3.264, 1.248, 1.328, 1.016, 1.069
const FusecProfile device_builtin[] = {
    {"h200", "NVIDIA H200 SXM: calibrated by the fusec harness (run 5 of 2026-12-01; cold and graph launches: call X of 2026-12-04; docs/model.md)",
     4218.8, 8219.8, 62914560.0, H200_LAUNCH, 60506.0, 32760.0, 12.5, 65.0, H200_HOT, H200_LAT, H200_GATHER, FUSEC_WRITE_TAIL_BYTES_H200},
    {"h100", "NVIDIA H100 80GB HBM3: calibrated by the fusec harness (medians of session 24's 137 harnesses, 2026-12-05; docs/model.md)",
     3020.0, 7033.0, 52428800.0, H100_LAUNCH, 60770.0, 32880.0, 12.5, 65.0, 0.91, 0.85, 2.238, 4.197, 0.0316, H200_GATHER, FUSEC_WRITE_TAIL_BYTES_H200 * 52428800.0 / 62914560.0},
    {"a100", "NVIDIA A100 SXM 80GB: datasheet (2039 GB/s HBM2e, 40 MiB L2); launch costs assumed",
     2039.0, 5000.0, 41943040.0, H200_LAUNCH, 19500.0, 9700.0, 12.5, 65.0, H200_HOT, H200_LAT, H200_GATHER, FUSEC_WRITE_TAIL_BYTES_H200 * 41943040.0 / 62914560.0},
    {"rtx4090", "NVIDIA GeForce RTX 4090: datasheet (1008 GB/s GDDR6X, 72 MiB L2); launch costs assumed",
     1008.0, 5000.0, 75497472.0, H200_LAUNCH, 82600.0, 1290.0, 12.5, 65.0, H200_HOT, H200_LAT, H200_GATHER, FUSEC_WRITE_TAIL_BYTES_H200 * 75497472.0 / 62914560.0},
};
#undef H200_LAUNCH
#undef H100_LAUNCH
#undef H200_HOT
#undef H200_LAT
#undef H200_GATHER
const int device_nbuiltin = (int)ARRAY_LEN(device_builtin);

static int get_number(json_t *o, const char *key, double lo, double hi, double *out, char *err, size_t errlen)
{
    json_t *v = json_object_get(o, key);
    if (!v || !json_is_number(v)) {
        snprintf(err, errlen, "missing or non-numeric key \"%s\"", key);
        return -1;
    }
    *out = json_number_value(v);
    if (!(*out >= lo && *out <= hi)) {
        snprintf(err, errlen, "key \"%s\" is %g, outside its range [%g, %g]", key, *out, lo, hi);
        return -1;
    }
    return 0;
}

/* A FUSEC_OLDER field that a file lacks (or any file of fusec 0.1's model)
 * takes the field that stood for it when the file was written: its model
 * stays the one it was made for. */
static void fill_older(FusecProfile *p)
{
    if (p->launch_third_us == FUSEC_OLDER)
        p->launch_third_us = p->launch_next_us;
    if (p->launch_far_us == FUSEC_OLDER)
        p->launch_far_us = p->launch_next_us;
    if (p->graph_far_us == FUSEC_OLDER)
        p->graph_far_us = p->graph_node_us;
    if (p->graph_second_us == FUSEC_OLDER)
        p->graph_second_us = p->graph_node_us;
    if (p->graph_third_us == FUSEC_OLDER)
        p->graph_third_us = p->graph_node_us;
}

/* Every field of FUSEC_PROFILE_FIELDS, each within its range; one a file
 * lacks takes its default (a profile written before the field existed). */
static int read_fields(json_t *root, FusecProfile *p, char *why, size_t len)
{
#define READ_FIELD(f, fmt, lo, hi, def, doc)                                                                 \
    if (def != FUSEC_REQUIRED && !json_object_get(root, #f))                                                 \
        p->f = def;                                                                                          \
    else if (get_number(root, #f, lo, hi, &p->f, why, len) < 0)                                              \
        return -1;
    FUSEC_PROFILE_FIELDS(READ_FIELD)
#undef READ_FIELD
    fill_older(p);
    return 0;
}

/* A profile of fusec 0.1's model (one launch_us, graph_node_us, sfu_gops;
 * no launch terms, no ramp) still loads: its launch_us becomes every cold
 * and hot launch term and the graph's first node, as that model charged it,
 * with no ramp. Returns 1, or -1 with the reason in why. */
static int read_legacy(json_t *root, FusecProfile *p, char *why, size_t len)
{
    double launch, node;
    if (get_number(root, "hbm_gbps", 1.0, 1e6, &p->hbm_gbps, why, len) < 0 ||
        get_number(root, "l2_gbps", 1.0, 1e7, &p->l2_gbps, why, len) < 0 ||
        get_number(root, "l2_bytes", 1024.0, 1e12, &p->l2_bytes, why, len) < 0 ||
        get_number(root, "launch_us", 0.01, 1e4, &launch, why, len) < 0 ||
        get_number(root, "graph_node_us", 0.0, 1e4, &node, why, len) < 0 ||
        get_number(root, "fp32_gflops", 1.0, 1e9, &p->fp32_gflops, why, len) < 0 ||
        get_number(root, "fp64_gflops", 1.0, 1e9, &p->fp64_gflops, why, len) < 0 ||
        get_number(root, "eager_op_us", 0.0, 1e5, &p->eager_op_us, why, len) < 0 ||
        get_number(root, "compiled_call_us", 0.0, 1e6, &p->compiled_call_us, why, len) < 0)
        return -1;
    p->launch_first_us = p->launch_second_us = p->launch_next_us = p->host_launch_us = p->graph_launch_us = launch;
    p->host_call_us = 0;
    p->graph_node_us = node;
    p->ramp_us = 0;
    p->ramp_bytes = 1;
#define DEFAULT_FIELD(f, fmt, lo, hi, def, doc)                                                              \
    if (def != FUSEC_REQUIRED)                                                                               \
        p->f = def;
    FUSEC_PROFILE_FIELDS(DEFAULT_FIELD)
#undef DEFAULT_FIELD
    fill_older(p);
    return 1;
}

/* Copies s into dst[size], cut at a character boundary: the JSON report
 * stays valid UTF-8. */
static void copy_utf8(char *dst, size_t size, const char *s)
{
    size_t n = strlen(s);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) /* s[n] continues a character */
            n--;
    }
    memcpy(dst, s, n);
    dst[n] = 0;
}

/* A profile's name and note print on one line of the report and in its CSV
 * and JSON: the character that keeps s from being one (a control character,
 * 0 when none). */
static int control_char(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7F)
            return (unsigned char)*s;
    return 0;
}

/* The optional "op_slots" object: ops[op][0..2] = f32, fast, f64 (0 where
 * the built-in row stands). Returns 0, or -1 with the reason in why. */
static int read_ops(json_t *root, OpSlots *ops, char *why, size_t len)
{
    static const char *const types[3] = {"f32", "fast", "f64"};
    json_t *obj = json_object_get(root, "op_slots"), *row, *v;
    const char *name, *type;
    if (!obj)
        return 0;
    if (!json_is_object(obj)) {
        snprintf(why, len, "key \"op_slots\" is not an object");
        return -1;
    }
    json_object_foreach(obj, name, row)
    {
        int op = op_cost_row(name);
        if (op < 0 || !json_is_object(row)) {
            snprintf(why, len, "op_slots: \"%s\" is %s", name,
                     op < 0 ? "not an op of the cost table (src/opcost.def)" : "not an object of f32, fast, f64");
            return -1;
        }
        json_object_foreach(row, type, v)
        {
            int t = 0;
            while (t < 3 && strcmp(type, types[t]) != 0)
                t++;
            double x = json_is_number(v) ? json_number_value(v) : -1;
            if (t == 3 || !(x >= 0.01 && x <= 1e5)) {
                snprintf(why, len, "op_slots: \"%s\": \"%s\" must be f32, fast or f64 with a number of issue "
                         "slots in [0.01, 1e5]", name, type);
                return -1;
            }
            ops->slots[op][t] = x;
        }
    }
    return 0;
}

static int load_file(const char *path, FusecProfile *p, OpSlots *ops, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    unsigned char bom[3];
    bool has_bom = fread(bom, 1, 3, f) == 3 && memcmp(bom, "\xEF\xBB\xBF", 3) == 0;
    rewind(f);
    json_error_t je;
    json_t *root = has_bom ? NULL : json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (has_bom) { /* jansson would quote it, where it cannot be seen */
        snprintf(err, errlen, "%s:1:1: a UTF-8 byte-order mark (U+FEFF) before the JSON: save the file without it",
                 path);
        return -1;
    }
    if (!root && strstr(je.text, "JSON_ALLOW_NUL")) { /* jansson names its own flag */
        snprintf(err, errlen, "%s:%d:%d: a NUL character (\\u0000) is not allowed in a string", path, je.line,
                 je.column > 0 ? je.column : 1);
        return -1;
    }
    if (!root) {
        /* jansson quotes the text near the error as it is: a control
         * character there shows as '?'; an empty file is at column 0 */
        for (char *c = je.text; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7F)
                *c = '?';
        snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column > 0 ? je.column : 1, je.text);
        return -1;
    }
    int rc = -1;
    memset(p, 0, sizeof *p);
    json_t *name = json_object_get(root, "name");
    json_t *note = json_object_get(root, "note");
    if (!json_is_object(root))
        snprintf(err, errlen, "%s: a device profile is a JSON object", path);
    else if (!json_is_string(name))
        snprintf(err, errlen, "%s: missing string key \"name\"", path);
    else if (!*json_string_value(name))
        snprintf(err, errlen, "%s: key \"name\" is empty", path);
    else if (control_char(json_string_value(name)) || (json_is_string(note) && control_char(json_string_value(note))))
        snprintf(err, errlen, "%s: key \"%s\" holds a control character (U+%04X): it is one line of text", path,
                 control_char(json_string_value(name)) ? "name" : "note",
                 control_char(json_string_value(name)) ? control_char(json_string_value(name))
                                                        : control_char(json_string_value(note)));
    else {
        copy_utf8(p->name, sizeof p->name, json_string_value(name));
        copy_utf8(p->note, sizeof p->note, json_is_string(note) ? json_string_value(note) : path);
        char why[200];
        if (!json_object_get(root, "launch_first_us") && json_object_get(root, "launch_us"))
            rc = read_legacy(root, p, why, sizeof why) < 0 ? -1 : 0;
        else
            rc = read_fields(root, p, why, sizeof why);
        if (rc == 0 && ops)
            rc = read_ops(root, ops, why, sizeof why);
        if (rc < 0)
            snprintf(err, errlen, "%s: %s", path, why);
    }
    json_decref(root);
    return rc;
}

int device_load(const char *spec, FusecProfile *out, char *err, size_t errlen)
{
    return device_load_ops(spec, out, NULL, err, errlen);
}

int device_load_ops(const char *spec, FusecProfile *out, OpSlots *ops, char *err, size_t errlen)
{
    if (ops)
        memset(ops, 0, sizeof *ops);
    for (int i = 0; i < device_nbuiltin; i++)
        if (strcmp(spec, device_builtin[i].name) == 0) {
            *out = device_builtin[i];
            return 0;
        }
    size_t n = strlen(spec);
    struct stat st;
    if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot read '%s': it is a directory (a profile is a FILE.json)", spec);
        return -1;
    }
    if ((n > 5 && strcmp(spec + n - 5, ".json") == 0) || strchr(spec, '/'))
        return load_file(spec, out, ops, err, errlen);
    const char *names[8];
    for (int i = 0; i < device_nbuiltin; i++)
        names[i] = device_builtin[i].name;
    const char *hint = diag_suggest(spec, n, names, device_nbuiltin);
    snprintf(err, errlen, "unknown device '%s'%s%s%s (built in: h200, h100, a100, rtx4090; or a FILE.json)",
             spec, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return -1;
}

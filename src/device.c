/*
 * device.c: device profiles. The built-in ones, and profile files in the
 * JSON that an emitted harness writes with --calibrate (read with jansson).
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "fusec.h"

/* h200: measured (bench/results/h200-reference.md, 2026-11-30, H200 SXM,
 * driver 580, CUDA 13.0); l2_gbps fitted to its cold 2^22 unfused timing;
 * arithmetic rates from the datasheet. The others: datasheet figures only,
 * with this machine's launch costs assumed; calibrate for real ones. */
const FusecProfile device_builtin[] = {
    {"h200", "NVIDIA H200 SXM: copy, launch and graph costs measured (h200-reference.md, 2026-11-30); "
             "L2 rate fitted; arithmetic rates from the datasheet",
     4247.0, 9000.0, 62914560.0, 4.3, 2.0, 67000.0, 34000.0, 4181.0, 12.5, 65.0},
    {"h100", "NVIDIA H100 SXM: datasheet (3350 GB/s HBM3, 50 MiB L2); launch costs assumed equal to the H200's",
     3350.0, 7500.0, 52428800.0, 4.3, 2.0, 67000.0, 34000.0, 4181.0, 12.5, 65.0},
    {"a100", "NVIDIA A100 SXM 80GB: datasheet (2039 GB/s HBM2e, 40 MiB L2); launch costs assumed",
     2039.0, 5000.0, 41943040.0, 4.3, 2.0, 19500.0, 9700.0, 2437.0, 12.5, 65.0},
    {"rtx4090", "NVIDIA GeForce RTX 4090: datasheet (1008 GB/s GDDR6X, 72 MiB L2); launch costs assumed",
     1008.0, 5000.0, 75497472.0, 4.3, 2.0, 82600.0, 1290.0, 5161.0, 12.5, 65.0},
};
const int device_nbuiltin = (int)ARRAY_LEN(device_builtin);

static int get_number(json_t *o, const char *key, double *out, char *err, size_t errlen)
{
    json_t *v = json_object_get(o, key);
    if (!v || !json_is_number(v)) {
        snprintf(err, errlen, "missing or non-numeric key \"%s\"", key);
        return -1;
    }
    *out = json_number_value(v);
    if (!(*out > 0) || *out > 1e18) {
        snprintf(err, errlen, "key \"%s\" must be a positive number", key);
        return -1;
    }
    return 0;
}

static int load_file(const char *path, FusecProfile *p, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
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
    else {
        snprintf(p->name, sizeof p->name, "%s", json_string_value(name));
        snprintf(p->note, sizeof p->note, "%s", json_is_string(note) ? json_string_value(note) : path);
        struct { const char *key; double *dst; } keys[] = {
            {"hbm_gbps", &p->hbm_gbps}, {"l2_gbps", &p->l2_gbps}, {"l2_bytes", &p->l2_bytes},
            {"launch_us", &p->launch_us}, {"graph_node_us", &p->graph_node_us},
            {"fp32_gflops", &p->fp32_gflops}, {"fp64_gflops", &p->fp64_gflops}, {"sfu_gops", &p->sfu_gops},
            {"eager_op_us", &p->eager_op_us}, {"compiled_call_us", &p->compiled_call_us},
        };
        char why[200];
        rc = 0;
        for (size_t i = 0; i < ARRAY_LEN(keys) && rc == 0; i++)
            if (get_number(root, keys[i].key, keys[i].dst, why, sizeof why) < 0) {
                snprintf(err, errlen, "%s: %s", path, why);
                rc = -1;
            }
    }
    json_decref(root);
    return rc;
}

int device_load(const char *spec, FusecProfile *out, char *err, size_t errlen)
{
    for (int i = 0; i < device_nbuiltin; i++)
        if (strcmp(spec, device_builtin[i].name) == 0) {
            *out = device_builtin[i];
            return 0;
        }
    size_t n = strlen(spec);
    if (n > 5 && strcmp(spec + n - 5, ".json") == 0)
        return load_file(spec, out, err, errlen);
    const char *names[8];
    for (int i = 0; i < device_nbuiltin; i++)
        names[i] = device_builtin[i].name;
    const char *hint = diag_suggest(spec, n, names, device_nbuiltin);
    snprintf(err, errlen, "unknown device '%s'%s%s%s (built in: h200, h100, a100, rtx4090; or a FILE.json)",
             spec, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return -1;
}

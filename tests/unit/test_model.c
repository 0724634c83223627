/* Unit tests of the time model (runtime/fusec_model.h), size lists and
 * device profiles. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fusec.h"

static const FusecProfile *h200(void) { return &device_builtin[0]; }

/* The seed chain in f32: 4 kernels of 4 B in + 4 B out. */
static const FusecKernelCost seed_u[] = {
    {4, 0, 4, 0, 1, 0, 0}, {0, 4, 4, 0, 1, 0, 0}, {0, 4, 4, 0, 1, 0, 0}, {0, 4, 0, 4, 1, 0, 0}};
static const FusecKernelCost seed_f[] = {{4, 0, 0, 4, 4, 0, 0}};
static const FusecVersion U = {4, seed_u, 20}, F = {1, seed_f, 8};

static void memory_bound_at_large_n(void **state)
{
    (void)state;
    double n = 268435456.0;
    FusecTime f = fusec_model_time(h200(), &F, n, FUSEC_HOST_C, 1, 0);
    FusecTime u = fusec_model_time(h200(), &U, n, FUSEC_HOST_C, 0, 0);
    assert_int_equal(f.regime, FUSEC_MEMORY);
    assert_int_equal(u.regime, FUSEC_MEMORY);
    /* 8 B per element at the copy bandwidth, plus one launch */
    assert_true(fabs(f.us - (n * 8 / (h200()->hbm_gbps * 1e3) + h200()->launch_us)) < 1e-6);
    assert_true(fabs(u.us / f.us - 4.0) < 0.01);
}

static void overhead_bound_at_small_n(void **state)
{
    (void)state;
    FusecTime f = fusec_model_time(h200(), &F, 4096, FUSEC_HOST_C, 1, 0);
    FusecTime u = fusec_model_time(h200(), &U, 4096, FUSEC_HOST_C, 0, 0);
    assert_int_equal(f.regime, FUSEC_OVERHEAD);
    assert_true(fabs(u.us / f.us - 4.0) < 0.1); /* the ratio of kernel counts */
    /* PyTorch: host dispatch floors both; the speedup collapses */
    FusecTime pu = fusec_model_time(h200(), &U, 4096, FUSEC_HOST_PYTORCH, 0, 0);
    FusecTime pf = fusec_model_time(h200(), &F, 4096, FUSEC_HOST_PYTORCH, 1, 0);
    assert_true(fabs(pu.us - 4 * h200()->eager_op_us) < 1e-9);
    assert_true(fabs(pf.us - h200()->compiled_call_us) < 1e-9);
    assert_true(pu.us / pf.us < 1.0);
    /* graph nodes cost less than launches */
    FusecTime gu = fusec_model_time(h200(), &U, 4096, FUSEC_HOST_GRAPH, 0, 0);
    assert_true(gu.us < u.us);
}

static void intermediates_in_l2(void **state)
{
    (void)state;
    /* 2^20 elements: intermediates of 4 MiB stay in L2, so unfused pays them at
     * the L2 rate; at 2^24 (64 MiB each) they go to HBM. */
    FusecTime small = fusec_model_time(h200(), &U, 1 << 20, FUSEC_HOST_C, 0, 0);
    double hbm_only = 4 * h200()->launch_us + (1 << 20) * 32.0 / (h200()->hbm_gbps * 1e3);
    assert_true(small.us < hbm_only);
    FusecTime big = fusec_model_time(h200(), &U, 1 << 24, FUSEC_HOST_C, 0, 0);
    double big_hbm = 4 * h200()->launch_us + (1 << 24) * 32.0 / (h200()->hbm_gbps * 1e3);
    assert_true(fabs(big.us - big_hbm) < 1e-6);
    /* hot: the whole 20 B/element footprint fits at 2^20 */
    FusecTime hot = fusec_model_time(h200(), &U, 1 << 20, FUSEC_HOST_C, 0, 1);
    assert_true(hot.us < small.us);
}

static void compute_bound_when_arithmetic_dominates(void **state)
{
    (void)state;
    FusecKernelCost heavy = {8, 0, 0, 8, 400, 40, 1}; /* f64, many flops */
    FusecVersion v = {1, &heavy, 16};
    FusecTime t = fusec_model_time(h200(), &v, 1 << 28, FUSEC_HOST_C, 1, 0);
    assert_int_equal(t.regime, FUSEC_COMPUTE);
    assert_true(t.compute_us > t.mem_us);
}

static void size_lists(void **state)
{
    (void)state;
    SizeList s;
    char err[256];
    assert_int_equal(sizes_parse("4096,1M,2^20..2^22", &s, err, sizeof err), 0);
    assert_int_equal(s.n, 5);
    assert_true(s.v[0] == 4096 && s.v[1] == 1048576 && s.v[2] == 1048576 && s.v[4] == 4194304);
    assert_int_equal(sizes_parse("1K", &s, err, sizeof err), 0);
    assert_true(s.v[0] == 1024);
    assert_int_equal(sizes_parse("", &s, err, sizeof err), -1);
    assert_int_equal(sizes_parse("2^", &s, err, sizeof err), -1);
    assert_int_equal(sizes_parse("8..4", &s, err, sizeof err), -1);
    assert_int_equal(sizes_parse("1,,2", &s, err, sizeof err), -1);
    /* runtime/fusec_sizes.h: A..B doubles from A; 2^k only; 1 to 2^40 */
    assert_int_equal(sizes_parse("3000..20000", &s, err, sizeof err), 0);
    assert_int_equal(s.n, 3);
    assert_true(s.v[0] == 3000 && s.v[1] == 6000 && s.v[2] == 12000);
    assert_int_equal(sizes_parse("2^40,1099511627776", &s, err, sizeof err), 0);
    assert_int_equal(sizes_parse("2^41", &s, err, sizeof err), -1);
    assert_int_equal(sizes_parse("1099511627777", &s, err, sizeof err), -1);
    assert_int_equal(sizes_parse("3^5", &s, err, sizeof err), -1);
    assert_int_equal(sizes_parse("2^3K", &s, err, sizeof err), -1);
    assert_int_equal(sizes_parse("99999999999999999999999", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "near '99999"));
    assert_int_equal(sizes_parse("1..2^40,1..2^40,1", &s, err, sizeof err), 0);
    assert_int_equal(s.n, 83);
    sizes_default(&s);
    assert_int_equal(s.n, 17);
}

static void profiles(void **state)
{
    (void)state;
    FusecProfile p;
    char err[256];
    assert_int_equal(device_load("a100", &p, err, sizeof err), 0);
    assert_string_equal(p.name, "a100");
    assert_int_equal(device_load("h2000", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "did you mean 'h200'"));
    /* what the harness writes, fusec reads */
    char path[] = "/tmp/fusec_profile_XXXXXX.json";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    FusecProfile w = device_builtin[0];
    snprintf(w.name, sizeof w.name, "calibrated");
    w.hbm_gbps = 4200.5;
    fusec_profile_write_json(f, &w);
    fclose(f);
    assert_int_equal(device_load(path, &p, err, sizeof err), 0);
    assert_string_equal(p.name, "calibrated");
    assert_true(p.hbm_gbps == 4200.5 && p.launch_us == w.launch_us && p.l2_bytes == w.l2_bytes);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memory_bound_at_large_n),  cmocka_unit_test(overhead_bound_at_small_n),
        cmocka_unit_test(intermediates_in_l2),      cmocka_unit_test(compute_bound_when_arithmetic_dominates),
        cmocka_unit_test(size_lists),               cmocka_unit_test(profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The harness's launch terms (runtime/harness/calibrate.cuh: fh_chain_terms,
 * fh_far_term) from timings of chains of 1..FH_CAL_K, FUSEC_CHAIN_FAR and
 * FH_CAL_FAR tiny kernels, and the model's sum of them
 * (runtime/fusec_model.h: fusec_chain_launches), compiled for the host by
 * nvcc: from a chain whose kernels cost what the model says (a first, a
 * second, a third, then each the same up to the FUSEC_CHAIN_FAR-th, each
 * past it more), the terms come back, and the model's sum is the timed one
 * at every k (issue 12: "so that the model's sum is the measured sum"); with
 * noise on the timings, within it; what is below 0 (noise on a flat chain)
 * becomes 0; the hot host line passes through the chain of one kernel.
 * Needs no GPU.
 */
#include <math.h>
#include <stdio.h>

#include "fusec_dtype.h"
#include "fusec_model.h"
#include "fusec_kernel.cuh"
#include "fusec_ops.cuh"
#include "fusec_ref.h"
#include "fusec_sizes.h"
#include "fusec_chain.h"
#include "fusec_harness.cuh"

static int failures;

static void near(const char *what, double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol) && failures++ < 20)
        printf("FAIL %s: got %.6f want %.6f (within %g)\n", what, got, want, tol);
}

/* The terms of one chain: timings at k = 1..FH_CAL_K (plus noise, alternating
 * in sign) and at FUSEC_CHAIN_FAR and FH_CAL_FAR kernels. */
static void check(const char *name, double first, double second, double third, double next, double far, double noise)
{
    double ks[FH_CAL_K], t[FH_CAL_K], tf[2], got[5];
    for (int k = 1; k <= FH_CAL_K; k++) {
        ks[k - 1] = k;
        t[k - 1] = fusec_chain_launches(first, second, third, next, far, k) + (k > 2 ? (k % 2 ? noise : -noise) : 0);
    }
    tf[0] = fusec_chain_launches(first, second, third, next, far, FUSEC_CHAIN_FAR);
    tf[1] = fusec_chain_launches(first, second, third, next, far, FH_CAL_FAR);
    fh_chain_terms(ks, t, &got[0], &got[1], &got[2], &got[3]);
    got[4] = fh_far_term(tf);
    char what[96];
    const double want[5] = {first, second, third, next, far};
    const char *term[5] = {"first", "second", "third", "next", "far"};
    for (int i = 0; i < 5; i++) {
        snprintf(what, sizeof what, "%s: %s", name, term[i]);
        near(what, got[i], want[i] > 0 ? want[i] : 0, 1e-9 + 2 * noise);
    }
    /* the model's sum of the terms is the timed sum, at every k timed */
    for (int k = 1; k <= FH_CAL_K; k++) {
        snprintf(what, sizeof what, "%s: the model's sum at k = %d", name, k);
        near(what, fusec_chain_launches(got[0], got[1], got[2], got[3], got[4], k), t[k - 1],
             want[1] < 0 || want[3] < 0 ? INFINITY : 1e-9 + 2 * noise);
    }
    snprintf(what, sizeof what, "%s: the model's sum at k = %d", name, FH_CAL_FAR);
    near(what, fusec_chain_launches(got[0], got[1], got[2], got[3], got[4], FH_CAL_FAR), tf[1],
         want[1] < 0 || want[3] < 0 || want[4] < 0 ? INFINITY : 1e-9 + 2 * FH_CAL_FAR * noise);
}

/* The hot host line (fh_line_through): through the chain of one kernel
 * exactly, whatever the noise on the others, with the slope that fits them;
 * a free line (fh_line) would move the one-kernel call by the noise. */
static void check_hot(const char *name, double call, double launch, double noise)
{
    double ks[FH_CAL_K], t[FH_CAL_K], a, b;
    for (int k = 1; k <= FH_CAL_K; k++) {
        ks[k - 1] = k;
        t[k - 1] = call + k * launch + (k > 1 ? (k % 2 ? noise : -noise) : 0);
    }
    fh_line_through(ks, t, FH_CAL_K, &a, &b);
    char what[96];
    snprintf(what, sizeof what, "%s: a one-kernel call", name);
    near(what, a + b, t[0], 1e-9);
    snprintf(what, sizeof what, "%s: host launch", name);
    near(what, b, launch, 1e-9 + noise);
    snprintf(what, sizeof what, "%s: host call", name);
    near(what, a, call, 1e-9 + noise);
}

int main(void)
{
    /* the seed harness's hot chains, call 1 of session 19 */
    check_hot("hot", 0.731, 3.413, 0);
    check_hot("hot, noisy", 0.731, 3.413, 0.3);
    /* the built-in h200 profile's cold and graph terms (call X of session 14) */
    check("cold", 3.584, 2.208, 2.170, 1.764, 1.925, 0);
    check("graph", 3.312, 1.016, 1.260, 0.937, 1.024, 0);
    check("cold, noisy", 3.584, 2.208, 2.170, 1.764, 1.925, 0.02);
    /* a third that costs what the others do: no step at k = 3 */
    check("even", 3.0, 2.0, 2.0, 2.0, 2.0, 0);
    /* noise that makes a chain cheaper as it grows: the terms stop at 0 */
    check("falling", 3.0, -0.1, 0.5, -0.05, -0.01, 0);
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("calibrate: the launch terms of 5 chains and 2 hot lines come back from their timings, and the model sums them\n");
    return 0;
}

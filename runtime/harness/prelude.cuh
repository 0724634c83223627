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
 *      reference on the host, at every size, before anything is timed, and
 *      a third, the CUB version, where the .cu was compiled with -DFUSEC_CUB;
 *   5. times every version at every size in each mode (cold, hot, graph) and
 *      prints each result beside the model's prediction for it;
 *   6. writes --csv and --json.
 * Exit status: 0 all good; 1 a verification failure, a CUDA error or an
 * output file that could not be written; 2 a usage error.
 *
 * Needs fusec_dtype.h, fusec_model.h, fusec_sizes.h, fusec_kernel.cuh,
 * fusec_chain.h and fusec_ref.h first.
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

/* Every CUDA call goes through FH_CHECK: an error is fatal (exit status 1). */
#define FH_CHECK(call) fh_check((call), #call, __FILE__, __LINE__)

static void fh_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    fflush(stdout);
    fprintf(stderr, "fusec harness: CUDA error %s (%s)\n  in %s\n  at %s:%d\n", cudaGetErrorName(e),
            cudaGetErrorString(e), what, file, line);
    exit(1);
}

static void fh_die(const char *msg)
{
    fflush(stdout);
    fprintf(stderr, "fusec harness: %s\n", msg);
    exit(1);
}

static void *fh_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        fh_die("out of host memory");
    return p;
}

/* Grows a dynamic array so that it holds `need` elements. */
static void *fh_grow(void *p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return p;
    *cap = need < 16 ? 16 : 2 * need;
    p = realloc(p, (size_t)*cap * elem);
    if (!p)
        fh_die("out of host memory");
    return p;
}

/* snprintf that may truncate (and says nothing about it). */
static void fh_format(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}


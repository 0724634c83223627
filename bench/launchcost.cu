/*
 * launchcost.cu: what launches cost in each way the harness times a chain.
 *
 * A "chain" here is k dependent copy kernels of n floats each (the shape of
 * fusec's kernels: 128 threads, one 16-byte vector per thread), timed
 *   cold   after an L2 flush, one call alone between two events, with a GPU
 *          spin queued before the flush so that every launch of the call is
 *          already queued when the start event runs (host dispatch hidden);
 *   cold0  the same without the spin: the harness's cold mode as it is;
 *   hot    calls back to back, events around R calls, divided by R;
 *   graph  the k kernels captured in one CUDA graph, replayed back to back;
 *   graph1 one replay alone, after a flush and a spin.
 * for k = 1..8 at n = 4096 (launch-bound), then k = 1 and 4 across n = 2^12..2^28
 * (the ramp from launch-bound to bandwidth-bound), then long chains, cold, of
 * k = 12..64 at n = 4096 and 65536: whether each later kernel of a chain as
 * long as a random program's unfused one (25-110 kernels) costs what the
 * harness's slope over k = 2..8 says (session 11 found those chains about
 * 0.25 us a kernel slower than predicted; docs/model.md). The j-th kernel of
 * a chain is its own function (copy_kernel<j>), as each unfused kernel of a
 * chain is. coldfresh: the same long chains with each kernel writing a buffer
 * of its own (k + 1 buffers), as an unfused chain writes each intermediate to
 * its own scratch, where the others (and the harness's calibration) ping-pong
 * between two buffers that L2 holds after the first kernel. Prints CSV:
 * mode,k,n,us.
 *
 *   nvcc -O3 -arch=sm_90 -I bench bench/launchcost.cu -o launchcost && ./launchcost > launch.csv
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "bench_check.h"

template <int K> __global__ void __launch_bounds__(128) copy_kernel(const float4 *__restrict__ a, float4 *__restrict__ b, unsigned n4)
{
    unsigned i = blockIdx.x * 128 + threadIdx.x;
    if (i < n4) {
        float4 v = a[i];
        if (n4 == 0x7fffff00u + K) /* never: makes each kernel's code its own */
            v.x += 1.0f;
        b[i] = v;
    }
}

/* A copy that runs F dependent FMAs on each lane of its vector first: F * 4
 * FMAs of straight-line code (16 bytes each), so that a kernel's code size
 * can be varied with little change to its time (F = 64: 4 KB, about 0.15 us
 * of one thread's chain). */
template <int K, int F> __global__ void __launch_bounds__(128) code_kernel(const float4 *__restrict__ a, float4 *__restrict__ b, unsigned n4)
{
    unsigned i = blockIdx.x * 128 + threadIdx.x;
    if (i < n4) {
        float4 v = a[i];
#pragma unroll
        for (int f = 0; f < F; f++) {
            v.x = fmaf(v.x, 0.999f, 1e-4f * (f + K));
            v.y = fmaf(v.y, 0.998f, 2e-4f * (f + K));
            v.z = fmaf(v.z, 0.997f, 3e-4f * (f + K));
            v.w = fmaf(v.w, 0.996f, 4e-4f * (f + K));
        }
        b[i] = v;
    }
}

#define MAXK 64
typedef void (*CopyFn)(const float4 *, float4 *, unsigned);
template <int... J> static void fill(CopyFn *t, std::integer_sequence<int, J...>)
{
    ((t[J] = copy_kernel<J>), ...);
}
template <int F, int... J> static void fill_code(CopyFn *t, std::integer_sequence<int, J...>)
{
    ((t[J] = code_kernel<J, F>), ...);
}
static CopyFn copies[MAXK];
static CopyFn code_fns[3][8]; /* F = 0, 64, 192 */
static const int code_f[3] = {0, 64, 192};
static CopyFn *table = copies; /* the chain's kernels */
static bool same_fn;           /* every kernel of the chain the same function (its code fetched once) */

__global__ void spin_kernel(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

__global__ void flush_kernel(uint4 *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = make_uint4((unsigned)i, 1, 2, 3);
}

static float4 *bufs[2];
static float4 *fresh[MAXK + 1]; /* coldfresh: kernel j reads fresh[j], writes fresh[j + 1] */
static bool use_fresh;
static uint4 *flushbuf;
static size_t flush_n;
static cudaStream_t s;

static void chain(int k, size_t n)
{
    unsigned n4 = (unsigned)(n / 4), blocks = (n4 + 127) / 128;
    for (int j = 0; j < k; j++)
        if (use_fresh)
            table[j]<<<blocks, 128, 0, s>>>(fresh[j], fresh[j + 1], n4);
        else
            table[same_fn ? 0 : j]<<<blocks, 128, 0, s>>>(bufs[j & 1], bufs[~j & 1], n4);
}

static void flush(bool spin)
{
    if (spin)
        spin_kernel<<<1, 1, 0, s>>>(2000000); /* about 1 ms */
    flush_kernel<<<132 * 8, 256, 0, s>>>(flushbuf, flush_n);
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static double time_cold(int k, size_t n, bool spin)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<double> t;
    for (int r = 0; r < 25; r++) {
        float ms;
        flush(spin);
        CHECK(cudaEventRecord(e0, s));
        chain(k, n);
        CHECK(cudaEventRecord(e1, s));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 5)
            t.push_back(ms * 1e3);
    }
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    return median(t);
}

static double time_hot(int k, size_t n)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<double> t;
    const int R = 200;
    for (int r = 0; r < 7; r++) {
        float ms;
        CHECK(cudaEventRecord(e0, s));
        for (int c = 0; c < R; c++)
            chain(k, n);
        CHECK(cudaEventRecord(e1, s));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms * 1e3 / R);
    }
    return median(t);
}

static double time_graph(int k, size_t n, bool single)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    chain(k, n);
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<double> t;
    const int R = single ? 1 : 200;
    for (int r = 0; r < (single ? 25 : 7); r++) {
        float ms;
        if (single)
            flush(true);
        CHECK(cudaEventRecord(e0, s));
        for (int c = 0; c < R; c++)
            CHECK(cudaGraphLaunch(ge, s));
        CHECK(cudaEventRecord(e1, s));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (!single || r >= 5)
            t.push_back(ms * 1e3 / R);
    }
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    return median(t);
}

int main()
{
    size_t maxn = (size_t)1 << 28;
    fill(copies, std::make_integer_sequence<int, MAXK>{});
    fill_code<0>(code_fns[0], std::make_integer_sequence<int, 8>{});
    fill_code<64>(code_fns[1], std::make_integer_sequence<int, 8>{});
    fill_code<192>(code_fns[2], std::make_integer_sequence<int, 8>{});
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc(&bufs[0], maxn * 4));
    CHECK(cudaMalloc(&bufs[1], maxn * 4));
    CHECK(cudaMemset(bufs[0], 1, maxn * 4));
    CHECK(cudaMemset(bufs[1], 2, maxn * 4));
    flush_n = ((size_t)256 << 20) / sizeof(uint4);
    CHECK(cudaMalloc(&flushbuf, flush_n * sizeof(uint4)));
    for (int w = 0; w < 50; w++) /* clocks up */
        flush(false);
    CHECK(cudaStreamSynchronize(s));
    printf("mode,k,n,us\n");
    for (int k = 1; k <= 8; k++) {
        size_t n = 4096;
        printf("cold,%d,%zu,%.3f\n", k, n, time_cold(k, n, true));
        printf("cold0,%d,%zu,%.3f\n", k, n, time_cold(k, n, false));
        printf("hot,%d,%zu,%.3f\n", k, n, time_hot(k, n));
        printf("graph,%d,%zu,%.3f\n", k, n, time_graph(k, n, false));
        printf("graph1,%d,%zu,%.3f\n", k, n, time_graph(k, n, true));
    }
    for (int lg = 12; lg <= 28; lg++) {
        size_t n = (size_t)1 << lg;
        for (int k : {1, 4}) {
            printf("cold,%d,%zu,%.3f\n", k, n, time_cold(k, n, true));
            printf("hot,%d,%zu,%.3f\n", k, n, time_hot(k, n));
            printf("graph,%d,%zu,%.3f\n", k, n, time_graph(k, n, false));
        }
    }
    for (int j = 0; j <= MAXK; j++) {
        CHECK(cudaMalloc(&fresh[j], 65536 * 4));
        CHECK(cudaMemset(fresh[j], 1, 65536 * 4));
    }
    for (size_t n : {(size_t)4096, (size_t)65536})
        for (int k : {2, 4, 8, 12, 16, 24, 32, 48, 64}) {
            printf("coldlong,%d,%zu,%.3f\n", k, n, time_cold(k, n, true));
            printf("graphlong,%d,%zu,%.3f\n", k, n, time_graph(k, n, false));
            use_fresh = true;
            printf("coldfresh,%d,%zu,%.3f\n", k, n, time_cold(k, n, true));
            use_fresh = false;
        }
    /* code size: chains of 1 and 8 kernels of F = 0, 64, 192 (about 0.3,
     * 4 and 12 KB of code), distinct functions ('d') or one function
     * launched k times ('s'), at 4096 and 65536 floats: what a kernel's
     * code costs to fetch when the call's kernels are each its own */
    for (int rep = 0; rep < 3; rep++)
        for (size_t n : {(size_t)4096, (size_t)65536})
            for (int c = 0; c < 3; c++)
                for (int sm = 0; sm < 2; sm++) {
                    table = code_fns[c];
                    same_fn = sm;
                    for (int k : {1, 8}) {
                        printf("code%d%c,%d,%zu,%.3f\n", code_f[c], sm ? 's' : 'd', k, n, time_cold(k, n, true));
                        printf("codegraph%d%c,%d,%zu,%.3f\n", code_f[c], sm ? 's' : 'd', k, n, time_graph(k, n, false));
                    }
                }
    table = copies;
    same_fn = false;
    return 0;
}

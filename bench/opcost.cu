/*
 * opcost.cu: what each builtin costs in instructions, measured on the GPU.
 *
 * For every element function of runtime/fusec_ops.cuh, in each compute type
 * it runs in (float with the accurate functions, float with the fast forms
 * used for half results, double), a throughput kernel applies it to 8
 * independent values per thread, over and over, with every SM full. The
 * time per application minus that of the identity function (the loop's own
 * add and accumulate) is the op's cost; it is printed in G applications/s for
 * the whole GPU and in fp32-FMA equivalents (the op's cost over one FMA's).
 * A latency kernel then runs the op as one dependent chain per thread, one
 * warp per SM (x = op(x), kept in range by an FMA), as a small-n kernel's
 * serial work runs: the time per application minus the identity's is the
 * op's latency, in ns (latency_ns; the identity row keeps its own).
 * Values stay in [-4, 4] (in (0.01, 4] for the logarithms, sqrt and pow),
 * the harness's input range, since some functions take slower paths
 * elsewhere.
 *
 *   nvcc -O3 -arch=sm_90 --extended-lambda -I runtime -I bench bench/opcost.cu -o opcost && ./opcost > opcost.csv
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fusec_kernel.cuh"
#include "fusec_ops.cuh"

#include "bench_check.h"

#define CHAINS 8

/* OPS(name, positive-domain, float form, double form); an empty form means
 * the op has no such variant. */
#define F(expr) [] __device__(float x) -> float { return expr; }
#define D(expr) [] __device__(double x) -> double { return expr; }

template <typename T, typename Op>
__global__ void throughput(T *out, int iters, T lo, T span, Op op)
{
    T a[CHAINS], acc[CHAINS];
    const T step = span / T(iters + 1);
#pragma unroll
    for (int j = 0; j < CHAINS; j++) {
        a[j] = lo + span * T((threadIdx.x * CHAINS + j) % 97) / T(97 * 4);
        acc[j] = 0;
    }
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < CHAINS; j++) {
            acc[j] += op(a[j]);
            a[j] += step;
        }
    }
    T s = 0;
#pragma unroll
    for (int j = 0; j < CHAINS; j++)
        s += acc[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* One dependent chain: each application waits for the one before. The
 * result folds back into [lo, lo + span) with a multiply-add (and an fmod
 * only every 64 steps, so its cost stays small). */
template <typename T, typename Op>
__global__ void latency(T *out, int iters, T lo, T span, Op op)
{
    T x = lo + span * T(threadIdx.x % 97) / T(97 * 2);
    for (int i = 0; i < iters; i++) {
        x = op(x) * T(0.25) + lo + span * T(0.375);
        if ((i & 63) == 63)
            x = lo + fmod(fabs(x - lo), span);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

static int g_sms;
static void *g_out;

/* The best of reps timed runs of launch() (after one untimed), in ms. */
template <typename Launch> static float best_ms(Launch launch, int reps)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    launch();
    CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < reps; r++) {
        float ms;
        CHECK(cudaEventRecord(e0));
        launch();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        best = ms < best ? ms : best;
    }
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    return best;
}

/* Seconds per application, whole GPU, every SM full. */
template <typename T, typename Op> static double time_op(Op op, bool positive, int iters)
{
    int blocks = g_sms * 8, threads = 256;
    T lo = positive ? T(0.01) : T(-4), span = positive ? T(3.99) : T(8);
    float ms = best_ms([&] { throughput<T><<<blocks, threads>>>((T *)g_out, iters, lo, span, op); }, 5);
    return ms * 1e-3 / ((double)blocks * threads * CHAINS * iters);
}

/* Seconds per application of one dependent chain (one warp on every SM). */
template <typename T, typename Op> static double time_latency(Op op, bool positive, int iters)
{
    T lo = positive ? T(0.01) : T(-4), span = positive ? T(3.99) : T(8);
    return best_ms([&] { latency<T><<<g_sms, 32>>>((T *)g_out, iters, lo, span, op); }, 3) * 1e-3 / iters;
}

struct Row {
    const char *name, *type;
    double s, lat;
};
static std::vector<Row> rows;

#define RUN32(name, pos, expr) \
    rows.push_back({name, "f32", time_op<float>(F(expr), pos, 4096), time_latency<float>(F(expr), pos, 4096)})
#define RUN64(name, pos, expr) \
    rows.push_back({name, "f64", time_op<double>(D(expr), pos, 1024), time_latency<double>(D(expr), pos, 1024)})
#define RUNH(name, pos, expr) \
    rows.push_back({name, "f32fast", time_op<float>(F(expr), pos, 4096), time_latency<float>(F(expr), pos, 4096)})

int main()
{
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    CHECK(cudaMalloc(&g_out, (size_t)g_sms * 8 * 256 * sizeof(double)));
    const float c32 = 0.75f;
    const double c64 = 0.75;
    (void)c32;
    (void)c64;
    /* the loop itself: subtracted from every row of its type */
    RUN32("identity", false, x);
    RUN64("identity", false, x);
    /* infix operators */
    RUN32("fma", false, x * 0.75f + 0.25f);
    RUN64("fma", false, x * 0.75 + 0.25);
    RUN32("mul", false, x * 0.75f);
    RUN64("mul", false, x * 0.75);
    RUN32("div", false, 1.25f / (x + 5.0f));
    RUN64("div", false, 1.25 / (x + 5.0));
    RUNH("div", false, fx_fast_div(1.25f, x + 5.0f));
    RUN32("cmp", false, (float)(x > 0.5f));
    RUN64("cmp", false, (double)(x > 0.5));
    /* builtins */
    RUN32("abs", false, fx_abs(x));
    RUN64("abs", false, fx_abs(x));
    RUN32("relu", false, fx_relu(x));
    RUN64("relu", false, fx_relu(x));
    RUN32("sigmoid", false, fx_sigmoid(x));
    RUN64("sigmoid", false, fx_sigmoid(x));
    RUNH("sigmoid", false, fx_fast_sigmoid(x));
    RUN32("tanh", false, fx_tanh(x));
    RUN64("tanh", false, fx_tanh(x));
    RUN32("exp", false, fx_exp(x));
    RUN64("exp", false, fx_exp(x));
    RUNH("exp", false, fx_fast_exp(x));
    RUN32("exp2", false, fx_exp2(x));
    RUN64("exp2", false, fx_exp2(x));
    RUN32("expm1", false, fx_expm1(x));
    RUN64("expm1", false, fx_expm1(x));
    RUN32("log", true, fx_log(x));
    RUN64("log", true, fx_log(x));
    RUN32("log2", true, fx_log2(x));
    RUN64("log2", true, fx_log2(x));
    RUN32("log1p", true, fx_log1p(x));
    RUN64("log1p", true, fx_log1p(x));
    RUN32("sqrt", true, fx_sqrt(x));
    RUN64("sqrt", true, fx_sqrt(x));
    RUN32("rsqrt", true, fx_rsqrt(x));
    RUN64("rsqrt", true, fx_rsqrt(x));
    RUN32("reciprocal", true, fx_reciprocal(x));
    RUN64("reciprocal", true, fx_reciprocal(x));
    RUN32("sin", false, fx_sin(x));
    RUN64("sin", false, fx_sin(x));
    RUN32("cos", false, fx_cos(x));
    RUN64("cos", false, fx_cos(x));
    RUN32("erf", false, fx_erf(x));
    RUN64("erf", false, fx_erf(x));
    RUN32("erfc", false, erfcf(x));
    RUN64("erfc", false, erfc(x));
    RUN32("floor", false, fx_floor(x));
    RUN64("floor", false, fx_floor(x));
    RUN32("round", false, fx_round(x));
    RUN64("round", false, fx_round(x));
    RUN32("sign", false, fx_sign(x));
    RUN64("sign", false, fx_sign(x));
    RUN32("gelu", false, fx_gelu(x));
    RUN64("gelu", false, fx_gelu(x));
    RUN32("gelu_erf_aten", false, x * 0.5f * (1.0f + erff(x * 0.70710678118654752440f)));
    RUN64("gelu_erf_aten", false, x * 0.5 * (1.0 + erf(x * 0.70710678118654752440)));
    RUN32("gelu_tanh", false, fx_gelu_tanh(x));
    RUN64("gelu_tanh", false, fx_gelu_tanh(x));
    RUNH("gelu_tanh", false, fx_fast_gelu_tanh(x));
    RUN32("silu", false, fx_silu(x));
    RUN64("silu", false, fx_silu(x));
    RUNH("silu", false, fx_fast_silu(x));
    RUN32("softplus", false, fx_softplus(x));
    RUN64("softplus", false, fx_softplus(x));
    RUN32("leaky_relu", false, fx_leaky_relu(x, 0.01f));
    RUN64("leaky_relu", false, fx_leaky_relu(x, 0.01));
    RUN32("hardswish", false, fx_hardswish(x));
    RUN64("hardswish", false, fx_hardswish(x));
    RUN32("min", false, fx_min(x, 0.5f));
    RUN64("min", false, fx_min(x, 0.5));
    RUN32("clamp", false, fx_clamp(x, -1.0f, 1.0f));
    RUN64("clamp", false, fx_clamp(x, -1.0, 1.0));
    RUN32("pow", true, fx_pow(x, 1.37f));
    RUN64("pow", true, fx_pow(x, 1.37));
    RUN32("pow_rt", true, (fx_pow_scalar<float, float>)(x, 0.5f));
    /* % and // (fmod: its time grows with the quotient's exponent), by a
     * number and by a tensor of the harness's range */
    RUN32("remainder", false, fx_remainder(x, 0.75f));
    RUN64("remainder", false, fx_remainder(x, 0.75));
    RUN32("remainder_t", false, fx_remainder(2.5f, x));
    RUN64("remainder_t", false, fx_remainder(2.5, x));
    RUN32("floor_divide", false, (fx_floor_divide_by<float, float>)(x, 0.75f));
    RUN64("floor_divide", false, (fx_floor_divide_by<double, double>)(x, 0.75));
    RUN32("floor_divide_t", false, (fx_floor_divide<float, float>)(7.0f, x));
    RUN64("floor_divide_t", false, (fx_floor_divide<double, double>)(7.0, x));
    RUN32("cube", false, x * x * x);
    RUN32("where", false, fx_where(x > 0.0f, x, 0.5f));
    RUN32("to_f16", false, fx_widen(fx_to_f16(x)));
    RUN32("to_bf16", false, fx_widen(fx_to_bf16(x)));
    double id32 = rows[0].s, id64 = rows[1].s, fma32 = 0, fma64 = 0;
    for (auto &r : rows)
        if (!strcmp(r.name, "fma"))
            (!strcmp(r.type, "f64") ? fma64 : fma32) = r.s;
    double lat32 = rows[0].lat, lat64 = rows[1].lat;
    printf("op,type,gops,fma_equiv,latency_ns\n");
    for (auto &r : rows) {
        bool d = !strcmp(r.type, "f64");
        double net = r.s - (d ? id64 : id32), fma = (d ? fma64 : fma32) - (d ? id64 : id32);
        double lat = &r == &rows[0] || &r == &rows[1] ? r.lat : r.lat - (d ? lat64 : lat32);
        printf("%s,%s,%.1f,%.2f,%.2f\n", r.name, r.type, net > 0 ? 1e-9 / net : 0.0, fma > 0 ? net / fma : 0.0,
               lat * 1e9);
    }
    return 0;
}

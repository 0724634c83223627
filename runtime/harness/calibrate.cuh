/* ================================ timing primitives ================================ */

/* Work to time: enqueues one unit on stream s. */
typedef void (*FhWork)(const void *ctx, cudaStream_t s);

/* Median time in us of one unit of work: `warmup` units untimed, then
 * `samples` samples of `per_sample` units back to back between two events. */
static double fh_median_us(FhWork work, const void *ctx, cudaStream_t s, int warmup, int samples,
                           int per_sample)
{
    cudaEvent_t e0, e1;
    double t[32];
    int i, k;
    if (samples > 32)
        samples = 32;
    FH_CHECK(cudaEventCreate(&e0));
    FH_CHECK(cudaEventCreate(&e1));
    for (i = 0; i < warmup; i++)
        work(ctx, s);
    FH_CHECK(cudaStreamSynchronize(s));
    for (k = 0; k < samples; k++) {
        float ms;
        FH_CHECK(cudaEventRecord(e0, s));
        for (i = 0; i < per_sample; i++)
            work(ctx, s);
        FH_CHECK(cudaEventRecord(e1, s));
        FH_CHECK(cudaEventSynchronize(e1));
        FH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t[k] = ms * 1e3 / per_sample;
    }
    FH_CHECK(cudaGetLastError());
    FH_CHECK(cudaEventDestroy(e0));
    FH_CHECK(cudaEventDestroy(e1));
    return fh_median(t, samples);
}

/* ================================ calibration ================================ */

typedef struct FhCopyWork {
    void *dst;
    const void *src;
    size_t bytes;
} FhCopyWork;

static void fh_copy_work(const void *ctx, cudaStream_t s)
{
    const FhCopyWork *w = (const FhCopyWork *)ctx;
    FH_CHECK(cudaMemcpyAsync(w->dst, w->src, w->bytes, cudaMemcpyDeviceToDevice, s));
}

typedef struct FhRateWork {
    int kind; /* 0 fp32 FMA, 1 fp64 FMA; + 2: one warp, one dependent chain (latency) */
    int blocks, iters;
    void *out;
} FhRateWork;

static void fh_rate_work(const void *ctx, cudaStream_t s)
{
    const FhRateWork *w = (const FhRateWork *)ctx;
    if (w->kind == 0)
        fh_fma_kernel<float, FH_CHAINS><<<w->blocks, 256, 0, s>>>((float *)w->out, w->iters, 0.9999f, 1e-4f);
    else if (w->kind == 1)
        fh_fma_kernel<double, FH_CHAINS><<<w->blocks, 256, 0, s>>>((double *)w->out, w->iters, 0.9999, 1e-4);
    else if (w->kind == 2)
        fh_fma_kernel<float, 1><<<1, 32, 0, s>>>((float *)w->out, w->iters, 0.9999f, 1e-4f);
    else
        fh_fma_kernel<double, 1><<<1, 32, 0, s>>>((double *)w->out, w->iters, 0.9999, 1e-4);
}

#define FH_CAL_K 8      /* launch terms: chains of 1..8 kernels */
#define FH_CAL_FAR 64   /* ... and of FUSEC_CHAIN_FAR and FH_CAL_FAR, for the kernels past the first FUSEC_CHAIN_FAR */
#define FH_CAL_ROUNDS 5 /* ... timed in 5 rounds over k, each k's median kept */
#define FH_CAL_RAMP 11  /* the ramp: a copy of 2^16..2^26 floats */
#define FH_CAL_HOT 13   /* hot L2: copies of 0.2..1.4 L2 sizes (read + write) */

/* What the calibration measured, for the printout and the files. */
typedef struct FhCalib {
    size_t copy_bytes, l2_copy_bytes; /* per buffer */
    double cold[FH_CAL_K], hot[FH_CAL_K], graph[FH_CAL_K]; /* chains of 1..FH_CAL_K tiny kernels, us */
    double queued[FH_CAL_K]; /* the same back to back as `hot`, all queued behind a spin: the GPU's time a call */
    double hot_call_measured; /* queued[0] less launch_next_us: printed beside FUSEC_HOT_CALL_US, not kept */
    double cold_far[2], graph_far[2]; /* chains of FUSEC_CHAIN_FAR and FH_CAL_FAR of them, us */
    double ramp_n[FH_CAL_RAMP], ramp_t[FH_CAL_RAMP];        /* one copy kernel cold: floats, us */
    double hot_f[FH_CAL_HOT], hot_s[FH_CAL_HOT];            /* footprint in L2 sizes, share kept hot */
    double code_own[2]; /* what a chain's own kernels add over one kernel k times, without and with 12 KiB more code, us */
    double gather_us, gather_gelems; /* the gather kernel of 2^26 elements, cold, less the first launch, us; its rate */
} FhCalib;

/* Bandwidth of a device-to-device copy of `bytes`, counting bytes read plus
 * bytes written. A large copy measures HBM; a copy that fits in L2,
 * repeated, measures L2. */
static double fh_copy_gbps(size_t bytes, int per_sample, int sms, cudaStream_t s)
{
    FhCopyWork w;
    void *a, *b;
    double us;
    FH_CHECK(cudaMalloc(&a, bytes));
    FH_CHECK(cudaMalloc(&b, bytes));
    fh_fill_kernel<<<fh_grid(bytes / 4, sms), 256, 0, s>>>((unsigned *)a, bytes / 4, 12345u);
    FH_CHECK(cudaGetLastError());
    w.dst = b;
    w.src = a;
    w.bytes = bytes;
    us = fh_median_us(fh_copy_work, &w, s, 3, 9, per_sample);
    FH_CHECK(cudaFree(a));
    FH_CHECK(cudaFree(b));
    return 2.0 * bytes / (us * 1e3);
}

/* Copies a to b and back, `passes` times, with 16-byte accesses; every
 * thread touches the same elements in each pass, so no two threads race.
 * On a buffer that fits in L2 this measures what an elementwise kernel gets
 * from L2 (a cudaMemcpy of such a buffer is launch-bound and reads low). */
static __global__ void fh_l2_copy_kernel(float4 *a, float4 *b, size_t n4, int passes)
{
    for (int p = 0; p < passes; p++) {
        float4 *src = p & 1 ? b : a, *dst = p & 1 ? a : b;
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
            dst[i] = src[i];
    }
}

typedef struct FhL2Work {
    float4 *a, *b;
    size_t n4;
    int passes, blocks;
} FhL2Work;

static void fh_l2_work(const void *ctx, cudaStream_t s)
{
    const FhL2Work *w = (const FhL2Work *)ctx;
    fh_l2_copy_kernel<<<w->blocks, 256, 0, s>>>(w->a, w->b, w->n4, w->passes);
}

/* L2 bandwidth, read + write bytes: 64 passes over two buffers of `bytes`
 * each (together half the L2), in one kernel. */
static double fh_l2_gbps(size_t bytes, int sms, cudaStream_t s)
{
    FhL2Work w;
    double us;
    w.n4 = bytes / sizeof(float4);
    w.passes = 64;
    w.blocks = sms * 8;
    FH_CHECK(cudaMalloc(&w.a, bytes));
    FH_CHECK(cudaMalloc(&w.b, bytes));
    FH_CHECK(cudaMemsetAsync(w.a, 1, bytes, s));
    FH_CHECK(cudaMemsetAsync(w.b, 2, bytes, s));
    us = fh_median_us(fh_l2_work, &w, s, 2, 7, 1);
    FH_CHECK(cudaFree(w.a));
    FH_CHECK(cudaFree(w.b));
    return 2.0 * bytes * w.passes / (us * 1e3);
}

/* The launch terms, timed as the harness times a chain (timing.cuh), on
 * chains of k = 1..FH_CAL_K tiny kernels like a small chain's (each a
 * 4096-element copy over 8 blocks of 128 threads, reading what the one
 * before wrote, each a kernel of its own): cold (L2 flushed, one call between two events), hot (calls
 * back to back, an event between consecutive calls) and graph (the chain
 * captured once, replays back to back, an event between them). Then one
 * copy kernel of fusec's shape, cold, from 2^16 to 2^26 floats: what it
 * takes beyond its launch and its bytes at the copy rate is the ramp. */
typedef struct FhLaunchCal {
    float4 *buf, *big[2];
    uint4 *flush;
    size_t flush_n;
    unsigned *sink;
    int sms, clock_khz;
    int code, same; /* the chain: fh_cal_code_kernels if code, else fh_cal_kernels; each its own function or kernel 0 k times */
    cudaStream_t s;
    cudaEvent_t ev[33];
} FhLaunchCal;

/* The chain's kernels: FH_CAL_K copies that are distinct functions, each
 * with its own code as each unfused kernel of a chain has, so that a cold
 * call fetches every kernel's instructions after the flush as a chain's call
 * does (with one kernel launched k times, only the first fetched its code,
 * and the launch terms came out 0.2-0.5 us a kernel under the chains' own),
 * each shaped like an emitted unfused kernel (fx_load and fx_store of 4
 * floats, a grid-stride loop; one body for the vector and the scalar path,
 * as the emitted ones had it before session 17: what runs at 4096 aligned
 * elements, the vector path, is alike either way). F > 0 runs F
 * FMAs on each element first: F * 4 * 16 bytes more straight-line code, for
 * the code-fetch term (fh_calibrate_launches). */
template <int K, int F> static __global__ void fh_cal_kernel(const float *__restrict__ a, float *__restrict__ b, unsigned n, bool vec)
{
    constexpr int E = 4;
    for (unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) * E; i < n; i += gridDim.x * blockDim.x * E) {
        const bool full = vec && n - i >= (unsigned)E;
        float v[E];
        fx_load<E>(v, a, i, n, full);
        if (n == 0x7fffff00u + K) /* never: makes each kernel's code its own */
            v[0] += 1.0f;
#pragma unroll
        for (int f = 0; f < F; f++)
#pragma unroll
            for (int e = 0; e < E; e++)
                v[e] = fmaf(v[e], 0.999f - 0.001f * e, 1e-4f * (f + K));
        fx_store<E>(b, i, n, full, v);
    }
}
/* The code-fetch chains' FMAs an element: 192 * 4 FMAs, 12 KiB of code */
#define FH_CODE_F 192
#define FH_CODE_KB (FH_CODE_F * 4 * 16 / 1024.0)
typedef void (*FhCalKernel)(const float *, float *, unsigned, bool);
#define FH_CAL_8(F, B)                                                                                              \
    fh_cal_kernel<B, F>, fh_cal_kernel<B + 1, F>, fh_cal_kernel<B + 2, F>, fh_cal_kernel<B + 3, F>,                 \
        fh_cal_kernel<B + 4, F>, fh_cal_kernel<B + 5, F>, fh_cal_kernel<B + 6, F>, fh_cal_kernel<B + 7, F>
static const FhCalKernel fh_cal_kernels[FH_CAL_FAR] = {FH_CAL_8(0, 0),  FH_CAL_8(0, 8),  FH_CAL_8(0, 16),
                                                       FH_CAL_8(0, 24), FH_CAL_8(0, 32), FH_CAL_8(0, 40),
                                                       FH_CAL_8(0, 48), FH_CAL_8(0, 56)};
static const FhCalKernel fh_cal_code_kernels[FH_CAL_K] = {FH_CAL_8(FH_CODE_F, 0)};
#undef FH_CAL_8
static_assert(sizeof fh_cal_kernels / sizeof fh_cal_kernels[0] == FH_CAL_FAR, "one kernel per chain position");

/* k launches as the emitted C API makes them: each followed by
 * cudaGetLastError, which the host pays between one launch and the next. */
static void fh_cal_chain(const FhLaunchCal *L, int k)
{
    for (int i = 0; i < k; i++) {
        (L->code ? fh_cal_code_kernels : fh_cal_kernels)[L->same ? 0 : i]<<<8, 128, 0, L->s>>>((const float *)(L->buf + (i & 1) * 1024), (float *)(L->buf + (~i & 1) * 1024), 4096u, true);
        FH_CHECK(cudaGetLastError());
    }
}

static void fh_cal_flush(const FhLaunchCal *L)
{
    unsigned grid = (unsigned)L->sms * 8;
    fh_flush_rw_kernel<<<grid, 256, 0, L->s>>>(L->flush, L->flush_n);
    fh_flush_read_kernel<<<grid, 256, 0, L->s>>>(L->flush, L->flush_n, L->sink);
}

/* Eager's per-element broadcast form (an unfused kernel with a broadcast
 * operand, src/emit_cuda.c's emit_broadcast_kernel): FUSEC_BCAST_E elements a
 * thread, FX_THREADS apart, the broadcast operand's offset an element. */
static __global__ void __launch_bounds__(FX_THREADS) fh_gather_kernel(const int8_t *__restrict__ a,
                                                                      const float *__restrict__ s,
                                                                      float *__restrict__ r, unsigned n, FxBcast b)
{
    constexpr int E = FUSEC_BCAST_E;
    for (unsigned base = blockIdx.x * FX_THREADS * E + threadIdx.x; base < n; base += gridDim.x * FX_THREADS * E) {
        float a_v[E], s_v[E];
#pragma unroll
        for (int e = 0; e < E; e++) {
            const unsigned i = base + e * FX_THREADS;
            if (i < n) {
                a_v[e] = a[i];
                s_v[e] = s[fx_bcast_offset(b, i)];
            }
        }
#pragma unroll
        for (int e = 0; e < E; e++) {
            const unsigned i = base + e * FX_THREADS;
            if (i < n)
                r[i] = a_v[e] * s_v[e];
        }
    }
}

/* One gather kernel over n elements of L's big buffers: an i8 [n / 4096,
 * 4096] (big[0]) times an f32 [n / 4096, 1] (after it) into f32 (big[1]). */
static void fh_cal_gather(const FhLaunchCal *L, unsigned n)
{
    const unsigned cols = 4096;
    FxBcast b = {2, {cols, n / cols}, {0, 1}, {0}, {0}};
    fx_bcast_magic(&b);
    const int8_t *a = (const int8_t *)L->big[0];
    fh_gather_kernel<<<fx_blocks(n, FUSEC_BCAST_E), FX_THREADS, 0, L->s>>>(a, (const float *)(a + n), (float *)L->big[1],
                                                                          n, b);
}

/* Median of `reps` cold calls of k chained tiny kernels (k > 0), of one
 * copy kernel of n floats (k = 0) or of one gather kernel of n elements
 * (k < 0: fh_cal_gather), each queued behind a spin as the harness's
 * cold mode queues a call (fh_hide_dispatch): the host issues a launch in
 * 3-5 us, longer than a queued tiny kernel takes, so without it a chain of
 * more kernels than the flush covers is timed at the host's rate
 * (bench/probe_long.cu: 4.4 us a kernel from the 32nd on, 2.2 with it). */
static double fh_cal_cold(const FhLaunchCal *L, int k, size_t n)
{
    double t[25];
    for (int r = 0; r < 25 + 3; r++) {
        float ms;
        fh_spin_kernel<<<1, 1, 0, L->s>>>((long long)((200.0 + 10.0 * k) * L->clock_khz / 1000.0));
        fh_cal_flush(L);
        FH_CHECK(cudaEventRecord(L->ev[0], L->s));
        if (k > 0)
            fh_cal_chain(L, k);
        else if (k < 0)
            fh_cal_gather(L, (unsigned)n);
        else
            fh_l2_copy_kernel<<<(unsigned)(n / 4 / 128), 128, 0, L->s>>>(L->big[0], L->big[1], n / 4, 1);
        FH_CHECK(cudaEventRecord(L->ev[1], L->s));
        FH_CHECK(cudaEventSynchronize(L->ev[1]));
        FH_CHECK(cudaEventElapsedTime(&ms, L->ev[0], L->ev[1]));
        if (r >= 3)
            t[r - 3] = ms * 1e3;
    }
    return fh_median(t, 25);
}

/* Median per-call time of 32 calls back to back, an event between calls:
 * k chained kernels a call, or one replay of graph ge. queued: every call
 * queued behind a spin first, longer than the host takes to issue all 40
 * (about 40 x (1.8 + 4.5 k) us: 200 + 250 k us of spin), so that the GPU
 * never waits for the host and the time is the GPU's own per call. */
static double fh_cal_b2b(const FhLaunchCal *L, int k, cudaGraphExec_t ge, int queued)
{
    double t[32];
    if (queued)
        fh_spin_kernel<<<1, 1, 0, L->s>>>((long long)((200.0 + 250.0 * k) * L->clock_khz / 1000.0));
    FH_CHECK(cudaEventRecord(L->ev[0], L->s));
    for (int r = -8; r < 32; r++) { /* 8 untimed calls first */
        if (ge)
            FH_CHECK(cudaGraphLaunch(ge, L->s));
        else
            fh_cal_chain(L, k);
        FH_CHECK(cudaEventRecord(L->ev[r < 0 ? 0 : r + 1], L->s));
    }
    FH_CHECK(cudaStreamSynchronize(L->s));
    for (int r = 0; r < 32; r++) {
        float ms;
        FH_CHECK(cudaEventElapsedTime(&ms, L->ev[r], L->ev[r + 1]));
        t[r] = ms * 1e3;
    }
    return fh_median(t, 32);
}

/* Per-kernel time of one copy kernel of n floats run 32 times back to back
 * between two events, us. All 40 launches (8 untimed first) are queued behind
 * a spin of a million cycles (about 0.5 ms, longer than the host takes to
 * issue them), so the GPU never waits for the host: a kernel of 3 us would
 * otherwise be timed at the host's launch cost (4-5 us on the H200). */
static double fh_cal_copies_b2b(const FhLaunchCal *L, size_t n)
{
    float ms;
    fh_spin_kernel<<<1, 1, 0, L->s>>>(1000000);
    for (int r = -8; r < 32; r++) {
        if (r == 0)
            FH_CHECK(cudaEventRecord(L->ev[0], L->s));
        fh_l2_copy_kernel<<<(unsigned)(n / 4 / 128), 128, 0, L->s>>>(L->big[0], L->big[1], n / 4, 1);
    }
    FH_CHECK(cudaEventRecord(L->ev[1], L->s));
    FH_CHECK(cudaEventSynchronize(L->ev[1]));
    FH_CHECK(cudaEventElapsedTime(&ms, L->ev[0], L->ev[1]));
    return ms * 1e3 / 32;
}

/* l2_hot_keep and l2_hot_end: how much of a footprint L2 keeps between calls
 * back to back. One copy kernel of f L2 sizes (bytes read + written) for f =
 * 0.2, 0.3, ..., 1.4, back to back: its work (less launch_next_us) against
 * the model's, its bytes at hbm_gbps with a share k of them at l2_gbps, gives
 * the k that matches, the share kept. The model's line, keep * clamp((end -
 * f) / 0.25, 0, 1), that fits those shares best (least absolute deviations,
 * as bench/hot_share.py fits the harness's CSVs; keep and end in steps of
 * 0.01) gives both. On the H200 (call 8 of 2026-12-03) the shares were about
 * 0.65 up to 0.6 L2 sizes, 0.24 at 0.7 and none from 0.8 on. */
static void fh_calibrate_hot(const FhLaunchCal *L, double l2, FusecProfile *p, FhCalib *info)
{
    for (int i = 0; i < FH_CAL_HOT; i++) {
        double f = 0.2 + 0.1 * i;
        size_t n = (size_t)(f * l2 / 8) / 512 * 512; /* whole blocks of 128 threads x 4 floats */
        double bytes = 8.0 * n;
        double hot = fh_cal_copies_b2b(L, n) - p->launch_next_us - p->ramp_us * (1 - exp(-bytes / p->ramp_bytes));
        double all_hbm = bytes / (p->hbm_gbps * 1e3), all_l2 = bytes / (p->l2_gbps * 1e3);
        info->hot_f[i] = f;
        info->hot_s[i] = all_hbm > all_l2 ? (all_hbm - hot) / (all_hbm - all_l2) : 0;
    }
    double best = 1e300;
    for (int k = 0; k <= 100; k++)
        for (int e = 25; e <= 200; e++) {
            double keep = k / 100.0, end = e / 100.0, dev = 0;
            for (int i = 0; i < FH_CAL_HOT; i++) /* the model's line, in L2 sizes */
                dev += fabs(keep * fusec_l2_share(info->hot_f[i], 1.0, end - FUSEC_L2_HOT_SPAN, end) - info->hot_s[i]);
            if (dev < best) {
                best = dev;
                p->l2_hot_keep = keep;
                p->l2_hot_end = end;
            }
        }
}

static double fh_cal_graph(const FhLaunchCal *L, int k)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    FH_CHECK(cudaStreamBeginCapture(L->s, cudaStreamCaptureModeGlobal));
    fh_cal_chain(L, k);
    FH_CHECK(cudaStreamEndCapture(L->s, &g));
    FH_CHECK(cudaGraphInstantiate(&ge, g, 0));
    double us = fh_cal_b2b(L, k, ge, 0);
    FH_CHECK(cudaGraphExecDestroy(ge));
    FH_CHECK(cudaGraphDestroy(g));
    return us;
}

/* Least-squares line through (x[i], y[i]): y = a + b x. */
static void fh_line(const double *x, const double *y, int n, double *a, double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    *b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    *a = (sy - *b * sx) / n;
}

/* The line y = a + b x through (x[0], y[0]) closest to the rest in least
 * squares: b = sum (x - x0)(y - y0) / sum (x - x0)^2. */
static void fh_line_through(const double *x, const double *y, int n, double *a, double *b)
{
    double sxy = 0, sxx = 0;
    for (int i = 1; i < n; i++) {
        sxy += (x[i] - x[0]) * (y[i] - y[0]);
        sxx += (x[i] - x[0]) * (x[i] - x[0]);
    }
    *b = sxx > 0 ? sxy / sxx : 0;
    *a = y[0] - *b * x[0];
}

/* The four terms of fusec_chain_launches from the median times t[k - 1] of
 * chains of k = 1..FH_CAL_K kernels (none below 0: noise). */
static void fh_chain_terms(const double *ks, const double *t, double *first, double *second, double *third,
                           double *next)
{
    double a, b;
    fh_line(ks + 2, t + 2, FH_CAL_K - 2, &a, &b);
    *first = t[0];
    *second = fmax(t[1] - t[0], 0);
    *third = fmax(a + 3 * b - t[1], 0);
    *next = fmax(b, 0);
}

/* Each kernel's cost past the FUSEC_CHAIN_FAR-th, from chains of FUSEC_CHAIN_FAR
 * and FH_CAL_FAR kernels (t[0], t[1]; none below 0). */
static double fh_far_term(const double t[2])
{
    return fmax((t[1] - t[0]) / (FH_CAL_FAR - FUSEC_CHAIN_FAR), 0);
}

static void fh_calibrate_launches(const FhDevice *d, cudaStream_t s, FusecProfile *p, FhCalib *info)
{
    FhLaunchCal L;
    size_t big = (size_t)1 << 26;
    L.s = s;
    L.sms = d->sms;
    L.clock_khz = d->clock_khz;
    L.code = L.same = 0;
    L.flush_n = 3 * (d->l2_bytes ? d->l2_bytes : (size_t)4 << 20) / sizeof(uint4);
    FH_CHECK(cudaMalloc(&L.buf, 2 * 1024 * sizeof(float4)));
    FH_CHECK(cudaMalloc(&L.big[0], big * sizeof(float)));
    FH_CHECK(cudaMalloc(&L.big[1], big * sizeof(float)));
    FH_CHECK(cudaMalloc(&L.flush, L.flush_n * sizeof(uint4)));
    FH_CHECK(cudaMalloc(&L.sink, sizeof(unsigned)));
    FH_CHECK(cudaMemsetAsync(L.buf, 0, 2 * 1024 * sizeof(float4), s));
    FH_CHECK(cudaMemsetAsync(L.big[0], 1, big * sizeof(float), s));
    FH_CHECK(cudaMemsetAsync(L.flush, 2, L.flush_n * sizeof(uint4), s));
    for (int i = 0; i < 33; i++)
        FH_CHECK(cudaEventCreate(&L.ev[i]));
    /* FH_CAL_ROUNDS rounds over k = 1..FH_CAL_K, each k's figure the median
     * of its rounds: the host's issue rate (hot) drifts over tens of
     * milliseconds, and one pass per k put that drift into the line's slope
     * (host_call_us came out 0.5 to 3.1 us across the harnesses of one call,
     * call 10 of 2026-12-03) */
    double ks[FH_CAL_K], r[4][FH_CAL_K][FH_CAL_ROUNDS];
    for (int i = 0; i < FH_CAL_ROUNDS; i++)
        for (int k = 1; k <= FH_CAL_K; k++) {
            r[0][k - 1][i] = fh_cal_cold(&L, k, 0);
            r[1][k - 1][i] = fh_cal_b2b(&L, k, NULL, 0);
            r[3][k - 1][i] = fh_cal_b2b(&L, k, NULL, 1);
            r[2][k - 1][i] = fh_cal_graph(&L, k);
        }
    for (int k = 1; k <= FH_CAL_K; k++) {
        ks[k - 1] = k;
        info->cold[k - 1] = fh_median(r[0][k - 1], FH_CAL_ROUNDS);
        info->hot[k - 1] = fh_median(r[1][k - 1], FH_CAL_ROUNDS);
        info->graph[k - 1] = fh_median(r[2][k - 1], FH_CAL_ROUNDS);
        info->queued[k - 1] = fh_median(r[3][k - 1], FH_CAL_ROUNDS);
    }
    double a, b;
    /* cold and graph: the first kernel, the second, and a line through k =
     * 3..FH_CAL_K (its slope rather than its two ends): its value at 3 gives
     * the third, which costs more than each later one (0.5-0.8 us cold on the
     * H200: a line through k = 2..8 left every chain of 3 to 7 kernels 0.2-0.6
     * us above the model; call U of session 14, docs/model.md) */
    fh_chain_terms(ks, info->cold, &p->launch_first_us, &p->launch_second_us, &p->launch_third_us, &p->launch_next_us);
    fh_chain_terms(ks, info->graph, &p->graph_launch_us, &p->graph_second_us, &p->graph_third_us, &p->graph_node_us);
    /* past the FUSEC_CHAIN_FAR-th kernel each costs more (0.3-0.4 us cold on the
     * H200, bench/probe_long.cu): chains of FUSEC_CHAIN_FAR and FH_CAL_FAR */
    for (int i = 0; i < 2; i++) {
        int k = i ? FH_CAL_FAR : FUSEC_CHAIN_FAR;
        double c[FH_CAL_ROUNDS], g[FH_CAL_ROUNDS];
        for (int j = 0; j < FH_CAL_ROUNDS; j++) {
            c[j] = fh_cal_cold(&L, k, 0);
            g[j] = fh_cal_graph(&L, k);
        }
        info->cold_far[i] = fh_median(c, FH_CAL_ROUNDS);
        info->graph_far[i] = fh_median(g, FH_CAL_ROUNDS);
    }
    p->launch_far_us = fh_far_term(info->cold_far);
    p->graph_far_us = fh_far_term(info->graph_far);
    /* hot: a line through k = 1..FH_CAL_K that passes through k = 1's own
     * time (least squares on the slope alone), so that a one-kernel call (a
     * fused version) costs what the chain of one took. A free line put its
     * intercept anywhere from 0.1 to 4.0 us with slopes of 3.4-3.9 across
     * harnesses (call X of 2026-12-04, call 5 of session 18): the seed's
     * fused call, 4.56 us measured hot at 4096, was predicted 7.38 */
    fh_line_through(ks, info->hot, FH_CAL_K, &a, &b);
    p->host_call_us = a > 0 ? a : 0;
    p->host_launch_us = b;
    /* the GPU's side of a hot call: the same calls queued (the host ahead),
     * one kernel's call less the queued kernel's own launch_next_us; printed,
     * not kept: queued that deep a call costs the GPU more than in the hot
     * loop the host leads, so the profile keeps FUSEC_HOT_CALL_US
     * (runtime/fusec_model.h, docs/model.md) */
    info->hot_call_measured = info->queued[0] > p->launch_next_us ? info->queued[0] - p->launch_next_us : 0;
    p->hot_call_us = FUSEC_HOT_CALL_US;
    /* code fetch: cold chains of FH_CAL_K kernels, each its own function or
     * one function k times (its code fetched once), with and without 12 KiB
     * more code each; what the distinct chain's kernels add over the same
     * function's, per further kernel and per KiB of the extra code */
    for (L.code = 0; L.code < 2; L.code++) {
        L.same = 1;
        double same = fh_cal_cold(&L, FH_CAL_K, 0);
        L.same = 0;
        info->code_own[L.code] = (fh_cal_cold(&L, FH_CAL_K, 0) - same) / (FH_CAL_K - 1);
    }
    L.code = 0;
    double extra = info->code_own[1] - info->code_own[0];
    p->code_us_per_kb = extra > 0 ? extra / FH_CODE_KB : 0;
    /* the ramp: the median residual where it has settled (32-256 MiB), and
     * the bytes where it first reaches 63% of that; the residual beside the
     * write tail (fusec's figure, FUSEC_WRITE_TAIL_BYTES_H200: the copy's
     * first write_tail_bytes of writes at the L2 rate, as the model has them) */
    double res[FH_CAL_RAMP], settled[FH_CAL_RAMP];
    int ns = 0;
    p->write_tail_bytes = FUSEC_WRITE_TAIL_BYTES_H200;
    for (int i = 0; i < FH_CAL_RAMP; i++) {
        size_t n = (size_t)1 << (16 + i);
        double tail = fusec_write_tail(p, 4.0 * n);
        info->ramp_n[i] = (double)n;
        info->ramp_t[i] = fh_cal_cold(&L, 0, n);
        res[i] = info->ramp_t[i] - p->launch_first_us - (8.0 * n - tail) / (p->hbm_gbps * 1e3) -
                 tail / (p->l2_gbps * 1e3);
        if (8.0 * n >= 32e6 && 8.0 * n <= 300e6)
            settled[ns++] = res[i];
    }
    p->ramp_us = ns ? fh_median(settled, ns) : 0;
    if (p->ramp_us < 0)
        p->ramp_us = 0;
    p->ramp_bytes = 8.0 * info->ramp_n[FH_CAL_RAMP - 1];
    for (int i = 0; i < FH_CAL_RAMP; i++)
        if (res[i] >= 0.63 * p->ramp_us) {
            p->ramp_bytes = 8.0 * info->ramp_n[i];
            break;
        }
    /* gather_gelems, measured: one gather kernel of 2^26 elements, cold, as a
     * call's first kernel: its time less the first launch, less what its
     * bytes' time (at the copy rate, with the ramp) adds in the model's smooth
     * maximum (fusec_overlap: t^8 = mem^8 + cap^8); the elements over the rest.
     * Printed, not used: on the H200 this kernel ran at 450 G elements/s where
     * the emitted broadcast kernels ran at 539-552 (call 5 of session 16), so
     * the profile keeps fusec's figure (FUSEC_GATHER_GELEMS_H200) */
    {
        double n = (double)((size_t)1 << 26), bytes = 5 * n;
        double t = fh_cal_cold(&L, -1, (size_t)n) - p->launch_first_us;
        double mem = bytes / (p->hbm_gbps * 1e3) + p->ramp_us * (1 - exp(-bytes / p->ramp_bytes));
        double cap = t > mem ? pow(pow(t, 8) - pow(mem, 8), 0.125) : t;
        info->gather_us = t;
        info->gather_gelems = cap > 0 ? n / cap / 1e3 : 0;
        p->gather_gelems = FUSEC_GATHER_GELEMS_H200;
    }
    fh_calibrate_hot(&L, d->l2_bytes ? (double)d->l2_bytes : 4.0 * (1 << 20), p, info);
    for (int i = 0; i < 33; i++)
        FH_CHECK(cudaEventDestroy(L.ev[i]));
    FH_CHECK(cudaFree(L.buf));
    FH_CHECK(cudaFree(L.big[0]));
    FH_CHECK(cudaFree(L.big[1]));
    FH_CHECK(cudaFree(L.flush));
    FH_CHECK(cudaFree(L.sink));
}

/* Flops per second (in G/s) of an FMA throughput kernel: 2 per FMA. */
static double fh_rate_gops(int kind, int iters, int sms, cudaStream_t s)
{
    FhRateWork w;
    double us, ops;
    w.kind = kind;
    w.blocks = sms * 8;
    w.iters = iters;
    FH_CHECK(cudaMalloc(&w.out, (size_t)w.blocks * 256 * sizeof(double)));
    us = fh_median_us(fh_rate_work, &w, s, 1, 5, 1);
    FH_CHECK(cudaFree(w.out));
    ops = (double)w.blocks * 256 * iters * FH_CHAINS * 2;
    return ops / (us * 1e3);
}

/* The latency of one dependent FMA (kind 2: fp32, 3: fp64), in ns: one warp
 * running one chain, 2^14 FMAs more against 2^14 (the launch cancels). */
static double fh_dep_ns(int kind, cudaStream_t s)
{
    FhRateWork w = {kind, 1, 1 << 14, NULL};
    FH_CHECK(cudaMalloc(&w.out, 32 * sizeof(double)));
    double t1 = fh_median_us(fh_rate_work, &w, s, 1, 7, 1);
    w.iters = 1 << 15;
    double t2 = fh_median_us(fh_rate_work, &w, s, 1, 7, 1);
    FH_CHECK(cudaFree(w.out));
    double ns = (t2 - t1) * 1e3 / (1 << 14);
    return ns < 0.01 ? 0.01 : ns; /* noise cannot take it below the profile's range */
}

/* Measures the profile. The host-side costs of PyTorch (eager_op_us,
 * compiled_call_us) cannot be measured here: fusec's defaults stay. */
static void fh_calibrate(const FhDevice *d, cudaStream_t s, FusecProfile *p, FhCalib *info)
{
    size_t free_b, total, big = (size_t)1 << 30, l2 = d->l2_bytes ? d->l2_bytes : (size_t)4 << 20;
    FH_CHECK(cudaMemGetInfo(&free_b, &total));
    while (big > ((size_t)64 << 20) && 2 * big + ((size_t)256 << 20) > free_b)
        big /= 2;
    memset(p, 0, sizeof *p);
    memset(info, 0, sizeof *info);
    info->copy_bytes = big;
    info->l2_copy_bytes = l2 / 4 / 256 * 256;
    p->hbm_gbps = fh_copy_gbps(big, 1, d->sms, s);
    p->l2_gbps = fh_l2_gbps(info->l2_copy_bytes, d->sms, s);
    p->l2_bytes = (double)d->l2_bytes;
    fh_calibrate_launches(d, s, p, info);
    p->fp32_gflops = fh_rate_gops(0, 16384, d->sms, s);
    p->fp64_gflops = fh_rate_gops(1, 4096, d->sms, s);
    p->fma_latency_ns = fh_dep_ns(2, s);
    p->dfma_latency_ns = fh_dep_ns(3, s);
    p->eager_op_us = 12.5;
    p->compiled_call_us = 65.0;
    fh_format(p->name, sizeof p->name, "%s (calibrated)", d->name);
    for (char *c = p->name; *c; c++) /* the profile's JSON writer does not escape */
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
            *c = '_';
    fh_format(p->note, sizeof p->note,
              "calibrated %s by the fusec harness: %zu MiB D2D copy, %zu KiB L2 copy, chains of 1-%d "
              "tiny kernels cold, hot, in graphs, copy kernels of 2^16-2^26 floats and 0.2-1.4 L2s, FMA "
              "kernels; eager_op_us, compiled_call_us, gather_gelems: fusec defaults",
              d->date, info->copy_bytes >> 20, info->l2_copy_bytes >> 10, FH_CAL_K);
}

static void fh_print_profile(const FusecProfile *p, const FhCalib *info)
{
    printf("\ncalibration (each figure a median of several runs after warm-up, CUDA events):\n");
    printf("  %-16s %9.1f GB/s   cudaMemcpy D2D of %zu MiB, bytes read + written\n", "copy (HBM)",
           p->hbm_gbps, info->copy_bytes >> 20);
    printf("  %-16s %9.1f GB/s   a copy kernel, 64 passes over 2 x %zu KiB, which stay in L2\n", "copy (L2)", p->l2_gbps,
           info->l2_copy_bytes >> 10);
    printf("  %-16s %9.2f us     cold: a call's first tiny kernel (4096-element copy)\n", "launch first",
           p->launch_first_us);
    printf("  %-16s %9.2f us     cold: what the second adds\n", "launch second", p->launch_second_us);
    printf("  %-16s %9.2f us     cold: what the third adds\n", "launch third", p->launch_third_us);
    printf("  %-16s %9.2f us     cold: what each later one adds (a line through k = 3..%d)\n", "launch next",
           p->launch_next_us, FH_CAL_K);
    printf("  %-16s %9.2f us     cold: each past the %dth (chains of %d and %d: %.1f and %.1f us)\n", "launch far",
           p->launch_far_us, FUSEC_CHAIN_FAR, FUSEC_CHAIN_FAR, FH_CAL_FAR, info->cold_far[0], info->cold_far[1]);
    printf("  %-16s %9.2f us     hot: host time a call + %.2f us a launch\n", "host", p->host_call_us,
           p->host_launch_us);
    printf("  %-16s %9.2f us     hot: the GPU's time a call besides its kernels (fusec's figure; queued behind a\n"
           "  %-16s %9s        spin, calls of 1 and %d tiny kernels took %.2f and %.2f us: %.2f a call)\n",
           "hot call", p->hot_call_us, "", "", FH_CAL_K, info->queued[0], info->queued[FH_CAL_K - 1],
           info->hot_call_measured);
    printf("  %-16s %9.2f us     graph: one node's replay + %.2f us a second node, %.2f a third, %.2f each later,\n"
           "  %-16s %9s        %.2f each past the %dth (graphs of %d and %d nodes: %.1f and %.1f us)\n",
           "graph", p->graph_launch_us, p->graph_second_us, p->graph_third_us, p->graph_node_us, "", "",
           p->graph_far_us, FUSEC_CHAIN_FAR, FUSEC_CHAIN_FAR, FH_CAL_FAR, info->graph_far[0], info->graph_far[1]);
    printf("  %-16s %9.3f us     a queued kernel's code, per KiB (its own kernels add %.2f us each over one\n"
           "  %-16s %9s        kernel k times, %.2f with 12 KiB more code)\n",
           "code fetch", p->code_us_per_kb, info->code_own[0], "", "", info->code_own[1]);
    printf("  %-16s %9.2f us     a copy kernel's fill and drain, 63%% of it at %.0f MB\n", "ramp", p->ramp_us,
           p->ramp_bytes / 1e6);
    printf("  %-16s %9.1f MB     cold: a call's last writes still in L2 when it ends: fusec's figure (ncu)\n",
           "write tail", p->write_tail_bytes / 1e6);
    printf("  %-16s %9.2f L2s    hot: L2 keeps %.2f of a footprint up to 0.25 L2s less, none from here on\n"
           "  %-16s %9s        (a copy kernel; share kept at 0.2, 0.3, ... L2 sizes:", "l2 hot end", p->l2_hot_end,
           p->l2_hot_keep, "", "");
    for (int i = 0; i < FH_CAL_HOT; i++)
        printf(" %.2f", info->hot_s[i]);
    printf(")\n");
    printf("  %-16s %9.1f G/s    an unfused broadcast kernel's elements: fusec's figure (this harness's own kernel\n"
           "  %-16s %9s        of the form, i8 [R, 4096] times f32 [R, 1], 2^26 elements cold: %.1f us, %.1f G/s)\n",
           "gather", p->gather_gelems, "", "", info->gather_us, info->gather_gelems);
    printf("  %-16s %9.0f GFLOP/s fp32 FMA (2 flops each)\n", "fp32", p->fp32_gflops);
    printf("  %-16s %9.0f GFLOP/s fp64 FMA (2 flops each)\n", "fp64", p->fp64_gflops);
    printf("  %-16s %9.2f ns     fp32: one FMA that waits for the last (one warp, one chain)\n", "fma latency",
           p->fma_latency_ns);
    printf("  %-16s %9.2f ns     fp64: the same\n", "dfma latency", p->dfma_latency_ns);
    printf("  chains of k tiny kernels, us:  k  cold    hot   graph queued\n");
    for (int k = 0; k < FH_CAL_K; k++)
        printf("                                %2d %6.2f %6.2f %6.2f %6.2f\n", k + 1, info->cold[k], info->hot[k],
               info->graph[k], info->queued[k]);
    printf("  (not measurable here, fusec's defaults: PyTorch eager op %.1f us, compiled call %.1f us)\n",
           p->eager_op_us, p->compiled_call_us);
}


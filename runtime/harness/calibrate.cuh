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

static void fh_launch_work(const void *ctx, cudaStream_t s)
{
    (void)ctx;
    fh_empty_kernel<<<1, 32, 0, s>>>();
}

static void fh_graph_work(const void *ctx, cudaStream_t s)
{
    FH_CHECK(cudaGraphLaunch(*(const cudaGraphExec_t *)ctx, s));
}

typedef struct FhRateWork {
    int kind; /* 0 fp32 FMA, 1 fp64 FMA, 2 expf */
    int blocks, iters;
    void *out;
} FhRateWork;

static void fh_rate_work(const void *ctx, cudaStream_t s)
{
    const FhRateWork *w = (const FhRateWork *)ctx;
    if (w->kind == 0)
        fh_fma_kernel<float><<<w->blocks, 256, 0, s>>>((float *)w->out, w->iters, 0.9999f, 1e-4f);
    else if (w->kind == 1)
        fh_fma_kernel<double><<<w->blocks, 256, 0, s>>>((double *)w->out, w->iters, 0.9999, 1e-4);
    else
        fh_exp32_kernel<<<w->blocks, 256, 0, s>>>((float *)w->out, w->iters);
}

/* What the calibration measured, for the printout and the files. */
typedef struct FhCalib {
    size_t copy_bytes, l2_copy_bytes; /* per buffer */
    int launches, graph_nodes;
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

/* Cost of one dependent kernel node: a graph of `nodes` empty kernels in a
 * chain, replayed; time per replay / nodes. */
static double fh_graph_node_us(int nodes, cudaStream_t s)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    double us;
    int i;
    float4 *buf;
    /* Nodes like a small chain's: each a 4096-element copy over 8 blocks,
     * reading what the node before wrote. An empty kernel costs less (about
     * 0.5 us a node on an H200) than any kernel that touches memory. */
    FH_CHECK(cudaMalloc(&buf, 2 * 1024 * sizeof(float4)));
    FH_CHECK(cudaMemsetAsync(buf, 0, 2 * 1024 * sizeof(float4), s));
    FH_CHECK(cudaStreamSynchronize(s));
    FH_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (i = 0; i < nodes; i++)
        fh_l2_copy_kernel<<<8, 128, 0, s>>>(buf + (i & 1) * 1024, buf + (~i & 1) * 1024, 1024, 1);
    FH_CHECK(cudaStreamEndCapture(s, &g));
    FH_CHECK(cudaGraphInstantiate(&ge, g, 0));
    us = fh_median_us(fh_graph_work, &ge, s, 3, 7, 20);
    FH_CHECK(cudaGraphExecDestroy(ge));
    FH_CHECK(cudaGraphDestroy(g));
    FH_CHECK(cudaFree(buf));
    return us / nodes;
}

/* Operations per second (in G/s) of a throughput kernel; ops per thread and
 * iteration: 2 per FMA (the usual flop count), 1 per expf. */
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
    ops = (double)w.blocks * 256 * iters * FH_CHAINS * (kind == 2 ? 1 : 2);
    return ops / (us * 1e3);
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
    info->launches = 1000;
    info->graph_nodes = 64;
    p->hbm_gbps = fh_copy_gbps(big, 1, d->sms, s);
    p->l2_gbps = fh_l2_gbps(info->l2_copy_bytes, d->sms, s);
    p->l2_bytes = (double)d->l2_bytes;
    p->launch_us = fh_median_us(fh_launch_work, NULL, s, 100, 5, info->launches);
    p->graph_node_us = fh_graph_node_us(info->graph_nodes, s);
    p->fp32_gflops = fh_rate_gops(0, 16384, d->sms, s);
    p->fp64_gflops = fh_rate_gops(1, 4096, d->sms, s);
    p->sfu_gops = fh_rate_gops(2, 2048, d->sms, s);
    p->eager_op_us = 12.5;
    p->compiled_call_us = 65.0;
    fh_format(p->name, sizeof p->name, "%s (calibrated)", d->name);
    for (char *c = p->name; *c; c++) /* the profile's JSON writer does not escape */
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
            *c = '_';
    fh_format(p->note, sizeof p->note,
              "calibrated %s by the fusec harness: %zu MiB D2D copy, %zu KiB L2 copy, %d empty "
              "launches, %d-node graph, FMA and expf kernels; eager_op_us and compiled_call_us "
              "are fusec defaults",
              d->date, info->copy_bytes >> 20, info->l2_copy_bytes >> 10, info->launches,
              info->graph_nodes);
}

static void fh_print_profile(const FusecProfile *p, const FhCalib *info)
{
    printf("\ncalibration (each figure a median of several runs after warm-up, CUDA events):\n");
    printf("  %-16s %9.1f GB/s   cudaMemcpy D2D of %zu MiB, bytes read + written\n", "copy (HBM)",
           p->hbm_gbps, info->copy_bytes >> 20);
    printf("  %-16s %9.1f GB/s   a copy kernel, 64 passes over 2 x %zu KiB, which stay in L2\n", "copy (L2)", p->l2_gbps,
           info->l2_copy_bytes >> 10);
    printf("  %-16s %9.2f us     per empty kernel, %d launched back to back\n", "launch", p->launch_us,
           info->launches);
    printf("  %-16s %9.2f us     per node of a CUDA graph of %d dependent 4096-element copies\n", "graph node",
           p->graph_node_us, info->graph_nodes);
    printf("  %-16s %9.0f GFLOP/s fp32 FMA (2 flops each)\n", "fp32", p->fp32_gflops);
    printf("  %-16s %9.0f GFLOP/s fp64 FMA (2 flops each)\n", "fp64", p->fp64_gflops);
    printf("  %-16s %9.0f Gop/s  accurate expf\n", "transcendental", p->sfu_gops);
    printf("  (not measurable here, fusec's defaults: PyTorch eager op %.1f us, compiled call %.1f us)\n",
           p->eager_op_us, p->compiled_call_us);
}


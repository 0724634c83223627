/* ================================ kernels of the harness ================================ */

/* Throughput kernels: each thread runs 8 independent chains (enough work in
 * flight to hide the latency of each instruction) and stores their sum, so
 * that the compiler keeps the work. */
#define FH_CHAINS 8

/* FMAs in T (float or double; fma has an overload for each), C chains a
 * thread: FH_CHAINS for the throughput, 1 for the latency of a dependent
 * FMA (each waits for the one before). */
template <typename T, int C> static __global__ void fh_fma_kernel(T *out, int iters, T a, T b)
{
    T x[C];
#pragma unroll
    for (int j = 0; j < C; j++)
        x[j] = T(threadIdx.x) * T(1e-3) + T(j);
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int j = 0; j < C; j++)
            x[j] = fma(x[j], a, b);
    T s = 0;
#pragma unroll
    for (int j = 0; j < C; j++)
        s += x[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* Holds the stream for `cycles` clock cycles, so that the launches queued
 * behind it start back to back, however long the host takes to issue them. */
static __global__ void fh_spin_kernel(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

/* Fills a buffer with non-zero values (never time on zeros). */
static __global__ void fh_fill_kernel(unsigned *p, size_t n, unsigned seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = ((unsigned)i * 2654435761u ^ seed) | 1u;
}

/* The L2 flush, in two passes over a buffer of 3x the L2 size. The first
 * reads and writes every line, which evicts whatever the timed call touched
 * before. It leaves L2 full of dirty lines; the second pass reads the buffer
 * again, so those lines are written back now and not during the timed call,
 * which then starts with its inputs in HBM and a clean L2. */
static __global__ void fh_flush_rw_kernel(uint4 *p, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 v = p[i];
        v.x += 1;
        p[i] = v;
    }
}

static __global__ void fh_flush_read_kernel(const uint4 *p, size_t n, unsigned *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u) /* almost never: it only keeps the loads */
        *sink = acc;
}

/* Blocks for a grid-stride kernel over n items: enough to fill the GPU. */
static unsigned fh_grid(size_t n, int sms)
{
    size_t b = (n + 255) / 256, cap = (size_t)sms * 16;
    return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}


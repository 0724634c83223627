// probe_chain.cu: what a cold call's further kernels cost, by where their arrays live.
// The harness calibrates launch_next_us on chains of tiny copy kernels that ping-pong
// between two halves of one 32 KiB buffer; an emitted chain's kernels read and write
// arrays of their own (the harness allocates each at the sweep's largest size). This
// times cold calls (L2 flushed, one call between two events) of k = 1..8 distinct
// 4096-float copy kernels, each reading what the one before wrote, with the arrays
//   pingpong  two halves of one 32 KiB buffer (the harness's calibration)
//   small     k + 1 arrays of their own, 16 KiB cudaMallocs
//   big       k + 1 arrays of their own, 256 MiB cudaMallocs (as the harness's)
// and prints each chain's median time and (t(8) - t(2)) / 6, the cost of a further
// kernel. docs/model.md quotes it.
//   nvcc -O3 -arch=sm_90 bench/probe_chain.cu -o probe_chain && ./probe_chain
#include <algorithm>
#include <cstdio>
#include <vector>
template <int K> __global__ void copy_k(const float4 *__restrict__ a, float4 *__restrict__ b, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i];
    if (n == 0x7fffff00u + K) // never: each kernel's code its own
        b[0].x += 1;
}
static void (*const kern[8])(const float4 *, float4 *, unsigned) = {copy_k<0>, copy_k<1>, copy_k<2>, copy_k<3>,
                                                                     copy_k<4>, copy_k<5>, copy_k<6>, copy_k<7>};
__global__ void flush_rw(uint4 *p, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = p[i];
        v.x += 1;
        p[i] = v;
    }
}
int main()
{
    const size_t fn = (size_t)3 * 60 * 1048576 / 16;
    uint4 *flush;
    cudaMalloc(&flush, fn * 16);
    cudaMemset(flush, 1, fn * 16);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const char *names[3] = {"pingpong", "small", "big"};
    printf("layout     k=1     2     3     4     5     6     7     8   further kernel\n");
    for (int lay = 0; lay < 3; lay++) {
        std::vector<float4 *> arr(9);
        if (lay == 0) {
            float4 *b;
            cudaMalloc(&b, 2048 * 16);
            for (int i = 0; i < 9; i++)
                arr[i] = b + (i & 1) * 1024;
        } else
            for (int i = 0; i < 9; i++)
                cudaMalloc(&arr[i], lay == 1 ? 16384 : (size_t)256 << 20);
        for (int i = 0; i < 9; i++)
            cudaMemset(arr[i], 0, 16384);
        double med[8];
        for (int k = 1; k <= 8; k++) {
            std::vector<float> t;
            for (int r = 0; r < 28; r++) {
                flush_rw<<<132 * 8, 256>>>(flush, fn);
                cudaEventRecord(e0);
                for (int i = 0; i < k; i++) {
                    kern[i]<<<8, 128>>>(arr[i], arr[i + 1], 1024);
                    cudaGetLastError();
                }
                cudaEventRecord(e1);
                cudaEventSynchronize(e1);
                float ms;
                cudaEventElapsedTime(&ms, e0, e1);
                if (r >= 3)
                    t.push_back(ms * 1e3f);
            }
            std::sort(t.begin(), t.end());
            med[k - 1] = t[t.size() / 2];
        }
        printf("%-9s", names[lay]);
        for (int k = 0; k < 8; k++)
            printf(" %5.2f", med[k]);
        printf("   %.2f us\n", (med[7] - med[1]) / 6);
    }
    return cudaGetLastError() != cudaSuccess;
}

// probe_long.cu: what each kernel of a long cold chain costs. The harness calibrates the launch
// terms on chains of 1..8 distinct tiny kernels; the random programs of bench/fidelity.sh run 20-200
// kernels a call, and their unfused calls took about 0.26 us a kernel more than the model at 4096
// elements (call W of session 14), against 0.08 for chains of 2-4 kernels. This times cold calls
// (L2 flushed, one call between two events) of k = 1..64 distinct 4096-float copy kernels, each
// reading what the one before wrote (two buffers, ping-pong), with the launches queued behind a
// spin kernel (as the harness's cold mode) or not, and prints t(k) and the slope between
// k = 3..8, 8..16, 16..32 and 32..64. docs/model.md quotes it.
//   nvcc -O3 -arch=sm_90 bench/probe_long.cu -o probe_long && ./probe_long
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>
template <int K> __global__ void copy_k(const float4 *__restrict__ a, float4 *__restrict__ b, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i];
    if (n == 0x7fffff00u + K) // never: each kernel's code its own
        b[0].x += 1;
}
typedef void (*Kern)(const float4 *, float4 *, unsigned);
template <int... K> static std::vector<Kern> kernels(std::integer_sequence<int, K...>) { return {copy_k<K>...}; }
__global__ void flush_rw(uint4 *p, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = p[i];
        v.x += 1;
        p[i] = v;
    }
}
__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles)
        ;
}
int main()
{
    const int K = 64;
    std::vector<Kern> kern = kernels(std::make_integer_sequence<int, K>{});
    const size_t fn = (size_t)3 * 60 * 1048576 / 16;
    uint4 *flush;
    float4 *buf;
    cudaMalloc(&flush, fn * 16);
    cudaMemset(flush, 1, fn * 16);
    cudaMalloc(&buf, 2048 * 16);
    cudaMemset(buf, 0, 2048 * 16);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const int ks[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
    for (int queued = 0; queued < 2; queued++) {
        printf("%s\n   k  t(k) us\n", queued ? "launches queued behind a spin (the harness's cold mode)" : "no spin");
        std::vector<double> med;
        for (int k : ks) {
            std::vector<float> t;
            for (int r = 0; r < 25; r++) {
                if (queued)
                    spin<<<1, 1>>>(1000000);
                flush_rw<<<132 * 8, 256>>>(flush, fn);
                cudaEventRecord(e0);
                for (int i = 0; i < k; i++) {
                    kern[i]<<<8, 128>>>(buf + (i & 1) * 1024, buf + (~i & 1) * 1024, 1024);
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
            med.push_back(t[t.size() / 2]);
            printf("  %2d  %7.2f\n", k, med.back());
        }
        auto at = [&](int k) { for (size_t i = 0; i < med.size(); i++) if (ks[i] == k) return med[i]; return 0.0; };
        printf("  a further kernel: k 3..8 %.3f us, 8..16 %.3f, 16..32 %.3f, 32..64 %.3f\n", (at(8) - at(3)) / 5,
               (at(16) - at(8)) / 8, (at(32) - at(16)) / 16, (at(64) - at(32)) / 32);
    }
    return cudaGetLastError() != cudaSuccess;
}

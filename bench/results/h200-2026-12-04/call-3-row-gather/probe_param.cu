// Param probe: does a kernel's by-value parameter block cost a cold call time? A trivial kernel reads 1, 4 (one a
// 64-byte line) or all 30 words of a 240-byte struct; one reads an 8-byte pointer only.
#include <cuda_runtime.h>
struct Big { unsigned long long w[30]; };
__global__ void k_small(float *o) { if (threadIdx.x == 0) o[blockIdx.x] = 1.f; }
__global__ void k_big1(const Big b, float *o) { if (threadIdx.x == 0) o[blockIdx.x] = (float)b.w[3]; }
__global__ void k_big4(const Big b, float *o) { if (threadIdx.x == 0) o[blockIdx.x] = (float)(b.w[0] + b.w[8] + b.w[16] + b.w[24]); }
__global__ void k_big30(const Big b, float *o) { unsigned long long s = 0; for (int i = 0; i < 30; i++) s += b.w[i]; if (threadIdx.x == 0) o[blockIdx.x] = (float)s; }
extern "C" int launch(int which, float *o, int blocks, cudaStream_t s)
{
    Big b = {};
    for (int i = 0; i < 30; i++) b.w[i] = i;
    switch (which) {
    case 0: k_small<<<blocks, 128, 0, s>>>(o); break;
    case 1: k_big1<<<blocks, 128, 0, s>>>(b, o); break;
    case 2: k_big4<<<blocks, 128, 0, s>>>(b, o); break;
    default: k_big30<<<blocks, 128, 0, s>>>(b, o); break;
    }
    return (int)cudaGetLastError();
}

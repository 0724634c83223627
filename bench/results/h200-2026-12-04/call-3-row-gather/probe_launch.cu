// Launch probe: a trivial kernel with a small and a 240-byte by-value parameter, from a .so through ctypes
#include <cuda_runtime.h>
struct Big { unsigned long long w[30]; };
__global__ void k_small(float *o) { if (threadIdx.x == 0 && blockIdx.x == 0) o[0] = 1.f; }
__global__ void k_big(const Big b, float *o) { if (threadIdx.x == 0 && blockIdx.x == 0) o[0] = (float)b.w[3]; }
extern "C" int launch_small(float *o, int blocks, cudaStream_t s) { k_small<<<blocks, 128, 0, s>>>(o); return (int)cudaGetLastError(); }
extern "C" int launch_big(float *o, int blocks, cudaStream_t s) { Big b = {}; b.w[3] = 2; k_big<<<blocks, 128, 0, s>>>(b, o); return (int)cudaGetLastError(); }

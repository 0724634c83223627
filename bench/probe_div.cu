// probe_div.cu: the fused kernel's fast division on the GPU in hand, form by form
// (IEEE a / b, __fdividef, PTX div.full.f32, a * rcp.approx.f32 with and without
// .ftz): each one's largest error in float ulps against IEEE's quotient, how many
// quotients round to another bf16, and where it gives 0 for a nonzero quotient, on
// 2^24 pairs of four kinds (any bits; 1 + exp(t) denominators, as sigmoid's;
// divisors in [2^125, 2^127); normal numbers), then each one's rate in a dependent
// chain; and __expf against expf over [-104, -87]. docs/cuda.md quotes run 18.
//   nvcc -O3 -arch=sm_90 bench/probe_div.cu -o probe_div && ./probe_div
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <cuda_bf16.h>
__device__ __forceinline__ float d_ieee(float a, float b) { return a / b; }
__device__ __forceinline__ float d_fdividef(float a, float b) { return __fdividef(a, b); }
__device__ __forceinline__ float d_full(float a, float b) { float r; asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__device__ __forceinline__ float d_rcp(float a, float b) { float r; asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(b)); return a * r; }
__device__ __forceinline__ float d_rcpftz(float a, float b) { float r; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(b)); return a * r; }
#define FORMS X(ieee) X(fdividef) X(full) X(rcp) X(rcpftz)
enum { NF = 5 };
__global__ void eval(const float *a, const float *b, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  int k = 0;
#define X(f) o[(size_t)(k++) * n + i] = d_##f(a[i], b[i]);
  FORMS
#undef X
}
#define X(f) __global__ void tp_##f(float *o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; \
  float x = 1.0f + i * 1e-7f, y = 1.5f; for (int r = 0; r < 64; r++) { x = d_##f(x, y) + 0.75f; } o[i] = x; }
FORMS
#undef X
static uint32_t rng = 12345; static uint32_t nx() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t ub(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static int64_t ord(float f) { int32_t s; memcpy(&s, &f, 4); return s < 0 ? (int64_t)INT32_MIN - s : s; }
static uint16_t tobf(float f) { uint32_t u = ub(f); if ((u & 0x7fffffff) > 0x7f800000) return 0x7fc0; u += 0x7fff + ((u >> 16) & 1); return u >> 16; }
__global__ void expk(float *o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  float x = -104.0f + 17.0f * i / n; o[i] = expf(x); o[n + i] = __expf(x); }
int main() {
  { const int m = 1 << 20; float *d, *h = new float[2 * m]; cudaMalloc(&d, 8 * m); expk<<<m / 256, 256>>>(d, m); cudaMemcpy(h, d, 8 * m, cudaMemcpyDeviceToHost);
    long z = 0, bf = 0; for (int i = 0; i < m; i++) { if (h[m + i] == 0 && h[i] != 0) z++; if (tobf(h[i]) != tobf(h[m + i])) bf++; }
    printf("__expf on [-104, -87]: 0 where expf is not: %ld of %d; bf16-rounded differs: %ld\n", z, m, bf); }
  const int n = 1 << 24;
  float *ha = new float[n], *hb = new float[n], *ho = new float[(size_t)NF * n];
  for (int i = 0; i < n; i++) {
    int kind = i % 4;
    if (kind == 0) { ha[i] = bits(nx()); hb[i] = bits(nx()); }                   // any bits
    else if (kind == 1) { ha[i] = (nx() % 2000) / 100.0f - 10; hb[i] = 1 + expf((nx() % 20000) / 100.0f - 100); } // sigmoid-like
    else if (kind == 2) { ha[i] = bits((nx() & 0x807fffff) | (127u << 23)); hb[i] = bits((nx() & 0x807fffff) | ((126u + nx() % 2) << 23)) * 0x1p100f * 0x1p26f; } // |b| in [2^126,2^128)
    else { ha[i] = bits((nx() & 0x807fffff) | ((1u + nx() % 253) << 23)); hb[i] = bits((nx() & 0x807fffff) | ((1u + nx() % 253) << 23)); }
  }
  float *da, *db, *dout; cudaMalloc(&da, 4 * n); cudaMalloc(&db, 4 * n); cudaMalloc(&dout, (size_t)4 * NF * n);
  cudaMemcpy(da, ha, 4 * n, cudaMemcpyHostToDevice); cudaMemcpy(db, hb, 4 * n, cudaMemcpyHostToDevice);
  eval<<<n / 256, 256>>>(da, db, dout, n); cudaMemcpy(ho, dout, (size_t)4 * NF * n, cudaMemcpyDeviceToHost);
  const char *names[NF] = {
#define X(f) #f,
  FORMS
#undef X
  };
  for (int k = 1; k < NF; k++) for (int kind = 0; kind < 4; kind++) {
    int64_t maxu = 0; long bfdiff = 0, nanmis = 0, zero_wrong = 0, cnt = 0;
    for (int i = kind; i < n; i += 4) {
      float r = ho[i], f = ho[(size_t)k * n + i]; cnt++;
      if (std::isnan(r) != std::isnan(f)) { nanmis++; continue; }
      if (std::isnan(r)) continue;
      if (f == 0 && r != 0) zero_wrong++;
      int64_t d = llabs(ord(r) - ord(f)); if (d > maxu) maxu = d;
      if (tobf(r) != tobf(f)) bfdiff++;
    }
    printf("%-9s inputs %d: max %lld ulp f32, bf16-rounded differs %ld of %ld, NaN mismatches %ld, 0 where IEEE is not %ld\n", names[k], kind, (long long)maxu, bfdiff, cnt, nanmis, zero_wrong);
  }
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  int k = 0;
#define X(f) { for (int w = 0; w < 3; w++) tp_##f<<<n / 256, 256>>>(dout, n); cudaEventRecord(e0); for (int r = 0; r < 10; r++) tp_##f<<<n / 256, 256>>>(dout, n); cudaEventRecord(e1); cudaEventSynchronize(e1); \
  float ms; cudaEventElapsedTime(&ms, e0, e1); printf("throughput %-9s %.1f G divisions a second\n", #f, (double)n * 64 * 10 / (ms * 1e-3) / 1e9); k++; }
  FORMS
#undef X
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}

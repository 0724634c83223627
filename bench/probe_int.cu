// probe_int.cu: fusec's integer ops (runtime/fusec_ops.cuh) on the GPU in hand against
// the same functions on the host, for i8, u8 and i16 over every value and i32 over
// [-70000, 70000], each against 13 second operands, their results used at 64 bits as
// the fused kernel uses an intermediate (it keeps it in a register). One line per
// type and op: ok, or MISMATCH with the first case. docs/cuda.md quotes runs 19-20.
//   nvcc -O3 -arch=sm_90 bench/probe_int.cu -o probe_int && ./probe_int
#include "../runtime/fusec_kernel.cuh"
#include "../runtime/fusec_ops.cuh"
#include <cstdio>
#include <vector>
template <typename T> __host__ __device__ __forceinline__ T abs32(T a) { int32_t w = a; uint32_t r = w < 0 ? 0u - (uint32_t)w : (uint32_t)w; return (T)r; }
#define OPS X(neg, fx_int_neg(a)) X(abs, fx_int_abs(a)) X(absneg, fx_int_abs(fx_int_neg(a))) X(abs32neg, abs32(fx_int_neg(a))) \
  X(abs32, abs32(a)) X(add, fx_int_add(a, b)) X(sub, fx_int_sub(a, b)) X(mul, fx_int_mul(a, b)) X(negmul, fx_int_neg(fx_int_mul(a, b))) \
  X(addabs, fx_int_abs(fx_int_add(a, b))) X(shl, fx_int_shl(a, (T)(b & 7))) X(relu_neg, fx_int_relu(fx_int_neg(a))) \
  X(clamp_absneg, fx_int_clamp((int32_t)fx_int_abs(fx_int_neg(a)), -20, 20)) X(f32_absneg, (int64_t)(float)fx_int_abs(fx_int_neg(a))) \
  X(sub0, fx_int_sub((T)0, a)) X(mulm1, fx_int_mul(a, (T)-1)) X(fdiv, fx_int_floor_divide(a, b)) X(rem, fx_int_remainder(a, b)) \
  X(fdiv_neg, fx_int_floor_divide(fx_int_neg(a), b)) X(sign_neg, fx_int_sign(fx_int_neg(a))) X(shr_neg, fx_int_shr(fx_int_neg(a), (T)(b & 15))) \
  X(max_neg, fx_int_max(fx_int_neg(a), b)) X(add_neg, fx_int_add(fx_int_neg(a), b)) X(shl_neg, fx_int_shl(fx_int_neg(a), (T)(b & 15)))
enum { NOPS = 0
#define X(n, e) + 1
OPS
#undef X
};
template <typename T> __host__ __device__ void eval(T a, T b, int64_t *o) {
  int k = 0;
#define X(n, e) o[k++] = (int64_t)(e);
  OPS
#undef X
}
template <typename T> __global__ void kern(const T *a, const T *b, int64_t *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) eval<T>(a[i], b[i], o + (size_t)i * NOPS);
}
template <typename T> void run(const char *name, int lo, int hi) {
  std::vector<T> a, b; int bs[] = {0, 1, -1, 2, 7, 100, -128, 127, 255, 32767, -32768, 3, -2};
  for (int x = lo; x <= hi; x++) for (int y : bs) { a.push_back((T)x); b.push_back((T)y); }
  int n = a.size(); std::vector<int64_t> h((size_t)n * NOPS), d((size_t)n * NOPS);
  for (int i = 0; i < n; i++) eval<T>(a[i], b[i], &h[(size_t)i * NOPS]);
  T *da, *db; int64_t *dout; cudaMalloc(&da, n * sizeof(T)); cudaMalloc(&db, n * sizeof(T)); cudaMalloc(&dout, d.size() * 8);
  cudaMemcpy(da, a.data(), n * sizeof(T), cudaMemcpyHostToDevice); cudaMemcpy(db, b.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  kern<T><<<(n + 255) / 256, 256>>>(da, db, dout, n); cudaMemcpy(d.data(), dout, d.size() * 8, cudaMemcpyDeviceToHost);
  const char *names[] = {
#define X(n, e) #n,
  OPS
#undef X
  };
  for (int k = 0; k < NOPS; k++) { long bad = 0; int first = -1;
    for (int i = 0; i < n; i++) if (h[(size_t)i * NOPS + k] != d[(size_t)i * NOPS + k]) { if (first < 0) first = i; bad++; }
    printf("%-5s %-13s %s %ld of %d", name, names[k], bad ? "MISMATCH" : "ok", bad, n);
    if (first >= 0) printf(" (a=%d b=%d: host %lld device %lld)", (int)a[first], (int)b[first], (long long)h[(size_t)first * NOPS + k], (long long)d[(size_t)first * NOPS + k]);
    printf("\n"); }
  cudaFree(da); cudaFree(db); cudaFree(dout);
}
int main() { run<int8_t>("i8", -128, 127); run<uint8_t>("u8", 0, 255); run<int16_t>("i16", -32768, 32767); run<int32_t>("i32", -70000, 70000); printf("err %s\n", cudaGetErrorString(cudaGetLastError())); }

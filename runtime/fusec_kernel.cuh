/*
 * fusec_kernel.cuh: storage types, conversions and the vector loads and
 * stores that every emitted kernel uses.
 *
 * Storage dtypes in kernels: bool -> bool (one byte, 0 or 1, as torch.bool),
 * f16 -> __half, bf16 -> __nv_bfloat16, f32 -> float, f64 -> double, and
 * the integers u8 i8 i16 i32 i64 -> uint8_t int8_t int16_t int32_t int64_t.
 * Compute types: bool -> bool, f16/bf16/f32 -> float, f64 -> double, an
 * integer -> itself (its + - * wrap: fusec_ops.cuh).
 */
#ifndef FUSEC_KERNEL_CUH
#define FUSEC_KERNEL_CUH

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>
#include <type_traits>

/* Storage -> compute. */
__host__ __device__ __forceinline__ bool fx_widen(bool v) { return v; }
__host__ __device__ __forceinline__ float fx_widen(__half v) { return __half2float(v); }
__host__ __device__ __forceinline__ float fx_widen(__nv_bfloat16 v) { return __bfloat162float(v); }
__host__ __device__ __forceinline__ float fx_widen(float v) { return v; }
__host__ __device__ __forceinline__ double fx_widen(double v) { return v; }
__host__ __device__ __forceinline__ uint8_t fx_widen(uint8_t v) { return v; }
__host__ __device__ __forceinline__ int8_t fx_widen(int8_t v) { return v; }
__host__ __device__ __forceinline__ int16_t fx_widen(int16_t v) { return v; }
__host__ __device__ __forceinline__ int32_t fx_widen(int32_t v) { return v; }
__host__ __device__ __forceinline__ int64_t fx_widen(int64_t v) { return v; }

/* Compute -> storage, rounding to nearest even. A bool becomes 0 or 1; a
 * number stored as bool is "!= 0", as tensor.to(torch.bool). */
__host__ __device__ __forceinline__ bool fx_to_bool(double v) { return v != 0; }
__host__ __device__ __forceinline__ __half fx_to_f16(float v) { return __float2half_rn(v); }
__host__ __device__ __forceinline__ __half fx_to_f16(double v) { return __double2half(v); }
__host__ __device__ __forceinline__ __nv_bfloat16 fx_to_bf16(float v) { return __float2bfloat16_rn(v); }
__host__ __device__ __forceinline__ __nv_bfloat16 fx_to_bf16(double v) { return __double2bfloat16(v); }
__host__ __device__ __forceinline__ float fx_to_f32(float v) { return v; }
__host__ __device__ __forceinline__ float fx_to_f32(double v) { return (float)v; }
__host__ __device__ __forceinline__ double fx_to_f64(double v) { return v; }

/* Integer (or bool) -> float, as c10::convert: a static_cast, to nearest
 * even; f16 and bf16 through float (c10::Half and c10::BFloat16 are built
 * from a float), which rounds twice only where f16 has overflowed anyway and
 * bf16 has a spacing of 2^17 or more. */
#define FX_INTEGRAL(T) typename std::enable_if<std::is_integral<T>::value, int>::type = 0
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ bool fx_to_bool(T v) { return v != 0; }
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ __half fx_to_f16(T v)
{
    return __float2half_rn((float)v);
}
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ __nv_bfloat16 fx_to_bf16(T v)
{
    return __float2bfloat16_rn((float)v);
}
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ float fx_to_f32(T v) { return (float)v; }
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ double fx_to_f64(T v) { return (double)v; }

/* Float -> integer, as eager on CUDA: toward zero through the signed type W
 * of the dtype's "via" column (fusec_dtype.h), saturating at W's range, NaN
 * giving 0 for 32 bits and the minimum for 64 (the cvt.rzi instruction, as
 * measured on the H200), then the low bits; no undefined
 * behaviour on any input. The W of each FX_TO_INT line below is that column
 * (this file comes before the table in a .cu): tests/hostmath/dtypes.cu
 * checks the two against each other through ref_round. */
template <typename W, typename F> __host__ __device__ __forceinline__ W fx_float_to_int(F v)
{
    const F top = (F)((double)((unsigned long long)1 << (8 * sizeof(W) - 1))); /* 2^(bits-1), exact */
    if (v != v)
        return sizeof(W) == 8 ? (W)(0 - ((unsigned long long)1 << 63)) : (W)0;
    if (v >= top)
        return (W)(((unsigned long long)1 << (8 * sizeof(W) - 1)) - 1);
    if (v < -top)
        return (W)(0 - ((unsigned long long)1 << (8 * sizeof(W) - 1)));
    return (W)v;
}
/* Integer -> integer: the low bits (two's complement), as static_cast. */
#define FX_TO_INT(name, T, W)                                                                                   \
    __host__ __device__ __forceinline__ T fx_to_##name(float v) { return (T)fx_float_to_int<W>(v); }           \
    __host__ __device__ __forceinline__ T fx_to_##name(double v) { return (T)fx_float_to_int<W>(v); }          \
    template <typename I, FX_INTEGRAL(I)> __host__ __device__ __forceinline__ T fx_to_##name(I v) { return (T)v; }
FX_TO_INT(u8, uint8_t, int64_t)
FX_TO_INT(i8, int8_t, int32_t)
FX_TO_INT(i16, int16_t, int32_t)
FX_TO_INT(i32, int32_t, int32_t)
FX_TO_INT(i64, int64_t, int64_t)
#undef FX_TO_INT

/* V elements of T moved as one access of V * sizeof(T) bytes (16 at most). */
template <typename T, int V> struct alignas(V * sizeof(T)) FxPack {
    T v[V];
};

/* Elements of T per access when a thread moves E of them: 16 bytes at most,
 * so that a chunk of 32 bytes is two 16-byte accesses. */
template <typename T, int E> struct FxVec {
    static constexpr int V = E * sizeof(T) > 16 ? 16 / (int)sizeof(T) : E;
};

/* Load E elements starting at i. full: the whole chunk is in range and every
 * pointer of the kernel is aligned, so vector accesses do it (one, or two for
 * 32 bytes); otherwise each element in range is loaded alone (the tail, or
 * misaligned pointers). */
template <int E, typename T, typename I>
__device__ __forceinline__ void fx_load(T (&r)[E], const T *__restrict__ p, I i, I n, bool full)
{
    constexpr int V = FxVec<T, E>::V;
    if (full) {
#pragma unroll
        for (int c = 0; c < E; c += V) {
            FxPack<T, V> pk = *reinterpret_cast<const FxPack<T, V> *>(p + i + c);
#pragma unroll
            for (int e = 0; e < V; e++)
                r[c + e] = pk.v[e];
        }
    } else {
#pragma unroll
        for (int e = 0; e < E; e++)
            r[e] = i + e < n ? p[i + e] : T();
    }
}

template <int E, typename T, typename I>
__device__ __forceinline__ void fx_store(T *__restrict__ p, I i, I n, bool full, const T (&r)[E])
{
    constexpr int V = FxVec<T, E>::V;
    if (full) {
#pragma unroll
        for (int c = 0; c < E; c += V) {
            FxPack<T, V> pk;
#pragma unroll
            for (int e = 0; e < V; e++)
                pk.v[e] = r[c + e];
            *reinterpret_cast<FxPack<T, V> *>(p + i + c) = pk;
        }
    } else {
#pragma unroll
        for (int e = 0; e < E; e++)
            if (i + e < n)
                p[i + e] = r[e];
    }
}

/* A fused kernel whose grid would have fewer blocks than this (about 8 an SM
 * on an H200) runs with half the elements per thread: twice the threads,
 * half the serial work each (docs/cuda.md, "Kernel shape", says what that
 * measured). */
#define FX_SMALL_BLOCKS 1024

/* A compute-heavy fused kernel (its issue slots take at least its bytes'
 * time) whose grid at half the elements would still have fewer blocks than
 * this runs with one element per thread: its long serial work per element
 * spread over as many SMs as the elements reach (docs/cuda.md). */
#define FX_TINY_BLOCKS 256

/* Threads per block, and the grid for n elements at E per thread: one chunk
 * per thread, capped so the grid-stride loop takes over for huge n. */
#define FX_THREADS 128
static inline unsigned fx_blocks(size_t n, int e)
{
    size_t per_block = (size_t)FX_THREADS * e;
    size_t b = (n + per_block - 1) / per_block;
    return (unsigned)(b == 0 ? 1 : b > 0x7fffffffu ? 0x7fffffffu : b);
}

/* When true, every kernel takes its scalar path, the one misaligned
 * pointers and the tail take (the fused kernel's TAIL instance for all of
 * n): the harness verifies each version both ways.
 * Always false in a library. */
static bool fx_scalar_only = false;

/* True when p is aligned for vector accesses of e elements of size bytes. */
static inline bool fx_aligned(const void *p, int e, int size)
{
    return ((uintptr_t)p % (uintptr_t)(e * size)) == 0;
}

/* A broadcast operand of an unfused kernel, as PyTorch's TensorIterator
 * sees it: the result's sizes, innermost first, and the operand's strides in
 * elements (0 along a dim it is broadcast on). Each element's offset takes a
 * divide and a multiply per dim (TensorIterator's OffsetCalculator), which is
 * why eager runs broadcast operands on its slower, non-vectorized path. */
typedef struct FxBcast {
    int rank;
    unsigned long long size[4], stride[4];
} FxBcast;

template <typename I>
__device__ __forceinline__ I fx_bcast_offset(const FxBcast &b, I i)
{
    I off = 0;
#pragma unroll
    for (int d = 0; d < 4; d++)
        if (d < b.rank) {
            const I q = i / (I)b.size[d];
            off += (i - q * (I)b.size[d]) * (I)b.stride[d];
            i = q;
        }
    return off;
}

#endif /* FUSEC_KERNEL_CUH */

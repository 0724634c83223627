/*
 * fusec_kernel.cuh: storage types, conversions and the vector loads and
 * stores that every emitted kernel uses.
 *
 * Storage dtypes in kernels: bool -> bool (one byte, 0 or 1, as torch.bool),
 * f16 -> __half, bf16 -> __nv_bfloat16, f32 -> float, f64 -> double, and
 * the integers u8 i8 i16 i32 i64 -> uint8_t int8_t int16_t int32_t int64_t,
 * f8e4m3 and f8e5m2 -> FxF8e4m3 and FxF8e5m2 (the byte's bits in a struct
 * of their own, so that each has its conversions).
 * Compute types: bool -> bool, f16/bf16/f32 and the fp8s -> float, f64 ->
 * double, an integer -> itself (its + - * wrap: fusec_ops.cuh).
 */
#ifndef FUSEC_KERNEL_CUH
#define FUSEC_KERNEL_CUH

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>

/* fp8 (torch.float8_e4m3fn, torch.float8_e5m2): one byte, sign, exponent,
 * mantissa. e4m3: 4 exponent bits (bias 7), 3 mantissa bits, no infinity:
 * the top exponent holds 256..448 and NaN (S.1111.111). e5m2: 5 exponent
 * bits (bias 15), 2 mantissa bits, IEEE-like (inf S.11111.00, NaN above). */
struct FxF8e4m3 {
    uint8_t bits;
    /* mantissa bits, exponent bias, whether the top exponent is inf and NaN,
     * and the float bits of the overflow threshold (fx_float_to_f8): 464 */
    static constexpr int M = 3, B = 7;
    static constexpr bool INF = false;
    static constexpr uint32_t TBITS = 0x43e80000u;
};
struct FxF8e5m2 {
    uint8_t bits;
    static constexpr int M = 2, B = 15; /* ... and 61440 */
    static constexpr bool INF = true;
    static constexpr uint32_t TBITS = 0x47700000u;
};

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

/* A float's bits and back, on the host and the device. */
__host__ __device__ __forceinline__ uint32_t fx_float_bits(float v)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(v);
#else
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
#endif
}
__host__ __device__ __forceinline__ float fx_bits_float(uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
#endif
}

/* fp8 -> float, exactly: M mantissa bits, exponent bias B, INF when the top
 * exponent is inf and NaN (e5m2) rather than numbers and one NaN (e4m3). */
template <int M, int B, bool INF> __host__ __device__ __forceinline__ float fx_f8_to_float(uint8_t b)
{
    const uint32_t top = (1u << (7 - M)) - 1, e = (b >> M) & top, m = b & ((1u << M) - 1);
    const uint32_t sign = (uint32_t)(b & 0x80) << 24;
    if (e == top && (INF || m == (1u << M) - 1))
        return fx_bits_float(sign | (INF && m == 0 ? 0x7f800000u : 0x7fc00000u));
    if (e == 0) /* subnormal: m * 2^(1 - B - M), exact in float */
        return fx_bits_float(sign | fx_float_bits((float)m * fx_bits_float((uint32_t)(127 + 1 - B - M) << 23)));
    return fx_bits_float(sign | (e + 127 - B) << 23 | m << (23 - M));
}
/* On sm_89 and later (Ada, Hopper) the GPU converts fp8 in hardware: fp8 ->
 * f16 (cvt.rn.f16x2.e4m3x2, exact: every fp8 value is an f16 one) -> float,
 * two instructions in place of about ten integer ones (a fused kernel that
 * loads fp8 has about a dozen instructions an element before it stops being
 * memory-bound). NaN stays NaN (its payload may differ from c10's; outputs
 * compare NaN as equal). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define FX_FP8_HW 1
template <int M> __device__ __forceinline__ float fx_f8_widen_hw(uint8_t b)
{
    uint32_t h2;
    if (M == 3)
        asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(h2) : "h"((uint16_t)b));
    else
        asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(h2) : "h"((uint16_t)b));
    return __half2float(__ushort_as_half((unsigned short)(h2 & 0xffffu)));
}
#else
#define FX_FP8_HW 0
#endif
template <typename F> __host__ __device__ __forceinline__ float fx_f8_widen(F v)
{
#if FX_FP8_HW
    return fx_f8_widen_hw<F::M>(v.bits);
#else
    return fx_f8_to_float<F::M, F::B, F::INF>(v.bits);
#endif
}
__host__ __device__ __forceinline__ float fx_widen(FxF8e4m3 v) { return fx_f8_widen(v); }
__host__ __device__ __forceinline__ float fx_widen(FxF8e5m2 v) { return fx_f8_widen(v); }

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

/* float -> fp8 as c10 converts it (fp8e4m3fn_from_fp32_value,
 * fp8e5m2_from_fp32_value; PyTorch's .to() on CUDA), to nearest even,
 * without branches (a fused kernel that stores fp8 has about a dozen
 * instructions an element to spend before it stops being memory-bound):
 * - normals of fp8: the float's bits with the exponent rebiased, plus half of
 *   the S = 23 - M bits dropped, less one, plus the last kept bit (so that a
 *   tie goes to the even code), shifted right by S; a carry out of the
 *   mantissa moves to the next exponent, as rounding up should;
 * - below fp8's smallest normal 2^(1 - B): the float add of 2^(24 - B - M),
 *   whose ulp is fp8's subnormal spacing, rounds to nearest even in the
 *   adder; the sum's bits less the constant's are the code (2^(1 - B) itself
 *   when it rounds up);
 * - |v| at or above the threshold T, halfway between max_finite and the next
 *   code up, overflows: e5m2 to inf (a tie at 61440 rounds to the even code,
 *   inf's), e4m3 to NaN, which it has instead of inf, only above T (464:
 *   the tie goes to 448, whose mantissa is even); inf does the same and NaN
 *   stays NaN; the sign is v's (-0 too). TBITS: T's float bits. */
#if FX_FP8_HW
/* sm_89+: the hardware converts two floats at once (to nearest even,
 * subnormals included, saturating at max_finite): x's code in the low byte,
 * y's in the high one. fx_f8_overflow then applies c10's overflow rule to
 * one of them: the same bits as the software form below for every float
 * (bench/torch_check.py's fp8_all_floats checks all 2^32 on the GPU), in
 * about five instructions rather than fifteen. */
template <int M> __device__ __forceinline__ uint16_t fx_f8x2_hw(float x, float y)
{
    uint16_t h2;
    if (M == 3)
        asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h2) : "f"(y), "f"(x));
    else
        asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(h2) : "f"(y), "f"(x));
    return h2;
}
#endif
/* c10's overflow rule on the code of v: at or above T (e5m2: inf, or NaN for
 * a NaN) or above it (e4m3: NaN), with v's sign; both conversions end with
 * it. Compared as floats (|v| is an operand modifier, "not <=" takes NaN
 * too: one instruction); (bits >> 24) | 0x7f is 0x7f with v's sign. */
template <bool INF, uint32_t TBITS> __host__ __device__ __forceinline__ uint8_t fx_f8_overflow(uint8_t code, float v)
{
    const float t = fx_bits_float(TBITS);
    const uint32_t s = fx_float_bits(v) >> 24;
    if (INF ? !(fabsf(v) < t) : !(fabsf(v) <= t)) /* overflow, inf, NaN */
        return (uint8_t)(INF && v == v ? (s & 0x80) | 0x7c : s | 0x7f);
    return code;
}
template <int M, int B, bool INF, uint32_t TBITS> __host__ __device__ __forceinline__ uint8_t fx_float_to_f8(float v)
{
#if FX_FP8_HW
    return fx_f8_overflow<INF, TBITS>((uint8_t)fx_f8x2_hw<M>(v, 0.0f), v);
#else
    const uint32_t u = fx_float_bits(v), a = u & 0x7fffffffu;
    constexpr int S = 23 - M;
    const uint32_t nrm = (a + ((uint32_t)(B - 127) << 23) + ((1u << (S - 1)) - 1) + (a >> S & 1)) >> S;
    const float magic = fx_bits_float((uint32_t)(127 + 24 - B - M) << 23);
    const uint32_t sub = fx_float_bits(fx_bits_float(a) + magic) - fx_float_bits(magic);
    const uint32_t code = a < ((uint32_t)(127 + 1 - B) << 23) ? sub : nrm;
    return fx_f8_overflow<INF, TBITS>((uint8_t)(code | (u >> 24 & 0x80)), v);
#endif
}
#define FX_TO_F8(name, T)                                                                                     \
    __host__ __device__ __forceinline__ T fx_to_##name(float v)                                               \
    {                                                                                                         \
        return T{fx_float_to_f8<T::M, T::B, T::INF, T::TBITS>(v)};                                            \
    }                                                                                                         \
    /* a double through float first, as c10's constructor takes a float */                                  \
    __host__ __device__ __forceinline__ T fx_to_##name(double v) { return fx_to_##name((float)v); }
FX_TO_F8(f8e4m3, FxF8e4m3)
FX_TO_F8(f8e5m2, FxF8e5m2)
#undef FX_TO_F8

/* float -> f8e4m3 of a value the chain keeps within e4m3's finite range or
 * NaN (a clamp to +-448 before the cast: src/ir.c's ir_bounded): c10's
 * overflow rule cannot apply, so on sm_89 and later the hardware's saturating
 * conversion is c10's for every number (bench/torch_check.py's
 * fp8_all_floats: every f32 through a clamp to +-448, bit for bit, call 8 of
 * 2026-12-03). A NaN the hardware makes 0x7f; c10 keeps its sign (0xff for a
 * negative one), so v's sign bit is or-ed in, which changes no other code
 * (the hardware's carries v's sign already). That or matters only for a NaN
 * that reaches the cast with its sign (a copy of an e4m3 input, where, abs).
 * fx_to_f8e4m3_satc is the same conversion without the or, for a value whose
 * NaN is the canonical one, positive, already (a clamp, min or max in float:
 * min.NaN on the GPUs that have the conversion; src/emit_cuda.c's to_fn):
 * the or cost fp8_quantize 6% at 2^28 (208.1 against 196.4 us, call 11 of
 * 2026-12-03). */
__host__ __device__ __forceinline__ FxF8e4m3 fx_to_f8e4m3_satc(float v)
{
#if FX_FP8_HW
    return FxF8e4m3{(uint8_t)fx_f8x2_hw<FxF8e4m3::M>(v, 0.0f)};
#else
    return fx_to_f8e4m3(v);
#endif
}
__host__ __device__ __forceinline__ FxF8e4m3 fx_to_f8e4m3_sat(float v)
{
#if FX_FP8_HW
    return FxF8e4m3{(uint8_t)(fx_to_f8e4m3_satc(v).bits | (fx_float_bits(v) >> 24 & 0x80))};
#else
    return fx_to_f8e4m3(v);
#endif
}
__host__ __device__ __forceinline__ FxF8e4m3 fx_to_f8e4m3_satc(double v) { return fx_to_f8e4m3_satc((float)v); }
__host__ __device__ __forceinline__ FxF8e4m3 fx_to_f8e4m3_sat(double v) { return fx_to_f8e4m3_sat((float)v); }

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
/* An integer of 8 or 16 bits (or a bool) into float on the GPU without a
 * conversion instruction (which takes about six FMAs' issue slots: opcost.def's
 * casts): v added to the bits of 1.5 * 2^23, whose ulp is 1, is the float
 * 1.5 * 2^23 + v, and the float subtraction of 1.5 * 2^23 leaves v exactly. */
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ float fx_to_f32(T v)
{
#ifdef __CUDA_ARCH__
    if (sizeof(T) <= 2)
        return __int_as_float(0x4b400000 + (int)v) - 12582912.0f;
#endif
    return (float)v;
}
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ double fx_to_f64(T v) { return (double)v; }
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ FxF8e4m3 fx_to_f8e4m3(T v)
{
    return fx_to_f8e4m3((float)v);
}
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ FxF8e5m2 fx_to_f8e5m2(T v)
{
    return fx_to_f8e5m2((float)v);
}
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ FxF8e4m3 fx_to_f8e4m3_sat(T v)
{
    return fx_to_f8e4m3_sat((float)v);
}
template <typename T, FX_INTEGRAL(T)> __host__ __device__ __forceinline__ FxF8e4m3 fx_to_f8e4m3_satc(T v)
{
    return fx_to_f8e4m3_satc((float)v);
}

/* Float -> integer, as eager on CUDA: toward zero through the signed type W
 * of the dtype's "via" column (fusec_dtype.h), saturating at W's range, NaN
 * giving 0 from a float into 32 bits and W's minimum from a double or into 64
 * bits (the cvt.rzi instruction, as measured on the H200: f64 NaN to i32 is
 * INT32_MIN, bench/torch_check.py's float_casts), then the low bits; no undefined
 * behaviour on any input. The W of each FX_TO_INT line below is that column
 * (this file comes before the table in a .cu): tests/hostmath/dtypes.cu
 * checks the two against each other through ref_round. */
#ifdef __CUDA_ARCH__
/* On the GPU those rules are the cvt.rzi instruction itself (what eager's
 * static_cast compiles to): one instruction where the compares below take
 * four more. */
__device__ __forceinline__ void fx_rzi(int32_t &r, float v) { r = __float2int_rz(v); }
__device__ __forceinline__ void fx_rzi(int32_t &r, double v) { r = __double2int_rz(v); }
__device__ __forceinline__ void fx_rzi(int64_t &r, float v) { r = (int64_t)__float2ll_rz(v); }
__device__ __forceinline__ void fx_rzi(int64_t &r, double v) { r = (int64_t)__double2ll_rz(v); }
#endif
template <typename W, typename F> __host__ __device__ __forceinline__ W fx_float_to_int(F v)
{
#ifdef __CUDA_ARCH__
    W r;
    fx_rzi(r, v);
    return r;
#else
    const F top = (F)((double)((unsigned long long)1 << (8 * sizeof(W) - 1))); /* 2^(bits-1), exact */
    if (v != v) /* cvt.rzi: 0 from a float into 32 bits, the minimum from a double or into 64 */
        return sizeof(W) == 8 || sizeof(F) == 8 ? (W)(0 - ((unsigned long long)1 << (8 * sizeof(W) - 1))) : (W)0;
    if (v >= top)
        return (W)(((unsigned long long)1 << (8 * sizeof(W) - 1)) - 1);
    if (v < -top)
        return (W)(0 - ((unsigned long long)1 << (8 * sizeof(W) - 1)));
    return (W)v;
#endif
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

/* An unfused & | ^ of two 1-byte arrays (bool, u8, i8), or ~ of one, on a
 * whole aligned chunk of 16 elements: four 32-bit words at once. On bools (0
 * or 1 a byte) & | ^ are the bitwise ops and ~ flips the low bit of each
 * byte; on u8 and i8 every op is bitwise. Byte for byte what the per-element
 * path computes (tests/shapes/cpu_check runs both). */
enum { FX_WORD_AND, FX_WORD_OR, FX_WORD_XOR, FX_WORD_NOT, FX_WORD_NOT_BOOL };
template <int OP> __device__ __forceinline__ unsigned fx_word_op(unsigned a, unsigned b)
{
    return OP == FX_WORD_AND ? a & b
           : OP == FX_WORD_OR ? a | b
           : OP == FX_WORD_XOR ? a ^ b
           : OP == FX_WORD_NOT ? ~a
                               : a ^ 0x01010101u;
}
template <int OP, typename T, typename U, typename R, typename I>
__device__ __forceinline__ void fx_words16(const T *__restrict__ a, const U *__restrict__ b, R *__restrict__ r, I i)
{
    static_assert(sizeof(T) == 1 && sizeof(U) == 1 && sizeof(R) == 1, "1-byte arrays");
    const uint4 x = *reinterpret_cast<const uint4 *>(a + i);
    const uint4 y = *reinterpret_cast<const uint4 *>(b + i);
    const uint4 z = {fx_word_op<OP>(x.x, y.x), fx_word_op<OP>(x.y, y.y), fx_word_op<OP>(x.z, y.z),
                     fx_word_op<OP>(x.w, y.w)};
    *reinterpret_cast<uint4 *>(r + i) = z;
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
#ifndef FX_SMALL_BLOCKS /* tests/shapes/cpu.sh sets it to 1: every grid takes the full E */
#define FX_SMALL_BLOCKS 1024
#endif

/* A compute-heavy fused kernel moves two vectors a thread only when that
 * grid has at least this many blocks (124 an SM on 132 SMs: about 8 waves at
 * full occupancy; 2^24 elements of an f32 chain, 2^23 of an f64 one); below
 * it, one vector a thread and twice the threads. On an H100 one vector was
 * 3.6-6.8% faster at 2^20 elements on f32 and f64 transcendental chains, and
 * up to 12% from 4096 to 16384 blocks of the two-vector grid: geometric mean
 * 0.985 over nine busy chains at 2^21-2^24 (session 32, call 2; docs/cuda.md,
 * "Kernel shape"). */
#ifndef FX_WIDE_BLOCKS /* tests/shapes/cpu.sh sets it to 1: every grid takes the full E */
#define FX_WIDE_BLOCKS 16384
#endif

/* A compute-heavy fused kernel (its issue slots take at least its bytes'
 * time) whose grid at half the elements would still have fewer blocks than
 * this runs with one element per thread: its long serial work per element
 * spread over as many SMs as the elements reach (docs/cuda.md). */
#ifndef FX_TINY_BLOCKS /* tests/shapes/cpu.sh sets it to 1: every grid takes the full E */
#define FX_TINY_BLOCKS 256
#endif

/* The most elements a kernel's 32-bit instance (I = unsigned) indexes; past it
 * the host launches the size_t instance. tests/shapes/cpu.sh sets it to 0, so
 * that every launch takes the 64-bit instances on the host. */
#ifndef FX_INDEX32_MAX
#define FX_INDEX32_MAX 0x7fffffffu
#endif

/* Threads per block, and the grid for n elements at E per thread: one chunk
 * per thread, as eager's and Inductor's kernels take (no grid-stride loop).
 * The largest grid, 2^31 - 1 blocks, covers FX_MAX_ELEMS elements one a
 * thread (2^38: more than any GPU's memory holds); the APIs refuse more. */
#define FX_THREADS 128
#define FX_MAX_ELEMS ((size_t)0x7fffffff * FX_THREADS)
static inline unsigned fx_blocks(size_t n, int e)
{
    size_t per_block = (size_t)FX_THREADS * e;
    size_t b = (n + per_block - 1) / per_block;
    return (unsigned)(b == 0 ? 1 : b > 0x7fffffffu ? 0x7fffffffu : b);
}

/* The grid of a kernel over n elements, E a thread: a thread for each whole
 * chunk of E, then one for each element of the tail (n % E of them), so that
 * the tail's elements load side by side and need no launch of their own. An
 * unfused thread that took the tail's E - 1 elements one after another waited
 * for each load in turn: 0.2-0.5 us more at 2^12-2^16 elements when n is not a
 * multiple of E (call 2 of session 28); the fused call launched a second
 * kernel for its tail, about 2 us cold (docs/cuda.md). */
static inline __attribute__((unused)) unsigned fx_tail_blocks(size_t n, int e)
{
    return fx_blocks(n / (size_t)e + n % (size_t)e, 1);
}

/* A light unfused kernel in eager's shape (ATen's vectorized_elementwise_kernel
 * in torch 2.11: 8 elements a thread, vectors of 16 bytes of the output): a
 * block takes FX_THREADS * E elements from its base, each thread E of them in
 * vectors of V, FX_THREADS vectors apart, so that each access of a warp is
 * one contiguous run. fx_load_apart and fx_store_apart move a thread's share
 * of a whole block by vectors, the first at i (base + V * the thread's index);
 * fx_load_rest and fx_store_rest the last block's (or any block's, for
 * misaligned pointers) one element at a time, FX_THREADS apart from i (base +
 * the thread's index), every load issued before the first use. */
template <int E, int V, typename T, typename I>
__device__ __forceinline__ void fx_load_apart(T (&r)[E], const T *__restrict__ p, I i)
{
#pragma unroll
    for (int c = 0; c < E / V; c++) {
        T v[V];
        fx_load<V>(v, p, i + (I)(c * FX_THREADS * V), (I)0, true);
#pragma unroll
        for (int e = 0; e < V; e++)
            r[c * V + e] = v[e];
    }
}
template <int E, int V, typename T, typename I>
__device__ __forceinline__ void fx_store_apart(T *__restrict__ p, I i, const T (&r)[E])
{
#pragma unroll
    for (int c = 0; c < E / V; c++) {
        T v[V];
#pragma unroll
        for (int e = 0; e < V; e++)
            v[e] = r[c * V + e];
        fx_store<V>(p, i + (I)(c * FX_THREADS * V), (I)0, true, v);
    }
}
template <int E, typename T, typename I>
__device__ __forceinline__ void fx_load_rest(T (&r)[E], const T *__restrict__ p, I i, I n)
{
#pragma unroll
    for (int e = 0; e < E; e++) {
        const I j = i + (I)(e * FX_THREADS);
        r[e] = j < n ? p[j] : T();
    }
}
template <int E, typename T, typename I>
__device__ __forceinline__ void fx_store_rest(T *__restrict__ p, I i, I n, const T (&r)[E])
{
#pragma unroll
    for (int e = 0; e < E; e++) {
        const I j = i + (I)(e * FX_THREADS);
        if (j < n)
            p[j] = r[e];
    }
}

/* When true, every kernel takes its scalar path, the one misaligned
 * pointers take (the fused kernel at E = 1, one element a thread, for all of
 * n): the harness verifies each version both ways.
 * Always false in a library. */
static bool fx_scalar_only = false;

/* True when p is aligned for vector accesses of e elements of size bytes. */
static inline bool fx_aligned(const void *p, int e, int size)
{
    return ((uintptr_t)p % (uintptr_t)(e * size)) == 0;
}

/* A broadcast operand of an unfused kernel (and of a shaped chain's flat
 * fused kernel, fx_gather), as PyTorch's TensorIterator sees it: the result's sizes, innermost first, and the operand's strides in
 * elements (0 along a dim it is broadcast on). Each element's offset takes a
 * divide and a multiply per dim (TensorIterator's OffsetCalculator), which is
 * why eager runs broadcast operands on its slower, non-vectorized path. As
 * there (IntDivider), a 32-bit index divides by a multiply and a shift:
 * q = (umulhi(i, mul) + i) >> shift, exact for i and the size below 2^31,
 * with shift the smallest s such that 2^s >= size and mul = 2^32 (2^s - size)
 * / size + 1 (fx_bcast_magic fills them on the host); a 64-bit index divides. */
typedef struct FxBcast {
    int rank;
    unsigned long long size[4], stride[4];
    unsigned mul[4], shift[4];
} FxBcast;

static inline __attribute__((unused)) void fx_bcast_magic(FxBcast *b)
{
    for (int d = 0; d < b->rank; d++) {
        unsigned s = 0;
        while (s < 31 && (1ull << s) < b->size[d])
            s++;
        b->shift[d] = s;
        b->mul[d] = b->size[d] > 0 && b->size[d] < (1ull << 31)
                        ? (unsigned)(((1ull << 32) * ((1ull << s) - b->size[d])) / b->size[d] + 1)
                        : 0; /* the 64-bit index then, which divides */
    }
}

__host__ __device__ __forceinline__ unsigned fx_bcast_div(const FxBcast &b, int d, unsigned i)
{
#ifdef __CUDA_ARCH__
    return (__umulhi(i, b.mul[d]) + i) >> b.shift[d];
#else
    return ((unsigned)(((unsigned long long)i * b.mul[d]) >> 32) + i) >> b.shift[d];
#endif
}
__host__ __device__ __forceinline__ size_t fx_bcast_div(const FxBcast &b, int d, size_t i) { return i / b.size[d]; }

template <typename I>
__host__ __device__ __forceinline__ I fx_bcast_offset(const FxBcast &b, I i)
{
    I off = 0;
#pragma unroll
    for (int d = 0; d < 4; d++)
        if (d < b.rank) {
            const I q = fx_bcast_div(b, d, i);
            off += (i - q * (I)b.size[d]) * (I)b.stride[d];
            i = q;
        }
    return off;
}

/* The offset of element i of a result in an operand whose FxBcast has R dims
 * (R known when the kernel compiles, so the loop unrolls to R - 1 divides):
 * the outermost dim's coordinate is what the divides leave, since i is in the
 * result. The fused kernel's gather (fx_gather); its FxBcast covers the whole
 * result, neighbouring dims merged where the operand varies alike along them
 * (emit_cuda.c, bcast_init), so the dims alternate between varying and not.
 * With two dims, the usual epilogue inputs ([C], [R, 1]), that fixes the
 * strides: {1, 0} for one that varies along the last dim (ALONG), {0, 1} for
 * one that does not; the offset is then i's remainder or its quotient, with
 * no strides read or multiplied. */
template <int R, bool ALONG, typename I>
__device__ __forceinline__ I fx_gather_offset(const FxBcast &b, I i)
{
    if (R == 2) {
        const I q = fx_bcast_div(b, 0, i);
        return ALONG ? i - q * (I)b.size[0] : q;
    }
    I off = 0;
#pragma unroll
    for (int d = 0; d + 1 < R; d++) {
        const I q = fx_bcast_div(b, d, i);
        off += (i - q * (I)b.size[d]) * (I)b.stride[d];
        i = q;
    }
    return off + i * (I)b.stride[R - 1];
}

/* A broadcast operand's E elements for elements [i, i + E) of the result, from
 * the cache. RUN: the E elements lie in one run of the result's last dim (the
 * host launches such an instance only when the last dim is a multiple of E,
 * and i is a multiple of E), so one offset serves them all: an operand that
 * varies along the last dim (ALONG: [C], [R, 1, C]) holds them side by side,
 * loaded as one vector (the host checks its alignment), and one that does not
 * ([R, 1]) holds one element for all E. Else (a last dim that is not a
 * multiple of E) each at its own offset. Elements [i, i + E) are in range
 * (the fused kernel's whole chunk, or its one element of the tail). */
template <int E, int R, bool RUN, bool ALONG, typename T, typename I>
__device__ __forceinline__ void fx_gather(T (&r)[E], const T *__restrict__ p, const FxBcast &b, I i)
{
    if (RUN) {
        const I off = fx_gather_offset<R, ALONG>(b, i);
        if (ALONG) {
            fx_load<E>(r, p, off, off + (I)E, true);
        } else {
            const T v = p[off];
#pragma unroll
            for (int e = 0; e < E; e++)
                r[e] = v;
        }
    } else {
#pragma unroll
        for (int e = 0; e < E; e++)
            r[e] = p[fx_gather_offset<R, ALONG>(b, i + (I)e)];
    }
}

#endif /* FUSEC_KERNEL_CUH */

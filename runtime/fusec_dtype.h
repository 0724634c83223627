/*
 * fusec_dtype.h: every fact about a dtype, one row each.
 *
 * Compiled into the fusec compiler (C11) and embedded verbatim in every
 * emitted .cu (C++): the compiler, the kernels' conversions, the host
 * reference and the harness all read their dtype facts from the one table
 * below, as src/ops.def is for the operations. Adding a dtype is one row
 * here (and its conversions in fusec_kernel.cuh, its rounding rule where the
 * row's numbers do not say it all).
 *
 * FUSEC_DTYPES(X) calls X once per dtype, in enum order (FX_BOOL, ...):
 *   X(ENUM, name, size, store, api, ctype, compute, kind, prec, emin, emax, max_finite, frag_eps, rtol, atol,
 *     aten, torch, via, inf)
 *   name        its spelling in .fuse, messages and fx_to_<name> (a token)
 *   size        bytes of one element in memory
 *   store       the C type of an element in kernels (fusec_kernel.cuh)
 *   api         the C type of the API's pointers (no CUDA header needed)
 *   ctype       the C type its arithmetic runs in (ATen's opmath type)
 *   compute     that compute type as a dtype (FX_<compute>)
 *   kind        FX_KIND_BOOL, FX_KIND_FLOAT or FX_KIND_INT
 *   prec        significant bits (the implicit one included; bool: 1; an
 *               integer: its value bits, numeric_limits::digits: 8 for u8,
 *               7 for i8, so that it is signed when prec < 8 * size)
 *   emin, emax  smallest and largest normal exponent (bool, integers: 0)
 *   max_finite  the largest finite value
 *   frag_eps    relative distance to a jump under which the reference
 *               calls an element fragile: about 4 ulps, since an unfused
 *               intermediate may round to the neighbouring value
 *   rtol, atol  the harness's default tolerance for an output of the dtype
 *               (|got - ref| <= atol + rtol |ref|)
 *   aten, torch PyTorch's names of the dtype, in C++ (at::ScalarType) and in
 *               Python: the ops of --emit=torch check and allocate with them
 *   via         integers: the bytes of the signed type a float converts
 *               through, saturating, before the bits are cut to the
 *               dtype's (NaN gives 0 through 4 bytes, the minimum through
 *               8): c10::convert on CUDA is a static_cast, which nvcc
 *               compiles to cvt.rzi.s32 for i8, i16 and i32 (PTX has no
 *               8-bit registers; i16(inf) is -1 in eager) and .s64 for
 *               i64, and which c10 routes through int64_t for u8
 *               (static_cast_with_inter_type); 0 for the others
 *   inf         a float: 1 when its top exponent holds inf and NaN (IEEE
 *               754: overflow gives inf); 0 for f8e4m3 (torch.float8_e4m3fn,
 *               "fn": finite, no inf), whose top exponent holds numbers up to
 *               max_finite and one NaN code (S.1111.111): overflow and inf
 *               give NaN; bool and integers: 0
 * The fp8 rows: their values come from f32 arithmetic (compute F32), whose
 * frag_eps they take; an fp8 output is compared exactly (rtol, atol 0), the
 * reference marking elements next to a rounding boundary (fusec_ref.h).
 * Columns that are tokens (name, store, api, ctype, aten, torch) are stringized (#name)
 * by the compiler and pasted (fx_to_##name) by the CUDA side.
 */
#ifndef FUSEC_DTYPE_H
#define FUSEC_DTYPE_H

enum { FX_KIND_BOOL, FX_KIND_FLOAT, FX_KIND_INT };

/* PyTorch's Float8 types are the floats of one byte: they have no
 * arithmetic and no promotion (docs/language.md, "fp8"), only casts. */
#define FX_IS_FP8(dt) (fusec_dtype[dt].kind == FX_KIND_FLOAT && fusec_dtype[dt].size == 1)

/* clang-format off */
#define FUSEC_DTYPES(X) \
  /* ENUM    name    size store          api       ctype    compute kind           prec  emin   emax  max_finite              frag_eps                           rtol    atol    aten                torch                via inf */ \
    X(BOOL,   bool,   1,   bool,          uint8_t,  bool,    BOOL,   FX_KIND_BOOL,  1,    0,     0,    1.0,                    0.0,                               0.0,    0.0,    at::kBool,          torch.bool,          0,  0) \
    X(F16,    f16,    2,   __half,        uint16_t, float,   F32,    FX_KIND_FLOAT, 11,   -14,   15,   65504.0,                3.90625e-3 /* 2^-8 */,             2e-3,   2e-3,   at::kHalf,          torch.float16,       0,  1) \
    X(BF16,   bf16,   2,   __nv_bfloat16, uint16_t, float,   F32,    FX_KIND_FLOAT, 8,    -126,  127,  3.3895313892515355e38,  3.125e-2 /* 2^-5 */,               1.6e-2, 1.6e-2, at::kBFloat16,      torch.bfloat16,      0,  1) \
    X(F32,    f32,    4,   float,         float,    float,   F32,    FX_KIND_FLOAT, 24,   -126,  127,  3.4028234663852886e38,  9.5367431640625e-7 /* 2^-20 */,    1e-5,   1e-5,   at::kFloat,         torch.float32,       0,  1) \
    X(F64,    f64,    8,   double,        double,   double,  F64,    FX_KIND_FLOAT, 53,   -1022, 1023, 1.7976931348623157e308, 3.552713678800501e-15 /* 2^-48 */, 1e-9,   1e-9,   at::kDouble,        torch.float64,       0,  1) \
    X(U8,     u8,     1,   uint8_t,       uint8_t,  uint8_t, U8,     FX_KIND_INT,   8,    0,     0,    255.0,                  0.0,                               0.0,    0.0,    at::kByte,          torch.uint8,         8,  0) \
    X(I8,     i8,     1,   int8_t,        int8_t,   int8_t,  I8,     FX_KIND_INT,   7,    0,     0,    127.0,                  0.0,                               0.0,    0.0,    at::kChar,          torch.int8,          4,  0) \
    X(I16,    i16,    2,   int16_t,       int16_t,  int16_t, I16,    FX_KIND_INT,   15,   0,     0,    32767.0,                0.0,                               0.0,    0.0,    at::kShort,         torch.int16,         4,  0) \
    X(I32,    i32,    4,   int32_t,       int32_t,  int32_t, I32,    FX_KIND_INT,   31,   0,     0,    2147483647.0,           0.0,                               0.0,    0.0,    at::kInt,           torch.int32,         4,  0) \
    X(I64,    i64,    8,   int64_t,       int64_t,  int64_t, I64,    FX_KIND_INT,   63,   0,     0,    9223372036854775807.0,  0.0,                               0.0,    0.0,    at::kLong,          torch.int64,         8,  0) \
    X(F8E4M3, f8e4m3, 1,   FxF8e4m3,      uint8_t,  float,   F32,    FX_KIND_FLOAT, 4,    -6,    8,    448.0,                  9.5367431640625e-7 /* f32's */,    0.0,    0.0,    at::kFloat8_e4m3fn, torch.float8_e4m3fn, 0,  0) \
    X(F8E5M2, f8e5m2, 1,   FxF8e5m2,      uint8_t,  float,   F32,    FX_KIND_FLOAT, 3,    -14,   15,   57344.0,                9.5367431640625e-7 /* f32's */,    0.0,    0.0,    at::kFloat8_e5m2,   torch.float8_e5m2,   0,  1)
/* clang-format on */

enum {
#define FX_DT_ENUM(E, ...) FX_##E,
    FUSEC_DTYPES(FX_DT_ENUM)
#undef FX_DT_ENUM
    FX_NDTYPES
};

/* The numeric columns, for code that looks a dtype up at run time. */
typedef struct FusecDtype {
    const char *name;
    int size;
    int compute; /* FX_* */
    int kind;    /* FX_KIND_* */
    int prec, emin, emax;
    double max_finite, frag_eps, rtol, atol;
    int via;
    int inf;
} FusecDtype;

static const FusecDtype fusec_dtype[FX_NDTYPES] = {
#define FX_DT_ROW(E, name, size, store, api, ctype, compute, kind, prec, emin, emax, maxf, eps, rtol, atol, aten, \
                  torch, via, inf)                                                                                \
    {#name, size, FX_##compute, kind, prec, emin, emax, maxf, eps, rtol, atol, via, inf},
    FUSEC_DTYPES(FX_DT_ROW)
#undef FX_DT_ROW
};

/* The two columns read most, by their old names. */
#define FX_DT_NAME(E, name, ...) #name,
#define FX_DT_SIZE(E, name, size, ...) size,
static const char *const fusec_dtype_name[FX_NDTYPES] = {FUSEC_DTYPES(FX_DT_NAME)};
static const int fusec_dtype_size[FX_NDTYPES] = {FUSEC_DTYPES(FX_DT_SIZE)};
#undef FX_DT_NAME
#undef FX_DT_SIZE

#endif /* FUSEC_DTYPE_H */

/*
 * ops.c: the code of the operation table (ops.def): each op's row, its
 * spelling, the builtin a name calls, what an op gives on literals (folding)
 * and what it costs the time model.
 */
#include <math.h>
#include <string.h>

#include <strings.h>

#include "fusec.h"
#include "fusec_ref.h"

const OpInfo op_info[O_COUNT] = {
    [O_CONST] = {"constant", 0, K_LEAF, 0, 0},
    [O_NAME] = {"name", 0, K_LEAF, 0, 0},
    [O_INPUT] = {"input", 0, K_LEAF, 0, 0},
    [O_PARAM] = {"param", 0, K_LEAF, 0, 0},
    [O_COPY] = {"copy", 1, K_ARITH, 0, 0},
#define OP(e, s, ar, k, fl, tr, ints) [O_##e] = {s, ar, k, fl, tr, ints},
#include "ops.def"
#undef OP
};

/* Infix spellings, for messages and the emitted code. */
static const char *const infix[O_COUNT] = {
    [O_NEGATE] = "-", [O_ADD] = "+", [O_SUB] = "-", [O_MUL] = "*", [O_DIV] = "/", [O_LT] = "<",
    [O_LE] = "<=",    [O_GT] = ">",  [O_GE] = ">=", [O_EQ] = "==", [O_NE] = "!=", [O_REM] = "%",
    [O_FLOORDIV] = "//", [O_AND] = "&", [O_OR] = "|", [O_XOR] = "^", [O_NOT] = "~", [O_SHL] = "<<",
    [O_SHR] = ">>",
};

/* The infix operators as words, for C identifiers. */
static const char *const infix_word[O_COUNT] = {
    [O_NEGATE] = "neg", [O_ADD] = "add", [O_SUB] = "sub", [O_MUL] = "mul", [O_DIV] = "div", [O_LT] = "lt",
    [O_LE] = "le",      [O_GT] = "gt",   [O_GE] = "ge",   [O_EQ] = "eq",   [O_NE] = "ne",
    [O_REM] = "remainder", [O_FLOORDIV] = "floor_divide", [O_AND] = "and", [O_OR] = "or", [O_XOR] = "xor",
    [O_NOT] = "not", [O_SHL] = "shl", [O_SHR] = "shr",
};

const char *op_name(Op op) { return infix[op] ? infix[op] : op_info[op].name; }

const char *op_word(Op op) { return infix_word[op] ? infix_word[op] : op_info[op].name; }

bool op_is_builtin(Op op) { return op > O_COPY && op_info[op].name[0] != 0; }

int op_lookup(const char *s, size_t len)
{
    for (int i = 0; i < O_COUNT; i++)
        if (op_info[i].name[0] == s[0] && op_is_builtin((Op)i) && strlen(op_info[i].name) == len &&
            memcmp(op_info[i].name, s, len) == 0)
            return i;
    return -1;
}

/* Evaluates op on constants in double: what Python computes for a
 * literal-only subexpression. Casts round to the named dtype. */
double op_fold(Op op, const double *a)
{
    switch (op) {
    case O_NEGATE: return -a[0];
    case O_ADD: return a[0] + a[1];
    case O_SUB: return a[0] - a[1];
    case O_MUL: return a[0] * a[1];
    case O_DIV: return a[0] / a[1];
    case O_LT: return a[0] < a[1];
    case O_LE: return a[0] <= a[1];
    case O_GT: return a[0] > a[1];
    case O_GE: return a[0] >= a[1];
    case O_EQ: return a[0] == a[1];
    case O_NE: return a[0] != a[1];
    case O_REM: return ref_py_mod(a[0], a[1]);
    case O_FLOORDIV: return ref_floor_divide(a[0], a[1]);
    case O_AND: return (a[0] != 0) & (a[1] != 0);
    case O_OR: return (a[0] != 0) | (a[1] != 0);
    case O_XOR: return (a[0] != 0) ^ (a[1] != 0);
    case O_NOT: return a[0] == 0;
#define DT_CAST(E, ...) case O_CAST_##E: return ref_round(a[0], FX_##E);
    FUSEC_DTYPES(DT_CAST)
#undef DT_CAST
    case O_COPY: return a[0];
#define U1(e, f) case O_##e: return ref_##f(a[0]);
#define U2(e, f) case O_##e: return ref_##f(a[0], a[1]);
    U1(ABS, abs) U1(NEG, neg) U1(RELU, relu) U1(SIGMOID, sigmoid) U1(TANH, tanh) U1(EXP, exp)
    U1(EXP2, exp2) U1(EXPM1, expm1) U1(LOG, log) U1(LOG2, log2) U1(LOG1P, log1p) U1(SQRT, sqrt)
    U1(RSQRT, rsqrt) U1(RECIPROCAL, reciprocal) U1(SIN, sin) U1(COS, cos) U1(ERF, erf)
    U1(FLOOR, floor) U1(CEIL, ceil) U1(ROUND, roundeven) U1(TRUNC, trunc) U1(SIGN, sign) U1(GELU, gelu)
    U1(GELU_TANH, gelu_tanh) U1(SILU, silu) U1(SOFTPLUS, softplus) U1(MISH, mish) U1(HARDSIGMOID, hardsigmoid)
    U1(HARDSWISH, hardswish) U2(LEAKY_RELU, leaky_relu) U2(MIN, min) U2(MAX, max) U2(POW, pow)
#undef U1
#undef U2
    case O_CLAMP: return ref_clamp(a[0], a[1], a[2]);
    case O_WHERE: return a[0] != 0 ? a[1] : a[2];
    default: return NAN;
    }
}

/* Integer literals as Python's ints, which never overflow: a result beyond
 * 64 bits is an error (no tensor could hold it). // and % floor, with the
 * divisor's sign; >> of a negative count is an error, as in Python. */
const char *op_fold_int(Op op, const int64_t *a, int64_t *r)
{
    int64_t x = a[0], y = a[1];
    switch (op) {
    case O_NEGATE:
    case O_NEG: return __builtin_sub_overflow((int64_t)0, x, r) ? "integer overflow" : NULL;
    case O_ADD: return __builtin_add_overflow(x, y, r) ? "integer overflow" : NULL;
    case O_SUB: return __builtin_sub_overflow(x, y, r) ? "integer overflow" : NULL;
    case O_MUL: return __builtin_mul_overflow(x, y, r) ? "integer overflow" : NULL;
    case O_FLOORDIV:
    case O_REM: {
        if (y == 0)
            return op == O_REM ? "modulo by zero" : "division by zero";
        if (x == INT64_MIN && y == -1) {
            *r = 0;
            return op == O_REM ? NULL : "integer overflow";
        }
        int64_t q = x / y, m = x % y;
        if (m != 0 && (m < 0) != (y < 0)) {
            q -= 1;
            m += y;
        }
        *r = op == O_REM ? m : q;
        return NULL;
    }
    case O_LT: *r = x < y; return NULL;
    case O_LE: *r = x <= y; return NULL;
    case O_GT: *r = x > y; return NULL;
    case O_GE: *r = x >= y; return NULL;
    case O_EQ: *r = x == y; return NULL;
    case O_NE: *r = x != y; return NULL;
    case O_AND: *r = x & y; return NULL;
    case O_OR: *r = x | y; return NULL;
    case O_XOR: *r = x ^ y; return NULL;
    case O_NOT: *r = ~x; return NULL;
    case O_SHL:
        if (y < 0)
            return "negative shift count";
        if (x == 0) {
            *r = 0;
            return NULL;
        }
        if (y >= 63 || (x > 0 ? x > INT64_MAX >> y : x < INT64_MIN >> y))
            return "integer overflow";
        *r = (int64_t)((uint64_t)x << y);
        return NULL;
    case O_SHR:
        if (y < 0)
            return "negative shift count";
        y = y > 63 ? 63 : y;
        *r = x < 0 ? ~(~x >> y) : x >> y;
        return NULL;
    case O_ABS:
        if (x == INT64_MIN)
            return "integer overflow";
        *r = x < 0 ? -x : x;
        return NULL;
    case O_RELU: *r = x > 0 ? x : 0; return NULL;
    case O_SIGN: *r = (x > 0) - (x < 0); return NULL;
    case O_FLOOR:
    case O_CEIL:
    case O_ROUND:
    case O_TRUNC:
    case O_COPY: *r = x; return NULL;
    case O_MIN: *r = x < y ? x : y; return NULL;
    case O_MAX: *r = x > y ? x : y; return NULL;
    case O_CLAMP: /* max, then min: lo > hi gives hi */
        *r = x < y ? y : x;
        *r = *r > a[2] ? a[2] : *r;
        return NULL;
    case O_WHERE: *r = x ? y : a[2]; return NULL;
    case O_POW: { /* y >= 0: ir.c folds a negative exponent as a float */
        int64_t p = 1, b = x;
        for (; y > 0; y >>= 1) {
            if ((y & 1) && __builtin_mul_overflow(p, b, &p))
                return "integer overflow";
            if (y > 1 && __builtin_mul_overflow(b, b, &b))
                return "integer overflow";
        }
        *r = p;
        return NULL;
    }
    default: return "no integer rule (a bug in fusec)";
    }
}

/* What each form of pow(a, c) costs (PowForm): flops and transcendentals
 * as the language counts them, and issue slots as opcost.def measures the
 * form (f32, f64; f64 times 1.25 as in opcost.def). */
static const struct {
    int flops, trans;
    double s32, s64;
} pow_costs[] = {
    [POW_SQUARE] = {1, 0, 1, 1},
    [POW_CUBE] = {2, 0, 2, 2},
    [POW_RECIPROCAL] = {1, 0, 11.7, 9.6},
    [POW_RECIP_SQUARE] = {2, 0, 12.7, 10.9},
    [POW_SQRT] = {0, 1, 11.1, 16.6},
    [POW_RSQRT] = {0, 1, 6.0, 11.0},
};

/* Issue slots per element (opcost.def): 0 where the op has no row. */
static const struct {
    double s32, fast, s64;
} op_slots[O_COUNT] = {
#define COST(e, a, f, d) [O_##e] = {a, f, d},
#include "opcost.def"
#undef COST
};

PowForm op_pow_form(double c, double r)
{
    return c == 0.5    ? POW_SQRT
           : c == -0.5 ? POW_RSQRT
           : c == -1   ? POW_RECIPROCAL
           : r == 2    ? POW_SQUARE
           : r == 3    ? POW_CUBE
           : r == -2   ? POW_RECIP_SQUARE
                       : POW_NUMBER;
}

void op_cost(const Inst *in, int *flops, int *trans)
{
    bool special = in->op == O_POW && in->form >= POW_SQUARE && in->form <= POW_RSQRT;
    *flops = special ? pow_costs[in->form].flops : op_info[in->op].flops;
    *trans = special ? pow_costs[in->form].trans : op_info[in->op].trans;
}

/* % and // of floats: fmod, a branch for |a| < |b|, the quotient's path
 * and its off-by-one fixes (its loop only for quotients past 2^23), then
 * torch's sign and floor fixes. Measured inside fusec's fused kernel on
 * random data by bench/opcost_fused.py (rows rem_over_t, rem_num,
 * floordiv_over_t, floordiv_num: 2.5 % x, x % 0.75, 7 // x, x // 0.75, x
 * uniform in [-3, 3); call 1 of session 21, on an H100): 15-29% over
 * bench/opcost.cu's rows for f32 (run 10 of 2026-12-01), whose smooth
 * per-thread values let whole warps take one branch, which the harness's
 * random inputs never do; golden operators' fused kernel ran 21% over its
 * prediction at 2^24 and 2^28 with those (call 1 of session 19). */
static const struct {
    double s32, s64;
} fmod_costs[2][2] = {
    {{38.1, 107.9}, {25.2, 69.1}}, /* REM: by a tensor, by a number */
    {{75.4, 138.5}, {38.9, 70.6}}, /* FLOORDIV */
};
/* f32 // by a tensor on its fast path (fx_floor_fast, runtime/fusec_ops.cuh:
 * one div.full.f32, a truncation, one or two fmas, the fixes), which every
 * f32 kernel and the fused kernel of any float dtype take since session 34:
 * 37 instructions an element on the path where eager's form (fmodf and two
 * IEEE divisions) ran 62 (SASS of nvcc 13, sm_90, a kernel of that op
 * alone). Measured 46.2 inside fusec's fused kernel on the harness's values
 * (bench/opcost_fused.py's floordiv_over_t, --data harness, 2^26 elements:
 * call 1 of session 36, an H100; the estimate before, 75.4 times 37 / 62,
 * was 45.0). */
#define FLOORDIV_FAST_T_S32 46.2

/* % and // of integers (fx_int_remainder, fx_int_floor_divide), in fp32
 * FMAs: a divide at run time by a tensor or a param, and by a literal, which
 * both versions inline; u8, i8 and i16 divide in float (a reciprocal, a
 * multiply and a conversion: by a literal too), i32 and i64 by nvcc's
 * division (by a literal a multiply-high; i64: a subroutine, its slow path
 * for operands beyond 2^32). Measured inside fusec's fused kernel by
 * bench/opcost_fused.py (rows rem_t, rem_n, floordiv_t, floordiv_n; narrow:
 * the mean of i8 and i16, call 3 of session 18, docs/results.md; i32 and
 * i64: call 1 of session 21, on an H100, each term by its own divisor: the
 * rows of call 15 of 2026-12-03 divided every term by one, and // by a
 * tensor, 46.6 and 148.9 then, is 75.1 and 317.5 so). The i64 // by a
 * tensor is 149.6 since session 38: its chain of 8 runs under the fused
 * kernel's bound of 32 registers (172 bytes spilled), and its price falls
 * with fewer terms, 319.2 at 8, 250.0 at 4, 145.8 at 3, 151.4 and 151.6 at
 * 2 (calls 4-5 of session 38, an H100; 149.6 their mean at 2 and 3), while
 * the i64 % and the i32 // stay within 4% at 2, 4 and 8 terms (the i32 %
 * at 4 and 8); without the bound the chain of 8 ran at 149.6's time
 * (call 6). Random program 38's fused kernel, one i64 // by a tensor and
 * no spill, had run 0.68 of the time 317.5 gave. *, << and >> stayed
 * memory-bound at 8 applications a chain and cost their flops. */
static const struct {
    double narrow, i32, i64;
} idiv_costs[2][2] = {
    {{15.7, 39.0, 137.8}, {14.2, 11.1, 47.8}}, /* REM: by a tensor or a param, by a literal */
    {{15.1, 75.1, 149.6}, {13.5, 12.8, 45.4}}, /* FLOORDIV */
};

double op_slots_of(const Inst *in, int form, bool fp64, bool by_number, const Inst *literal, bool fused, const OpSlots *own)
{
    if (in->op == O_POW && form >= POW_SQUARE && form <= POW_RSQRT)
        return fp64 ? pow_costs[form].s64 : pow_costs[form].s32;
    bool is_float = fusec_dtype[in->ct].kind == FX_KIND_FLOAT;
    bool half = in->dtype == FX_F16 || in->dtype == FX_BF16; /* the result's dtype */
    bool by_zero = literal && literal->value == 0; /* value: an integer literal's ival too, a bool's 0 or 1 */
    /* By a literal zero (the PTX of nvcc 13, session 20): nvcc folds the
     * by-zero test of fx_floor_divide_by (//), fx_int_floor_divide (//) and
     * fx_int_remainder (%) (the quotient's code is then dead), leaving
     * a * (1 / 0) on floats and a select on integers; f64 fmod tests for a zero divisor
     * first and returns NaN (about 12 instructions with fx_remainder's sign
     * test). f32 fmodf(a, 0) measured 15.4 (bench/opcost_fused.py's rem_zero,
     * call 1 of session 21, on an H100: its loop does not run; session 20 had
     * priced the whole loop from the SASS, 112); the rest by zero stayed
     * memory-bound there. */
    if (by_zero && in->op == O_FLOORDIV && is_float)
        return fp64 ? op_slots[O_MUL].s64 : op_slots[O_MUL].s32;
    if (by_zero && !is_float && (in->op == O_REM || in->op == O_FLOORDIV))
        return 2 * op_slots[O_ADD].s32;
    if (by_zero && in->op == O_REM)
        return fp64 ? 12 * op_slots[O_ADD].s64 : 15.4;
    /* the fused kernel's a / 0 (fx_div; unfused: a times 1 / 0, folded) is an
     * IEEE division whose check (FCHK, DSETP) sends every element down the
     * slow path: about 30 more instructions of its SASS; measured 38 more for
     * f32 and 35 for f64 (div_zero against div, call 1 of session 21) */
    if (by_zero && fused && in->op == O_DIV && !half)
        return fp64 ? op_slots[O_DIV].s64 + 35 : op_slots[O_DIV].s32 + 38;
    if (in->op == O_FLOORDIV && is_float && !by_number && !fp64 && (fused || !half))
        return FLOORDIV_FAST_T_S32;
    if ((in->op == O_REM || in->op == O_FLOORDIV) && is_float) {
        int op = in->op == O_FLOORDIV, by = by_number;
        return fp64 ? fmod_costs[op][by].s64 : fmod_costs[op][by].s32;
    }
    if (in->op == O_REM || in->op == O_FLOORDIV) {
        int op = in->op == O_FLOORDIV, by = literal != NULL;
        int size = fusec_dtype_size[in->ct];
        return size == 8 ? idiv_costs[op][by].i64 : size == 4 ? idiv_costs[op][by].i32 : idiv_costs[op][by].narrow;
    }
    /* a / b by a number: the unfused kernels (eager's form) multiply by its
     * reciprocal, once a thread, and so does the fused kernel where the
     * result is f16 or bf16 (emit_cuda.c's op_expr, fx_div_by) */
    if (in->op == O_DIV && by_number && (!fused || (!fp64 && half)))
        return fp64 ? op_slots[O_MUL].s64 : op_slots[O_MUL].s32;
    const double *row = &op_slots[in->op].s32;
    if (row[0] == 0) /* no measurement: flops, and 25 per transcendental */
        return op_info[in->op].flops + 25.0 * op_info[in->op].trans;
    bool fast = fused && !fp64 && half && row[1] > 0;
    int col = fp64 ? 2 : fast ? 1 : 0;
    if (own && own->slots[in->op][col] > 0) /* the device profile's own measurement */
        return own->slots[in->op][col];
    return row[col];
}

/* opcost.def's row names, lower case: the keys of a profile's op_slots. */
static const struct {
    const char *name;
    int op;
} cost_rows[] = {
#define COST(e, a, f, d) {#e, O_##e},
#include "opcost.def"
#undef COST
};

int op_cost_row(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(cost_rows); i++)
        if (strcasecmp(name, cost_rows[i].name) == 0)
            return cost_rows[i].op;
    return -1;
}

double op_convert_slots(int dtype, bool store)
{
    /* a half value widened when loaded, rounded when stored (opcost.def's
     * casts: to_f16 1.8, to_bf16 5.9, a widening about 1) */
    if (dtype == FX_F16)
        return store ? 1.8 : 1;
    if (dtype == FX_BF16)
        return store ? 5.9 : 1;
    return 0;
}

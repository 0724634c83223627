/*
 * emit_cuda.c: the CUDA backend. One self-contained .cu file:
 *   the runtime (fusec_kernel.cuh, fusec_ops.cuh),
 *   the unfused kernels, one per eager op, each storing its result in the
 *   storage dtype as eager does; the fused kernel; the host API
 *   P_fused / P_unfused; and, unless FUSEC_NO_HARNESS, the model
 *   (fusec_model.h), the size lists (fusec_sizes.h), the chain's description,
 *   its double reference and the timing harness (fusec_harness.cuh) with its
 *   main.
 * Also the matching C header (--emit=header). The .cu's banner lists the
 * line each part starts on: the body is emitted twice, first to a stream that
 * only counts lines (emit_cu).
 *
 * A light unfused kernel whose widest array is 4 or 8 bytes takes eager's
 * shape: 8 elements a thread in vectors FX_THREADS vectors apart
 * (emit_apart_body). Every other kernel has one shape: each thread moves E
 * elements, 16 bytes of the widest array (up to 32 in an unfused kernel with
 * a bool array: elems_per_thread), one chunk a thread with no loop (the grid covers n),
 * and past the whole chunks one element of the tail a thread in the same
 * launch (fx_tail_blocks); a scalar path takes misaligned pointers;
 * indices are 32-bit when n < 2^31 and 64-bit otherwise. A shaped
 * chain's fused kernel is the flat one over its elements in row-major
 * order, its broadcast inputs gathered (emit_fused_kernel).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusec.h"
#include "fusec_ref.h"

/* C spellings of the storage and compute types. */
/* The C types of each dtype (runtime/fusec_dtype.h): in kernels, in the API,
 * and of its arithmetic; and its enum's name. */
#define DT_STORE(E, name, size, store, ...) #store,
#define DT_API(E, name, size, store, api, ...) #api,
#define DT_CTYPE(E, name, size, store, api, ctype, ...) #ctype,
#define DT_ENUM(E, ...) "FX_" #E,
static const char *const store_t[FX_NDTYPES] = {FUSEC_DTYPES(DT_STORE)};
static const char *const api_t[FX_NDTYPES] = {FUSEC_DTYPES(DT_API)};
static const char *const compute_t[FX_NDTYPES] = {FUSEC_DTYPES(DT_CTYPE)};
static const char *const dt_enum[FX_NDTYPES] = {FUSEC_DTYPES(DT_ENUM)};
#undef DT_STORE
#undef DT_API
#undef DT_CTYPE
#undef DT_ENUM

typedef struct Emitter {
    FILE *f;
    const Chain *c;
    const Program *p;
    const Traffic *t;
    char **cname;  /* instruction -> C name of its value (inputs, params, scalars) */
    char *is_out;  /* instruction -> 1 when an output writes it */
    int *out_of;   /* instruction -> output index, -1 */
    char **in_name, **par_name; /* API names of inputs and params */
    const char **stmt_name;     /* instruction -> the name a statement gives it, or NULL */
    char *seen;                 /* scratch marks, one per instruction, kept all zero */
    int *elems; /* unfused kernel k -> its elements per thread; [nkernels]: the fused kernel's */
    int *apart; /* unfused kernel k -> V of eager's shape (vectors FX_THREADS apart: emit_unfused_kernel), 0 for none */
    bool tiny;  /* the fused kernel is compute-heavy: one element a thread for a tiny grid */
    bool wide;  /* the fused kernel moves two vectors a thread (from FX_WIDE_BLOCKS blocks on) */
    int *vnum;  /* tensor value -> its number n in v<n> (the fused kernel, the reference) */
    char **dim_name; /* a shaped program's dims, as the API's arguments: dim_R */
    /* The .cu's parts, for its table of contents: while counting, f counts
     * the lines written (count_write) and throws them away. */
    bool counting;
    int lines, nparts;
    struct {
        const char *title;
        int line; /* in the body, from 1 */
    } part[16];
} Emitter;

/* A growing string in memory: the fused kernel's argument lists can have
 * thousands of entries, so they are not built by repeated concatenation. */
static FILE *mem_open(char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    if (!f) {
        fprintf(stderr, "fusec: fatal error: out of memory\n");
        exit(1);
    }
    return f;
}

/* A part of the .cu starts on the next line: an entry of its contents. The
 * title is what that line says (the check in tests/golden.sh relies on it). */
static void part(Emitter *em, const char *title)
{
    if (!em->counting || em->nparts == (int)ARRAY_LEN(em->part))
        return;
    fflush(em->f);
    em->part[em->nparts].title = title;
    em->part[em->nparts++].line = em->lines + 1;
}

/* Pastes runtime file name, after a blank line unless it continues the
 * runtime file just pasted (the chain's code reads the same either way). */
/* runtime/name between its marker comments (nothing for an unknown name). */
static bool paste_runtime(FILE *f, const char *name)
{
    for (const RuntimeFile *r = fusec_runtime; r->name; r++)
        if (strcmp(r->name, name) == 0) {
            fprintf(f, "/* ---- runtime/%s ---- */\n", name);
            fwrite(r->text, 1, r->len, f);
            fprintf(f, "/* ---- end of runtime/%s ---- */\n", name);
            return true;
        }
    return false;
}

static void emit_runtime(Emitter *em, const char *name, const char *what, bool blank)
{
    if (blank)
        fputc('\n', em->f);
    part(em, arena_printf(em->p->arena, "runtime/%s (%s)", name, what));
    paste_runtime(em->f, name);
}

/* How a name of the .fuse file is spelled in C: with the suffix _u, always.
 * No list of bad names is ever complete (C++ keywords, the macros of the C
 * and CUDA headers such as EOF, linux or errno, CUDA's own names, fusec's):
 * a name that ends in _u is none of them, and none of the emitter's own
 * (t1, v7, c3, a0, x0, op, r, n, x_u_v arrays, P_ globals) ends in _u. The user's
 * name stays visible, here and in the comments. */
static char *c_ident(Emitter *em, const char *name)
{
    return arena_printf(em->p->arena, "%s_u", name);
}

/* Whether id is a user name's C name (c_ident) or one made from it: its
 * per-row value (_r), row pointer (_p), elements (_v) or FxBcast (_b). */
static bool user_derived(const Program *p, const char *id)
{
    static const char *const sfx[] = {"_u", "_u_r", "_u_p", "_u_v", "_u_b"};
    for (int i = 0; i < p->nsym; i++) {
        size_t k = strlen(p->sym[i].name);
        for (size_t j = 0; j < ARRAY_LEN(sfx); j++)
            if (strncmp(id, p->sym[i].name, k) == 0 && strcmp(id + k, sfx[j]) == 0)
                return true;
    }
    return false;
}

/* A constant, spelled in compute type ct (rounded to it first, as eager
 * converts a Python scalar to the op's math type). */
static void constant(char *buf, size_t len, double v, int ct)
{
    if (ct == FX_F32)
        v = (float)v;
    if (isnan(v))
        snprintf(buf, len, "%s", ct == FX_F64 ? "(double)NAN" : "NAN");
    else if (isinf(v))
        snprintf(buf, len, "%s%s", v < 0 ? "-" : "", ct == FX_F64 ? "(double)INFINITY" : "INFINITY");
    else if (ct == FX_BOOL)
        snprintf(buf, len, "%s", v != 0 ? "true" : "false");
    else {
        char num[40];
        if (ct == FX_F32) {
            for (int prec = 1; prec <= 9; prec++) {
                snprintf(num, sizeof num, "%.*g", prec, v);
                if ((float)strtod(num, NULL) == (float)v)
                    break;
            }
        } else {
            out_num(num, sizeof num, v);
        }
        bool dot = strpbrk(num, ".eE") != NULL;
        snprintf(buf, len, "%s%s%s", num, dot ? "" : ".0", ct == FX_F32 ? "f" : "");
    }
}

static bool is_int(int dt) { return fusec_dtype[dt].kind == FX_KIND_INT; }

/* The v<n> a fused version converts to store output value v: v's own, or for
 * an output that is a cast to its dtype (`y = bf16(...)`, `q = i8(...)`) the
 * cast's operand, so that the conversion runs once: converting the widened
 * value again gives the same bits, at twice the cost (a conversion to bf16
 * takes about six FMAs' issue slots, opcost.def; a memory-bound kernel of 3
 * bytes an element cannot spend that twice; docs/cuda.md, "Conversions"). */
static int stored_vnum(const Emitter *em, int v) { return em->vnum[ir_stored_value(em->p, v)]; }

/* An integer literal converted to integer compute type ct (the low bits, as
 * eager's static_cast of a scalar), spelled in C with ct's type (the fx_int_
 * templates take both operands of one type; int32_t is int): (int8_t)-1,
 * and the smallest i64 as an expression (it has no literal). */
static void int_constant(char *buf, size_t len, int64_t v, int ct)
{
    long long w = ref_wrap((uint64_t)v, ct);
    if (w == INT64_MIN)
        snprintf(buf, len, "(int64_t)(-9223372036854775807LL - 1)");
    else if (ct == FX_I32 && w != INT32_MIN) /* (-2147483648 is a long in C) */
        snprintf(buf, len, "%lld", w);
    else if (ct == FX_I64)
        snprintf(buf, len, "(int64_t)%lldLL", w);
    else
        snprintf(buf, len, "(%s)%lld", compute_t[ct], w);
}

/* The fx_to_ function that rounds value v (an instruction) to dtype dt:
 * fx_to_<dt>, or fx_to_f8e4m3_sat where v stays within e4m3's finite range
 * (a clamp to +-448 before the cast, say), so that the hardware's
 * saturating conversion is c10's without its overflow rule (docs/cuda.md,
 * "Conversions"). */
static const char *to_fn(const Program *p, int dt, int v)
{
    if (dt != FX_F8E4M3 || !ir_bounded(p, v, fusec_dtype[FX_F8E4M3].max_finite))
        return fusec_dtype_name[dt];
    /* a clamp, min or max in float gives the canonical NaN (min.NaN),
     * positive, and an integer or a bool no NaN: the conversion needs no
     * sign of a NaN or-ed in (fx_to_f8e4m3_satc) */
    const Inst *in = &p->inst[p->inst[v].canon];
    const FusecDtype *d = &fusec_dtype[in->dtype];
    bool no_signed_nan = d->kind != FX_KIND_FLOAT || ((in->op == O_CLAMP || in->op == O_MIN || in->op == O_MAX) &&
                                                      d->compute == FX_F32);
    return no_signed_nan ? "f8e4m3_satc" : "f8e4m3_sat";
}

/* The value an unfused kernel of instruction i rounds to its dtype: a cast's
 * or a copy's operand, or i's own. */
static int rounded_value(const Program *p, int i)
{
    const Inst *in = &p->inst[i];
    return op_info[in->op].cls == K_CAST || in->op == O_COPY ? in->arg[0] : i;
}

/* The fused kernel's store of output v's element e (its array name's _v),
 * rounded to its dtype: the same line in the 1-D and the shaped kernel. */
static void out_element(Emitter *em, const char *name, int v)
{
    fprintf(em->f, "        %s_v[e] = fx_to_%s(v%d);\n", name,
            to_fn(em->p, em->p->inst[v].dtype, ir_stored_value(em->p, v)), stored_vnum(em, v));
}

/* A literal as an operand of compute type ct: an integer literal converted
 * exactly (to the nearest float, for a float ct, as eager converts it). */
static void literal(char *buf, size_t len, const Inst *lit, int ct)
{
    if (is_int(ct) && is_int(lit->dtype))
        int_constant(buf, len, lit->ival, ct);
    else if (is_int(ct))
        int_constant(buf, len, (int64_t)(lit->value != 0), ct); /* a bool literal */
    else if (is_int(lit->dtype) && ct != FX_BOOL)
        constant(buf, len, ref_int_to_float(lit->ival, ct), ct);
    else
        constant(buf, len, lit->value, ct);
}

/* Converts an expression of compute type from to compute type to. */
static void convert(char *buf, size_t len, const char *expr, int from, int to)
{
    if (from == to)
        snprintf(buf, len, "%s", expr);
    else if (to == FX_F32 && (is_int(from) || from == FX_BOOL)) /* without a conversion instruction */
        snprintf(buf, len, "fx_to_f32(%s)", expr);
    else
        snprintf(buf, len, "(%s)%s", compute_t[to], expr);
}

/* pow(a[0], a[1]) for a number a[1], as the kernel runs it (PowForm). In an
 * unfused kernel of f16 or bf16, as eager: the exponent rounded to that dtype
 * and the products too (eager multiplies in the tensor's dtype). */
static void pow_expr(char *buf, size_t len, const Inst *in, char a[3][640], bool fused)
{
    const char *x = a[0];
    bool half = !fused && (in->dtype == FX_F16 || in->dtype == FX_BF16);
    char xx[1400];
    if (half)
        snprintf(xx, sizeof xx, "fx_widen(fx_to_%s(%s * %s))", fusec_dtype_name[in->dtype], x, x);
    else if (fused) /* each product rounded, never contracted with an add after it (op_expr's fx_mul) */
        snprintf(xx, sizeof xx, "fx_mul(%s, %s)", x, x);
    else
        snprintf(xx, sizeof xx, "%s * %s", x, x);
    switch ((PowForm)(fused ? in->form : in->uform)) {
    case POW_SQUARE: snprintf(buf, len, fused ? "%s" : "(%s * %s)", fused ? xx : x, x); return;
    case POW_CUBE: snprintf(buf, len, fused ? "fx_mul(%s, %s)" : "(%s * %s)", xx, x); return;
    case POW_RECIPROCAL: snprintf(buf, len, "fx_reciprocal(%s)", x); return;
    case POW_RECIP_SQUARE: snprintf(buf, len, "fx_reciprocal(%s)", xx); return;
    case POW_SQRT: snprintf(buf, len, "fx_sqrt(%s)", x); return;
    case POW_RSQRT: snprintf(buf, len, "fx_rsqrt(%s)", x); return;
    case POW_NUMBER:
        if (half)
            snprintf(buf, len, "fx_pow(%s, fx_widen(fx_to_%s(%s)))", x, fusec_dtype_name[in->dtype], a[1]);
        else
            snprintf(buf, len, "fx_pow(%s, %s)", x, a[1]);
        return;
    default: /* POW_SCALAR */
        if (half)
            snprintf(buf, len, "fx_pow_scalar<%s>(%s, %s)", store_t[in->dtype], x, a[1]);
        else
            snprintf(buf, len, "fx_pow_scalar(%s, %s)", x, a[1]);
        return;
    }
}

/* A division by a literal zero (`x / 0`, or `x / (1 - 1)` once folded):
 * written as a call, fx_div or ref_div, since nvcc's front end warns about a
 * division whose divisor is the constant 0 (#39-D, "division by zero"), which
 * fails -Werror all-warnings. The value is IEEE's a / 0 all the same. */
static bool divides_by_literal_zero(const Program *p, const Inst *in)
{
    const Inst *b = in->op == O_DIV ? &p->inst[in->arg[1]] : NULL;
    return b && b->op == O_CONST && (is_int(b->dtype) ? b->ival == 0 : b->value == 0);
}

/* The dtype eager rounds a number over a tensor's reciprocal to (uform 2 of
 * O_DIV): the tensor's, or f32 (the default float) for an integer or bool one. */
static int rdiv_dtype(const Program *p, const Inst *in)
{
    int b = p->inst[in->arg[1]].dtype;
    return fusec_dtype[b].kind == FX_KIND_FLOAT ? b : FX_F32;
}

/* The expression of op over operand expressions a[] already in type ct. */
static void op_expr(char *buf, size_t len, const Program *p, const Inst *in, int ct, char a[3][640], bool fused)
{
    Op op = (Op)in->op;
    const OpInfo *info = &op_info[op];
    switch (info->cls) {
    case K_CMP:
        snprintf(buf, len, "(%s %s %s)", a[0], op_name(op), a[1]);
        return;
    case K_WHERE:
        snprintf(buf, len, "(%s ? %s : %s)", a[0], a[1], a[2]);
        return;
    case K_LOGIC:
        if (is_int(ct))
            break; /* bitwise, below */
        /* On bools: C's operators on bool (host code computes in double: 0 or 1). */
        if (op == O_NOT)
            snprintf(buf, len, ct == FX_BOOL ? "(!%s)" : "(double)!(bool)%s", a[0]);
        else if (ct == FX_BOOL)
            snprintf(buf, len, "(%s %s %s)", a[0], op_name(op), a[1]);
        else
            snprintf(buf, len, "(double)((bool)%s %s (bool)%s)", a[0], op_name(op), a[1]);
        return;
    case K_CAST:
        /* Fused: round to the named dtype and go on in its compute type.
         * Unfused: the store itself rounds. */
        if (fused && in->dtype != FX_F64)
            snprintf(buf, len, "fx_widen(fx_to_%s(%s))", to_fn(p, in->dtype, in->arg[0]), a[0]);
        else if (fused)
            snprintf(buf, len, "(double)%s", a[0]);
        else
            snprintf(buf, len, "%s", a[0]);
        return;
    default:
        break;
    }
    /* Integers: + - * wrap, // % shifts and the builtins by eager's rules
     * (fx_int_ in fusec_ops.cuh); & | ^ ~ and comparisons are C's. */
    if (is_int(ct)) {
        bool c_op = op == O_AND || op == O_OR || op == O_XOR || op == O_COPY;
        const char *f = c_op ? NULL : op_word(op); /* fx_int_add, fx_int_floor_divide, ... */
        if (op == O_NOT)
            snprintf(buf, len, "(~%s)", a[0]);
        else if (!f && in->nargs == 2)
            snprintf(buf, len, "(%s %s %s)", a[0], op_name(op), a[1]);
        else if (!f)
            snprintf(buf, len, "%s", a[0]);
        else if (in->nargs == 1)
            snprintf(buf, len, "fx_int_%s(%s)", f, a[0]);
        else if (in->nargs == 2)
            snprintf(buf, len, "fx_int_%s(%s, %s)", f, a[0], a[1]);
        else
            snprintf(buf, len, "fx_int_%s(%s, %s, %s)", f, a[0], a[1], a[2]);
        return;
    }
    /* In the fused kernel, ops whose result is f16 or bf16 use the fast
     * float forms (runtime/fusec_ops.cuh says why); the unfused kernels use
     * eager's accurate ones, to round as eager does, bit for bit. */
    bool fast = fused && ct == FX_F32 && (in->dtype == FX_F16 || in->dtype == FX_BF16);
    /* By a number, as eager: a multiply by its reciprocal (the reciprocal
     * once a thread: the divisor is the same for every element). The fused
     * kernel too where the result is f16 or bf16: eager's own form costs one
     * multiply where fx_fast_div takes a reciprocal and a multiply an element. */
    if (op == O_DIV && in->uform == 1 && (!fused || fast)) {
        snprintf(buf, len, "fx_div_by(%s, %s)", a[0], a[1]);
        return;
    }
    /* A number over a tensor, unfused: eager's reciprocal, rounded to its
     * dtype (the divisor's, or f32 for an integer one), times the number. */
    if (op == O_DIV && in->uform == 2 && !fused) {
        snprintf(buf, len, "fx_rdiv<%s>(%s, %s)", store_t[rdiv_dtype(p, in)], a[0], a[1]);
        return;
    }
    if (fast && op == O_DIV) {
        snprintf(buf, len, "fx_fast_div(%s, %s)", a[0], a[1]);
        return;
    }
    if (fast && (op == O_EXP || op == O_SIGMOID || op == O_SILU || op == O_GELU_TANH)) {
        snprintf(buf, len, "fx_fast_%s(%s)", info->name, a[0]);
        return;
    }
    if (op == O_POW && in->form != POW_GENERAL) {
        pow_expr(buf, len, in, a, fused);
        return;
    }
    if (op == O_REM) {
        snprintf(buf, len, "fx_remainder(%s, %s)", a[0], a[1]);
        return;
    }
    /* As eager: by a number as a multiply by its reciprocal, in the fused
     * kernel too (the tensor form's two divisions an element made golden
     * scalar_cse's fused kernel compute-bound: 912 us at 2^28 against 525
     * predicted, call 12 of 2026-12-03); unfused, the floor in f16 or bf16 */
    if (op == O_FLOORDIV) {
        bool half = !fused && (in->dtype == FX_F16 || in->dtype == FX_BF16);
        snprintf(buf, len, "fx_floor_divide%s%s%s%s(%s, %s)", in->uform ? "_by" : "", half ? "<" : "",
                 half ? store_t[in->dtype] : "", half ? ">" : "", a[0], a[1]);
        return;
    }
    if (!fused && ct == FX_F64 && (op == O_HARDSWISH || op == O_HARDSIGMOID)) { /* eager's sixth */
        snprintf(buf, len, "fx_%s_aten(%s)", info->name, a[0]);
        return;
    }
    if (op == O_COPY)
        snprintf(buf, len, "%s", a[0]);
    else if (divides_by_literal_zero(p, in))
        snprintf(buf, len, "fx_div(%s, %s)", a[0], a[1]);
    else if (op == O_NEGATE)
        snprintf(buf, len, "(-%s)", a[0]);
    else if (fused && (op == O_ADD || op == O_SUB || op == O_MUL)) /* each rounded, never an fma */
        snprintf(buf, len, "fx_%s(%s, %s)", op == O_ADD ? "add" : op == O_SUB ? "sub" : "mul", a[0], a[1]);
    else if (info->name[0] == 0)
        snprintf(buf, len, "(%s %s %s)", a[0], op_name(op), a[1]);
    else if (in->nargs == 1)
        snprintf(buf, len, "fx_%s(%s)", info->name, a[0]);
    else if (in->nargs == 2)
        snprintf(buf, len, "fx_%s(%s, %s)", info->name, a[0], a[1]);
    else
        snprintf(buf, len, "fx_%s(%s, %s, %s)", info->name, a[0], a[1], a[2]);
}

/* The dtype an unfused kernel rounds number operand j of in to first, or -1:
 * eager's comparisons, remainder, and floor_divide but by a number, take a
 * number as an f16 or bf16 tensor's dtype (scalar_t, not opmath). */
static int eager_number_dtype(const Program *p, const Inst *in, int j)
{
    bool cmp = op_info[in->op].cls == K_CMP;
    if (!cmp && in->op != O_REM && !(in->op == O_FLOORDIV && j == 0))
        return -1;
    int common = cmp ? p->inst[in->arg[1 - j]].dtype : in->dtype;
    return common == FX_F16 || common == FX_BF16 ? common : -1;
}

/* The expression of a scalar operand (constant, param or host-computed
 * scalar) in compute type ct. */
static void scalar_operand(Emitter *em, char *buf, size_t len, int x, int ct)
{
    const Inst *in = &em->p->inst[x];
    if (in->op == O_CONST)
        literal(buf, len, in, ct);
    else
        snprintf(buf, len, "(%s)%s", compute_t[ct], em->cname[x]);
}

/* ---- the pieces of a kernel --------------------------------------------- */

/* How long a kernel's issue slots (k) take beside its bytes, on the
 * device profile in use (runtime/fusec_model.h's rates). From 0.5 on the
 * fused kernel moves two vectors a thread while a thread still holds at most
 * 64 bytes (full occupancy), and from 1 on in any case. Measured on the H200
 * with one chunk a thread (call 2 of session 22, 2^26, cold, against session
 * 21's one vector in the same run): two vectors 4-8% faster on the shaped
 * bias_gelu, gelu_f64, quantize_i8 and mish_f32, 1% on lse_f64, 2% slower on
 * pow_f16, the rest within 0.5% (on an H100, session 21, one vector had been
 * 1.3-3.9% faster on eight chains: docs/cuda.md). With the grid-stride loop
 * before (run 2) they lifted bf16 gelu, f32 erf/sin/cos, f16 pow and mish by
 * 4-12%, cost the mixed example 2% (0.74, 112 bytes a thread) and
 * memory-bound chains (seed, two outputs) 15-34%. */
static double compute_share(const Chain *c, const FusecKernelCost *k, double bytes)
{
    const FusecProfile *d = &c->opt->device;
    double comp = k->slots32 / (d->fp32_gflops / 2) + k->slots64 / (d->fp64_gflops / 2);
    double mem = bytes / d->hbm_gbps;
    return mem > 0 ? comp / mem : 0;
}


/* A kernel's tensor arrays: the distinct operands it loads and the results
 * it stores, with their dtypes. */
typedef struct Arrays {
    int nload, nstore;
    int load[64 + 3];  /* instructions (unfused: <= 3; fused: the inputs) */
    int store[64 + 3];
} Arrays;

/* Elements per thread of a kernel that loads the values a[0..na) and stores
 * b[0..nb): 16 bytes of the widest dtype. An unfused kernel that moves a bool
 * array beside wider ones it reads moves up to 32 bytes of the widest (two 16-byte
 * accesses) so that the bool array comes closer to a whole 16-byte access: a
 * mask beside f16 data, 16 elements. On the H200 that brings such kernels up
 * to the copy rate, while the same widening slows an f16-to-f32 kernel and
 * the fused kernel of examples/mixed.fuse, which keep 16 bytes (docs/results.md,
 * each kernel alone), and a kernel whose widest array it only writes (a 1-byte
 * input cast up: i8 * 2.5 to f32 ran at 509 G elements/s with 8 a thread, the
 * same bytes at 790 with 4: call 2 of session 16, probe_bk.txt), which keeps 16 too. An unfused f64 kernel whose issue slots take at least
 * three quarters of its bytes' time (heavy64: compute_share) takes 4
 * elements, two 16-byte accesses. On the H200 (call 1 of session 22, the
 * kernels at 2^26 against eager's, CUPTI; eager / fusec with 4 and with 2):
 * erf (0.79 of its bytes' time) 1.108 and 1.035, gelu (0.86) 1.054 and
 * 0.978, tanh (0.97) 1.041 and 0.962, log1p (1.45) 0.990 and 0.940, softplus
 * (2.1) 1.147 and 1.123; sigmoid (0.70) 0.791 and 1.026, so it takes 2 (and
 * with it f64 silu and expm1, between 0.5 and 0.75, not measured), as
 * exp (0.38: 1.048) and the memory-bound ops (abs, neg, max: 1.05-1.06) do
 * (0.87-0.92 with 4 in calls 2 and 3 of 2026-12-03). */
static int elems_per_thread(const Program *p, const int *a, int na, const int *b, int nb, bool fused, bool heavy64,
                            char *why, size_t len, const char *which)
{
    int lo = 8, hi = 1, hi_read = 1;
    for (int i = 0; i < na + nb; i++) {
        int s = fusec_dtype_size[p->inst[i < na ? a[i] : b[i - na]].dtype];
        lo = s < lo ? s : lo;
        hi = s > hi ? s : hi;
        hi_read = i < na && s > hi_read ? s : hi_read;
    }
    bool widen = !fused && lo == 1 && hi > 1 && hi_read == hi;
    int e = widen ? (16 < 32 / hi ? 16 : 32 / hi) : 16 / hi;
    if (widen)
        snprintf(why, len, "%d bytes of the bool array, %d of the widest", e, e * hi);
    else if (heavy64 && hi == 8) { /* 4 doubles a thread: two 16-byte accesses */
        e = 4;
        snprintf(why, len, "32 bytes of the widest array: two 16-byte accesses for a compute-heavy 64-bit op");
    } else
        snprintf(why, len, "16 bytes of the widest array%s", which);
    return e;
}

/* Elements whose bytes a pointer of dtype dt must be aligned to for the
 * vector path of a kernel of e elements per thread: one access of at most
 * 16 bytes (fx_load and fx_store split wider chunks). */
static int align_elems(int e, int dt)
{
    int s = fusec_dtype_size[dt];
    return e * s > 16 ? 16 / s : e;
}

/* The occupancy a kernel asks of ptxas (the fewest blocks an SM, NULL for
 * none), from the bytes of array data a thread holds (E times the sizes of every array it loads and stores): up
 * to 64 bytes fit in 32 registers, so 16 blocks of FX_THREADS (2048
 * threads, all an SM holds) an SM; up to 192 bytes, 8 blocks (64
 * registers); beyond that, ptxas's choice. Measured on the H200 (runs 2-4
 * of docs/results.md): full occupancy brought the fused kernels of three f16
 * inputs and of f16 pow from 94% and 88% of Inductor's speed to 100% and
 * 95%, and lifted every kernel at n <= 2^20 by 2-7%. A kernel that computes
 * in double asks for 8 blocks (64 registers) whatever its bytes, a fused
 * one 4 (128): left to ptxas the fused f64 kernels took 34-40 registers and
 * ran more instructions, and a bound made f64 gelu 1.11-1.13x faster (calls
 * 1-2 of 2026-12-03, bench/results/h200-2026-12-03); 16 f64 exps in one
 * fused kernel spilled 976 bytes under 64 registers and ran 2.4 times their
 * cost alone (call 4), and 4 blocks timed as 8 on the f64 chains (call 6).
 * An unfused f64 exp under the 32-register cap ran at 0.83x eager's kernel
 * (runs 2-4). A fused kernel with an integer // or % by a tensor or a param
 * (divides, fused_divides_int; an unfused one's is wide) asks for 8 blocks
 * (64 registers) where its bytes would give 16: under 32 registers the
 * fused kernels of 4 and 8 i64 `//` by a tensor spilled 4 and 172 bytes and
 * ran 1.87x and 2.3x slower at 2^26 than under 64 (no spill), 8 i8 `//` and
 * `%` by a tensor spilled 430 and 1302 bytes and ran 1.7x and 3.9x slower,
 * and 1 or 2 i64 `//` by a tensor timed the same under either. By a literal
 * (a multiply-high) it keeps its bytes' rule: 8 i32 and i64 `//` by 7 ran
 * 1.05x and 1.03x faster under 64 registers, but random program 11 (four
 * integer `%` by literals among ten transcendentals, no spill under 32) ran
 * 1.05x slower at 45 registers (calls 1 and 4 of session 40 on an H100,
 * bench/results/2026-12-07-s40/regs and idiv; docs/cuda.md). */
static const char *min_blocks(int bytes, bool fp64, bool divides, bool fused)
{
    return fp64 && fused              ? "512 / FX_THREADS"
           : fp64                     ? "1024 / FX_THREADS"
           : bytes <= 64 && !divides  ? "2048 / FX_THREADS"
           : bytes <= 192             ? "1024 / FX_THREADS"
                                      : NULL;
}

/* An integer // or % by a tensor or a param: a division each element. Its
 * unfused kernel asks for 64 registers (emit_unfused_kernel). The fused
 * kernel keeps the rules of every kernel: asking it for 64 registers and one
 * vector a thread made i8 a % b + a // b 94.3 us at 2^26 against 85.9, i16
 * 115.0 against 106.7, i64 a // b 466.7 against 460.4, though under 32
 * registers the i8 kernel's two vectors spill 44 bytes (call 6 of session
 * 18, docs/results.md). */
static bool divides_int(const Program *p, const Inst *in)
{
    return (in->op == O_REM || in->op == O_FLOORDIV) && is_int(in->ct) && p->inst[in->arg[1]].op != O_CONST;
}

/* Whether the fused kernel divides integers by a tensor or a param (divides_int; min_blocks). */
static bool fused_divides_int(const Program *p)
{
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (in->live && !in->scalar && in->canon == i && divides_int(p, in))
            return true;
    }
    return false;
}

/* "FX_THREADS, 2048 / FX_THREADS": __launch_bounds__'s arguments, min_blocks's
 * minimum where it gives one. */
static const char *launch_bounds(Emitter *em, const char *min)
{
    return min ? arena_printf(em->p->arena, "FX_THREADS, %s", min) : "FX_THREADS";
}

/* least: the bytes an element counts at least. The unfused kernels count a
 * 1-byte element as 2: it is loaded 16 to a vector but computed one to a
 * register, so an unfused & of two bool arrays (E = 16) holds 48 bytes of
 * data in more than 32 registers; under the 32-register cap it spilled (78
 * bytes, nvcc -Xptxas -v) and ran at 0.43x eager's kernel (run 20 of
 * docs/results.md); counted so it gets 64 registers, uses 56, spills
 * nothing and runs at 0.87x (run 21). A unary bool kernel and bf16 > number
 * with a bool result (64 bytes counted so) did not spill. */
static int thread_bytes(const Program *p, int e, const int *a, int na, const int *b, int nb, int least)
{
    int s = 0;
    for (int i = 0; i < na; i++)
        s += fusec_dtype_size[p->inst[a[i]].dtype] > least ? fusec_dtype_size[p->inst[a[i]].dtype] : least;
    for (int i = 0; i < nb; i++)
        s += fusec_dtype_size[p->inst[b[i]].dtype] > least ? fusec_dtype_size[p->inst[b[i]].dtype] : least;
    return e * s;
}

/* Collects the scalar instructions (params, host scalars) that kernel
 * instructions [from, to) use, in instruction order, without repeats; canon:
 * their common subexpressions, as the fused kernel reads them. */
static int kernel_scalars(Emitter *em, const int *insts, int ninst, bool canon, int *out, char *seen)
{
    int n = 0;
    for (int k = 0; k < ninst; k++) {
        const Inst *in = &em->p->inst[insts[k]];
        for (int a = 0; a < in->nargs; a++) {
            /* the fused kernel reads each operand's common subexpression (canon) */
            int x = canon ? em->p->inst[in->arg[a]].canon : in->arg[a];
            const Inst *arg = &em->p->inst[x];
            if (arg->scalar && arg->op != O_CONST && !seen[x]) {
                seen[x] = 1;
                out[n++] = x;
            }
        }
    }
    for (int k = 0; k < n; k++)
        seen[out[k]] = 0;
    return n;
}

/* wide: the kernel asks for 64 registers (min_blocks's fp64 rule). */
static void kernel_params(Emitter *em, const char *name, const Arrays *ar, const int *sc, int nsc,
                          const char *const *load_names, const char *const *store_names, int e, bool wide)
{
    FILE *f = em->f;
    const Program *p = em->p;
    fprintf(f, "template <typename I>\n__global__ void __launch_bounds__(%s) %s(",
            launch_bounds(em, min_blocks(thread_bytes(p, e, ar->load, ar->nload, ar->store, ar->nstore, 2),
                                         wide, false, false)),
            name);
    for (int k = 0; k < ar->nload; k++)
        fprintf(f, "const %s *__restrict__ %s, ", store_t[p->inst[ar->load[k]].dtype], load_names[k]);
    for (int k = 0; k < ar->nstore; k++)
        fprintf(f, "%s *__restrict__ %s, ", store_t[p->inst[ar->store[k]].dtype], store_names[k]);
    for (int k = 0; k < nsc; k++)
        fprintf(f, "double %s, ", em->cname[sc[k]]);
    fprintf(f, "I n, bool vec)\n{\n");
}

/* ---- unfused kernels ------------------------------------------------------ */

/* s made safe inside a C comment: no comment start or end (slash-star, star-slash), no
 * trigraph (two question marks and a slash make a backslash in C11), no control character and no bidi
 * control (U+202A-202E, U+2066-2069, U+200E/F, U+061C: gcc's -Wbidi-chars),
 * and only valid UTF-8; each offending byte shows as '?', a space splits the
 * pairs. Source comments and file names pass through here. */
static const char *comment_safe(Emitter *em, const char *s)
{
    size_t n = strlen(s);
    char *o = arena_alloc(em->p->arena, 3 * n + 1), *q = o;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        int len = out_utf8_len(u + i, u + n);
        bool bidi = len == 3 && ((u[i] == 0xE2 && u[i + 1] == 0x80 && (u[i + 2] == 0x8E || u[i + 2] == 0x8F ||
                                                                         (u[i + 2] >= 0xAA && u[i + 2] <= 0xAE))) ||
                                 (u[i] == 0xE2 && u[i + 1] == 0x81 && u[i + 2] >= 0xA6 && u[i + 2] <= 0xA9));
        bidi |= len == 2 && u[i] == 0xD8 && u[i + 1] == 0x9C;
        if (len == 0 || bidi || (len == 1 && (u[i] < 0x20 || u[i] == 0x7F) && u[i] != '\t')) {
            *q++ = '?';
            i += len ? (size_t)len : 1;
            continue;
        }
        memcpy(q, s + i, (size_t)len);
        q += len;
        if (len == 1 && ((s[i] == '*' && s[i + 1] == '/') || (s[i] == '/' && s[i + 1] == '*') ||
                         (s[i] == '?' && s[i + 1] == '?')))
            *q++ = ' ';
        i += (size_t)len;
    }
    *q = 0;
    return o;
}

static void kernel_comment(Emitter *em, int k, const char *what)
{
    const Kernel *kr = &em->t->kernels[k];
    const Inst *in = &em->p->inst[kr->inst];
    int line, col;
    diag_locate(em->p->diag, in->off, &line, &col);
    char rb[32], wb[32];
    out_num(rb, sizeof rb, kr->read_bytes);
    out_num(wb, sizeof wb, kr->write_bytes);
    if (em->p->shaped) {
        const Traffic *t = em->t;
        fprintf(em->f, "\n/* k%d: %s (%s:%d:%d)\n * over %s: reads %s B and writes %s B; computes in %s */\n", k + 1,
                comment_safe(em, what), comment_safe(em, em->c->src->name), line, col,
                comment_safe(em, shape_text(em->p, &in->shape)),
                comment_safe(em, traffic_formula(em->p, t->uterm, t->nuterm, k, FUSEC_IN, FUSEC_MID_READ)),
                comment_safe(em, traffic_formula(em->p, t->uterm, t->nuterm, k, FUSEC_MID_WRITE, FUSEC_OUT)),
                compute_t[in->ct]);
        return;
    }
    fprintf(em->f, "\n/* k%d: %s (%s:%d:%d)\n * reads %s B and writes %s B per element; computes in %s */\n", k + 1,
            comment_safe(em, what), comment_safe(em, em->c->src->name), line, col, rb, wb,
            compute_t[in->ct]);
}

/* P_k3_relu: the kernel's place in the launch order and its op, so that a
 * profiler's list of kernels reads as the chain. */
static const char *unfused_name(Emitter *em, int k)
{
    return arena_printf(em->p->arena, "%s_k%d_%s", em->c->prefix, k + 1,
                        op_word((Op)em->p->inst[em->t->kernels[k].inst].op));
}

/* Whether input v of a shaped chain's fused kernel is broadcast (not of the
 * chain's whole shape): the fused kernel gathers it (fx_gather: one offset a
 * chunk in its ROW instances, one an element otherwise). */
static bool gathered(const Program *p, int v)
{
    return p->shaped && !shape_same_layout(p, &p->inst[v].shape, &p->full);
}

/* The first live input laid out as gathered input v: inputs of one layout
 * (a LayerNorm's mean and rstd, [R, 1]) share its FxBcast, and so the
 * offsets, which nvcc then computes once. */
static int gather_rep(const Program *p, int v)
{
    for (int k = 0; k < p->n_in; k++) {
        int u = p->sym[p->inputs[k]].value;
        if (u >= 0 && p->inst[u].live && shape_same_layout(p, &p->inst[u].shape, &p->inst[v].shape))
            return u;
    }
    return v;
}

/* Whether live input v has an FxBcast of its own (P_fused_args's v_b): a
 * gathered input that is the first of its layout. */
static bool owns_bcast(const Program *p, int v)
{
    return v >= 0 && p->inst[v].live && gathered(p, v) && gather_rep(p, v) == v;
}

/* Whether unfused kernel k reads an operand broadcast to its result's shape
 * (src/traffic.c; its cost counts the elements it gathers, at given dims). */
static bool kernel_broadcasts(const Emitter *em, int k) { return em->t->kernels[k].broadcasts; }

/* The operand expressions a[] of unfused kernel k's op, each in the op's
 * compute type (where's condition as bool): a number as eager takes it
 * (rounded first where eager_number_dtype says so), array operand r as
 * fx_widen(<pre>r<post>), its element in the kernel's loop. */
static void unfused_operands(Emitter *em, int k, const char *pre, const char *post, char a[3][640])
{
    const Program *p = em->p;
    const Kernel *kr = &em->t->kernels[k];
    const Inst *in = &p->inst[kr->inst];
    for (int j = 0; j < in->nargs; j++) {
        int x = in->arg[j];
        const Inst *arg = &p->inst[x];
        int want = op_info[in->op].cls == K_WHERE && j == 0 ? FX_BOOL : in->ct;
        if (arg->scalar) {
            scalar_operand(em, a[j], sizeof a[j], x, want);
            int common = eager_number_dtype(p, in, j); /* rounded first, as eager takes it */
            if (common >= 0) {
                char num[640];
                snprintf(num, sizeof num, "%s", a[j]);
                if (arg->op == O_CONST) /* a literal rounded here, a param at run time */
                    constant(a[j], sizeof a[j], ref_round(arg->value, common), want);
                else
                    snprintf(a[j], sizeof a[j], "fx_widen(fx_to_%s(%s))", fusec_dtype_name[common], num);
            }
        } else {
            int r = 0;
            while (kr->read[r] != x)
                r++;
            char load[64];
            snprintf(load, sizeof load, "fx_widen(%s%d%s)", pre, r, post);
            convert(a[j], sizeof a[j], load, dtype_compute(arg->dtype), want);
        }
    }
}

/* An API's refusal of more elements than one launch covers (fx_blocks: one chunk a thread, no grid-stride loop; docs/cuda.md). */
static void n_guard(FILE *f, const char *n)
{
    fprintf(f, "    if (%s > FX_MAX_ELEMS) /* more than one launch's grid covers */\n        return cudaErrorInvalidValue;\n",
            n);
}

/* An unfused kernel with a broadcast operand, as eager runs it: TensorIterator
 * cannot vectorize it, so it takes its legacy path (elementwise_kernel of
 * ATen's CUDALoops.cuh): FUSEC_BCAST_E elements a thread, FX_THREADS apart, each
 * broadcast operand's element found by its offset calculator
 * (fx_bcast_offset); every load of the thread's elements is issued before
 * the first store, so the loads of all of them are in flight together. */
static void emit_broadcast_kernel(Emitter *em, int k, const char *text)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const Kernel *kr = &em->t->kernels[k];
    const Inst *in = &p->inst[kr->inst];
    int sc[3];
    int nsc = kernel_scalars(em, &kr->inst, 1, false, sc, em->seen);
    kernel_comment(em, k, text);
    em->elems[k] = FUSEC_BCAST_E;
    fprintf(f, "template <typename I>\n__global__ void __launch_bounds__(FX_THREADS) %s(", unfused_name(em, k));
    for (int r = 0; r < kr->nread; r++)
        fprintf(f, "const %s *__restrict__ a%d, ", store_t[p->inst[kr->read[r]].dtype], r);
    fprintf(f, "%s *__restrict__ r, ", store_t[in->dtype]);
    for (int j = 0; j < nsc; j++)
        fprintf(f, "double %s, ", em->cname[sc[j]]);
    fprintf(f, "I n");
    for (int r = 0; r < kr->nread; r++)
        if (!shape_same_layout(p, &p->inst[kr->read[r]].shape, &in->shape))
            fprintf(f, ", FxBcast b%d", r);
    fprintf(f, ")\n{\n    constexpr int E = %d; /* elements a thread, FX_THREADS apart */\n", FUSEC_BCAST_E);
    /* a loop, though it runs once: without it, ptxas reads the FxBcast
     * fields (uniform registers) again for each of the E elements, 24 more
     * instructions a thread of 4 in bias_gelu's add (SASS, session 20); this
     * kernel's rate is bound by its instructions (gather_gelems) */
    fprintf(f, "    for (I base = (I)blockIdx.x * FX_THREADS * E + threadIdx.x; base < n; base += (I)gridDim.x * FX_THREADS * E) {\n");
    for (int r = 0; r < kr->nread; r++)
        fprintf(f, "        %s a%d_v[E];\n", store_t[p->inst[kr->read[r]].dtype], r);
    fprintf(f, "#pragma unroll\n        for (int e = 0; e < E; e++) {\n"
               "            const I i = base + (I)e * FX_THREADS;\n            if (i < n) {\n");
    for (int r = 0; r < kr->nread; r++) {
        if (shape_same_layout(p, &p->inst[kr->read[r]].shape, &in->shape))
            fprintf(f, "                a%d_v[e] = a%d[i];\n", r, r);
        else
            fprintf(f, "                a%d_v[e] = a%d[fx_bcast_offset(b%d, i)];\n", r, r, r);
    }
    fprintf(f, "            }\n        }\n");
    char a[3][640], expr[2200];
    unfused_operands(em, k, "a", "_v[e]", a);
    op_expr(expr, sizeof expr, p, in, in->ct, a, false);
    fprintf(f, "#pragma unroll\n        for (int e = 0; e < E; e++) {\n"
               "            const I i = base + (I)e * FX_THREADS;\n"
               "            if (i < n)\n                r[i] = fx_to_%s(%s);\n        }\n    }\n}\n",
            to_fn(p, in->dtype, rounded_value(p, kr->inst)), expr);
}

/* The word form of an unfused & | ^ ~ whose arrays and compute type are all
 * 1 byte (bool, u8, i8) with no number operand (fx_words16), or NULL. On
 * the H200 the per-byte form of | and & on bools ran at 0.87-0.89x eager's
 * kernel (run 21 of 2026-12-02). */
static const char *word_op(const Program *p, const Inst *in, const Arrays *ar)
{
    if (op_info[in->op].cls != K_LOGIC || fusec_dtype_size[in->ct] != 1 || fusec_dtype_size[in->dtype] != 1)
        return NULL;
    for (int j = 0; j < in->nargs; j++)
        if (p->inst[in->arg[j]].scalar)
            return NULL;
    for (int r = 0; r < ar->nload; r++)
        if (fusec_dtype_size[p->inst[ar->load[r]].dtype] != 1)
            return NULL;
    switch (in->op) {
    case O_AND: return "FX_WORD_AND";
    case O_OR: return "FX_WORD_OR";
    case O_XOR: return "FX_WORD_XOR";
    case O_NOT: return in->ct == FX_BOOL ? "FX_WORD_NOT_BOOL" : "FX_WORD_NOT";
    default: return NULL;
    }
}

/* An unfused kernel's body in eager's shape, after its op: E = 8 elements a
 * thread, a whole block's by vectors of v (em->apart), the last block's or
 * misaligned pointers' one at a time; every load before the op, as in eager's
 * elementwise_kernel_helper. */
static void emit_apart_body(Emitter *em, const Arrays *ar, int out, int v, const char *why)
{
    FILE *f = em->f;
    const Program *p = em->p;
    fprintf(f, "    constexpr int E = 8, V = %d; /* elements per thread: %s */\n"
               "    const I base = (I)blockIdx.x * (FX_THREADS * E), t = threadIdx.x; /* the block's first element; the thread */\n",
            v, why);
    for (int r = 0; r < ar->nload; r++)
        fprintf(f, "    %s a%d_v[E];\n", store_t[p->inst[ar->load[r]].dtype], r);
    fprintf(f, "    %s r_v[E];\n", store_t[out]);
    for (int whole = 1; whole >= 0; whole--) {
        fprintf(f, whole ? "    if (vec && n - base >= (I)(FX_THREADS * E)) { /* a whole block: vector accesses */\n"
                         : "    } else { /* the last block, or misaligned pointers: one element at a time */\n");
        for (int r = 0; r < ar->nload; r++)
            fprintf(f, whole ? "        fx_load_apart<E, V>(a%d_v, a%d, base + t * V);\n" : "        fx_load_rest<E>(a%d_v, a%d, base + t, n);\n",
                    r, r);
        fprintf(f, "#pragma unroll\n        for (int e = 0; e < E; e++)\n            r_v[e] = op(");
        for (int r = 0; r < ar->nload; r++)
            fprintf(f, "%sa%d_v[e]", r ? ", " : "", r);
        fprintf(f, whole ? ");\n        fx_store_apart<E, V>(r, base + t * V, r_v);\n" : ");\n        fx_store_rest<E>(r, base + t, n, r_v);\n");
    }
    fprintf(f, "    }\n}\n");
}

static void emit_unfused_kernel(Emitter *em, int k, const char *text)
{
    em->apart[k] = 0;
    if (kernel_broadcasts(em, k)) {
        emit_broadcast_kernel(em, k, text);
        return;
    }
    FILE *f = em->f;
    const Program *p = em->p;
    const Kernel *kr = &em->t->kernels[k];
    const Inst *in = &p->inst[kr->inst];
    int ct = in->ct;
    Arrays ar = {0, 0, {0}, {0}};
    const char *lnames[3], *snames[1];
    for (int r = 0; r < kr->nread; r++) {
        ar.load[ar.nload] = kr->read[r];
        lnames[ar.nload++] = arena_printf(p->arena, "a%d", r);
    }
    ar.store[ar.nstore] = kr->inst;
    snames[ar.nstore++] = "r";
    int sc[3];
    int nsc = kernel_scalars(em, &kr->inst, 1, false, sc, em->seen);

    kernel_comment(em, k, text);
    char why[120];
    /* an unfused op whose issue slots take at least half its bytes' time (heavy), and three
     * quarters of it (an f64 op's 4 elements a thread: elems_per_thread) */
    double share = compute_share(em->c, &kr->cost, kr->read_bytes + kr->write_bytes);
    bool heavy = share >= 0.5;
    em->elems[k] = elems_per_thread(p, ar.load, ar.nload, ar.store, 1, false, share >= 0.75, why, sizeof why, "");
    /* A light op whose widest array is 4 or 8 bytes, one 16-byte vector a
     * thread by the rule above, takes eager's shape instead: 8 elements a
     * thread in vectors of 16 bytes of its output, FX_THREADS vectors apart
     * (fx_load_apart). On an H100 at 2^20 elements (call 1 of session 43,
     * CUPTI, fusion_bench --kernels), the one-vector kernels of f32 add and
     * mul ran at 0.87-0.88 of eager's, f64 neg, max and mul at 0.78-0.83:
     * twice or four times eager's blocks (docs/cuda.md, "Kernel shape").
     * Not an integer // or % by a tensor or a param (a division subroutine an
     * element): i32 a % b ran at 0.949 of eager's so, 1.057 as before. */
    int hi = 1;
    for (int r = 0; r < ar.nload + ar.nstore; r++) {
        int s = fusec_dtype_size[p->inst[r < ar.nload ? ar.load[r] : ar.store[r - ar.nload]].dtype];
        hi = s > hi ? s : hi;
    }
    if (!heavy && !divides_int(p, in) && hi >= 4 && em->elems[k] * hi == 16) {
        em->elems[k] = 8;
        em->apart[k] = 16 / fusec_dtype_size[in->dtype] < 8 ? 16 / fusec_dtype_size[in->dtype] : 8;
        snprintf(why, sizeof why, "eager's 8, in vectors of %d (16 bytes of the output), FX_THREADS vectors apart",
                 em->apart[k]);
    }
    /* f64, an integer op whose issue slots take at least half its bytes'
     * time, an integer // or % by a tensor or a param (a division each
     * element: under 32 registers an i64 (-4) // x spilled 16 bytes, an i8
     * q % q 4 and, dividing in float, a u8 q % q 10; ptxas -v), and in
     * eager's shape (8 elements a thread) an integer op or a division: under
     * 32 registers an i32 q % 7 spilled 8 bytes, f16 / bf16 to f32 4 (the
     * other ops of the examples, golden and bench chains keep their count
     * under 32 registers with no spill) */
    kernel_params(em, unfused_name(em, k), &ar, sc, nsc, lnames, snames, em->elems[k],
                  ct == FX_F64 || (is_int(ct) && heavy) || divides_int(p, in) ||
                      (em->apart[k] && (is_int(ct) || in->op == O_DIV || in->op == O_REM || in->op == O_FLOORDIV)));
    char a[3][640], expr[2200];
    unfused_operands(em, k, "x", "", a);
    op_expr(expr, sizeof expr, p, in, ct, a, false);
    /* The op on one element, then the thread's work: in eager's shape
     * emit_apart_body's; else a whole chunk of E elements by vector accesses when every pointer is aligned, else (misaligned
     * pointers) one element at a time, in a loop kept rolled; past the whole
     * chunks, one element of the tail a thread (the launch's fx_tail_blocks),
     * so that the tail's loads do not wait for each other (before session 28
     * one thread took the tail in that loop: docs/cuda.md). The paths call the
     * op apart, so that the vector path's registers are its own: with one body
     * for both (the loads and stores choosing per chunk), u8 % 3 spilled 84
     * bytes under its 32 registers and bf16 / 76; with an unrolled element
     * loop, its loads hoisted, u8 + i8 to i16 spilled 16 (ptxas -v). */
    fprintf(f, "    const auto op = [=](");
    for (int r = 0; r < ar.nload; r++)
        fprintf(f, "%s%s x%d", r ? ", " : "", store_t[p->inst[ar.load[r]].dtype], r);
    fprintf(f, ") { return fx_to_%s(%s); };\n", to_fn(p, in->dtype, rounded_value(p, kr->inst)), expr);
    if (em->apart[k]) {
        emit_apart_body(em, &ar, in->dtype, em->apart[k], why);
        return;
    }
    fprintf(f, "    constexpr int E = %d; /* elements per thread: %s */\n", em->elems[k], why);
    fprintf(f, "    const I t = (I)blockIdx.x * FX_THREADS + threadIdx.x, full = n / E;\n"
               "    if (t >= full) { /* the tail: one element a thread (the grid covers full + n %% E, fx_tail_blocks) */\n"
               "        const I j = full * E + (t - full);\n        if (j < n)\n            r[j] = op(");
    for (int r = 0; r < ar.nload; r++)
        fprintf(f, "%sa%d[j]", r ? ", " : "", r);
    fprintf(f, ");\n        return;\n    }\n"
               "    const I i = t * E; /* a whole chunk */\n"
               "    if (!vec) { /* misaligned pointers: element by element */\n"
               "#pragma unroll 1\n        for (I j = i; j < i + (I)E; j++)\n            r[j] = op(");
    for (int r = 0; r < ar.nload; r++)
        fprintf(f, "%sa%d[j]", r ? ", " : "", r);
    fprintf(f, ");\n        return;\n    }\n");
    const char *word = word_op(p, in, &ar);
    if (word) {
        fprintf(f, "    /* four 32-bit words: the op on 4 bytes at once */\n"
                   "    fx_words16<%s>(a0, %s, r, i);\n}\n",
                word, ar.nload > 1 ? "a1" : "a0");
        return;
    }
    for (int r = 0; r < ar.nload; r++) {
        fprintf(f, "    %s a%d_v[E];\n", store_t[p->inst[ar.load[r]].dtype], r);
        fprintf(f, "    fx_load<E>(a%d_v, a%d, i, n, true);\n", r, r);
    }
    fprintf(f, "    %s r_v[E];\n#pragma unroll\n    for (int e = 0; e < E; e++)\n        r_v[e] = op(",
            store_t[in->dtype]);
    for (int r = 0; r < ar.nload; r++)
        fprintf(f, "%sa%d_v[e]", r ? ", " : "", r);
    fprintf(f, ");\n    fx_store<E>(r, i, n, true, r_v);\n}\n");
}

/* The fused kernel's grid size under which it runs E / 2: a wide kernel's
 * threshold is its own (runtime/fusec_kernel.cuh). */
static const char *half_blocks(bool wide) { return wide ? "FX_WIDE_BLOCKS" : "FX_SMALL_BLOCKS"; }

/* The fused kernel's elements per thread, loading load[0..nl) and storing
 * store[0..nout), and why; *wide and *tiny from its compute_share. */
static int fused_shape(const Chain *c, const int *load, int nl, const int *store, int nout, const char *which,
                       char *why, size_t len, bool *wide, bool *tiny)
{
    const Program *p = c->prog;
    const Traffic *t = &c->traffic;
    int e = elems_per_thread(p, load, nl, store, nout, true, false, why, len, which);
    double heavy = compute_share(c, &t->fcost, t->f_read + t->f_write);
    int tb = thread_bytes(p, e, load, nl, store, nout, 1);
    /* below its bytes' time, a second vector pays where one vector holds few elements
     * (4 floats, 2 doubles) or leaves a narrower array less than a whole 16-byte access;
     * not for 16-bit arrays alone, whose one vector is 8 elements (pow_f16: one vector
     * 2% faster on the H200, 3-4% on an H100; docs/cuda.md) */
    bool narrow = e < 8;
    for (int i = 0; i < nl + nout; i++)
        narrow |= e * fusec_dtype_size[p->inst[i < nl ? load[i] : store[i - nl]].dtype] < 16;
    *wide = heavy >= 1 || (heavy >= 0.5 && 2 * tb <= 64 && narrow);
    if (*wide) {
        e *= 2;
        snprintf(why, len, "32 bytes of the widest array%s: its issue slots take %.2f of its bytes' time, so "
                 "two vectors a thread keep loads in flight while it computes", which, heavy);
    }
    *tiny = heavy >= 1;
    return e;
}

/* The fused kernel's arrays: its live inputs (load[0..*nl)), those of the
 * chain's whole shape among them (whole[0..*nw)) and its outputs (store[0..n_out)). */
static void fused_arrays(const Program *p, int *load, int *nl, int *whole, int *nw, int *store)
{
    *nl = *nw = 0;
    for (int k = 0; k < p->n_in; k++) {
        int v = p->sym[p->inputs[k]].value;
        if (v >= 0 && p->inst[v].live) {
            load[(*nl)++] = v;
            if (!gathered(p, v))
                whole[(*nw)++] = v;
        }
    }
    for (int k = 0; k < p->n_out; k++)
        store[k] = p->sym[p->outputs[k]].value;
}

/* The value of `#define name N` in runtime file `file` (the one place the
 * launch thresholds are written: the .cu takes them from its copy of the
 * file, --predict from fusec's); a missing one is a bug in fusec. */
static double runtime_define(const Chain *c, const char *file, const char *name)
{
    for (const RuntimeFile *r = fusec_runtime; r->name; r++) {
        if (strcmp(r->name, file) != 0)
            continue;
        size_t k = strlen(name);
        for (const char *t = r->text, *end = r->text + r->len; t && t < end; t = memchr(t, '\n', (size_t)(end - t))) {
            t += *t == '\n';
            if (end - t > (ptrdiff_t)(k + 9) && strncmp(t, "#define ", 8) == 0 && strncmp(t + 8, name, k) == 0 &&
                t[8 + k] == ' ')
                return strtod(t + 9 + k, NULL);
        }
    }
    diag_internal(c->prog->diag, "runtime/%s defines no %s", file, name);
}

/* The dims of the fused kernel's FxBcast for an operand of shape as in the
 * chain's shape (bcast_init's with coalesce): runs of neighbouring dims along
 * which it varies alike are one, so the dims alternate between varying and
 * not. along (unless NULL): whether it varies along dim 0, the innermost
 * (fx_gather's ALONG: fx_gather_offset takes a coalesced FxBcast of two dims
 * to have strides {1, 0} when it does, {0, 1} when not). */
static int gather_dims(const Program *p, const Shape *as, bool *along)
{
    bool varies[LIMIT_DIMS];
    int n = 0;
    for (int q = p->full.rank - 1; q >= 0; q--) {
        bool v = shape_varies(p, as, q);
        if (n == 0 || varies[n - 1] != v)
            varies[n++] = v;
    }
    if (along)
        *along = n > 0 && varies[0];
    return n;
}

void emit_cuda_fused_launches(const Chain *c, FusecVersion *v)
{
    const Program *p = c->prog;
    int *load = arena_alloc(p->arena, sizeof(int) * (size_t)(p->n_in + 1));
    int *whole = arena_alloc(p->arena, sizeof(int) * (size_t)(p->n_in + 1));
    int *store = arena_alloc(p->arena, sizeof(int) * (size_t)(p->n_out + 1));
    int nl, nw;
    char why[224];
    bool wide, tiny;
    fused_arrays(p, load, &nl, whole, &nw, store);
    int e = fused_shape(c, whole, nw, store, p->n_out, "", why, sizeof why, &wide, &tiny);
    v->chunk = e;
    /* a shaped chain with a gathered input has ROW instances, of E / 2 too (emit_flat_launches' row_es) */
    v->row_max = p->shaped && nw < nl && e / 2 > 1 ? runtime_define(c, "fusec_kernel.cuh", "FX_INDEX32_MAX") : 0;
    /* each broadcast layout's offsets: a divide a merged dim past the first (fx_gather_offset) */
    v->gather_slots = 0;
    for (int k = 0; k < nl; k++)
        if (owns_bcast(p, load[k]))
            v->gather_slots += FUSEC_GATHER_SLOTS_PER_DIM * (gather_dims(p, &p->inst[load[k]].shape, NULL) - 1);
}


/* The fused kernel's values, v0, v1, ... (Emitter.vnum), each common
 * subexpression once, one line each after indent. An input is its C name
 * followed by suffix ("x_u_v[e]", its loaded element, in the fused kernel's
 * loop over e; "x_u" in the CUB version's functor). */
static void emit_fused_values(Emitter *em, const char *indent, const char *suffix)
{
    FILE *f = em->f;
    const Program *p = em->p;
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (!in->live || in->scalar || in->canon != i)
            continue;
        int ct = in->ct;
        if (in->op == O_INPUT) {
            fprintf(f, "%sconst %s v%d = fx_widen(%s%s); /* %s */\n", indent, compute_t[ct], em->vnum[i], em->cname[i],
                    suffix, p->sym[in->sym].name);
            continue;
        }
        char a[3][640], expr[2200];
        for (int j = 0; j < in->nargs; j++) {
            int x = p->inst[in->arg[j]].canon;
            const Inst *arg = &p->inst[x];
            int want = op_info[in->op].cls == K_WHERE && j == 0 ? FX_BOOL : ct;
            if (arg->scalar) {
                scalar_operand(em, a[j], sizeof a[j], x, want);
            } else {
                char v[32];
                snprintf(v, sizeof v, "v%d", em->vnum[x]);
                convert(a[j], sizeof a[j], v, dtype_compute(arg->dtype), want);
            }
        }
        op_expr(expr, sizeof expr, p, in, ct, a, true);
        int rt = dtype_compute(in->dtype);
        const char *name = em->stmt_name[i];
        if (name)
            fprintf(f, "%sconst %s v%d = %s; /* %s */\n", indent, compute_t[rt], em->vnum[i], expr, name);
        else
            fprintf(f, "%sconst %s v%d = %s;\n", indent, compute_t[rt], em->vnum[i], expr);
    }
}

/* ---- the fused kernel ---------------------------------------------------- */

/* ---- a shaped chain's fused kernel ------------------------------------- */

/* The size of position q of the chain's shape, as the API spells it. */
static const char *pos_size(const Emitter *em, int q)
{
    int d = em->p->full.dim[q];
    return d == DIM_ONE ? "1" : em->dim_name[d];
}

/* The elements of shape sh, as the API computes them: "dim_R * dim_C". */
static const char *numel_expr(const Emitter *em, const Shape *sh)
{
    const char *s = NULL;
    for (int i = 0; i < sh->rank; i++)
        if (sh->dim[i] != DIM_ONE)
            s = s ? arena_printf(em->p->arena, "%s * %s", s, em->dim_name[sh->dim[i]]) : em->dim_name[sh->dim[i]];
    return s ? s : "(size_t)1";
}

/* The rows of the fused kernel's grid: the product of every dim but the last. */
static const char *rows_expr(const Emitter *em)
{
    const Program *p = em->p;
    const char *s = NULL;
    for (int q = 0; q + 1 < p->full.rank; q++)
        if (p->full.dim[q] != DIM_ONE)
            s = s ? arena_printf(p->arena, "%s * %s", s, pos_size(em, q)) : pos_size(em, q);
    return s ? s : "(size_t)1";
}

/* Whether shape sh varies along the chain's last dim: a broadcast input that
 * does ([C]) is gathered as a vector, one that does not ([R, 1]) as one element
 * (fx_gather's ALONG). */
static bool varies_last(const Program *p, const Shape *sh) { return shape_varies(p, sh, p->full.rank - 1); }

/* The fused kernel takes its arrays and scalars in one struct, P_fused_args,
 * by value: with one parameter per array, every instance's mangled name
 * spelled all their types, once per parameter in the PTX, so nvcc's output
 * and time grew with the square of the number of arrays (docs/cuda.md,
 * "Compile time"). Its members are the loads, the stores and the scalars, in
 * the order fused_args_init lists them. */
static void fused_args_struct(Emitter *em, const int *load, int nl, const int *store, int nout, const int *sc,
                              int nsc)
{
    const Program *p = em->p;
    fprintf(em->f, "struct %s_fused_args { /* the kernel's arrays and scalars: one argument */\n", em->c->prefix);
    for (int k = 0; k < nl + nout; k++) {
        int v = k < nl ? load[k] : store[k - nl];
        fprintf(em->f, "    %s%s *%s;\n", k < nl ? "const " : "", store_t[p->inst[v].dtype], em->cname[v]);
    }
    for (int k = 0; k < nsc; k++)
        fprintf(em->f, "    double %s;\n", em->cname[sc[k]]);
    for (int k = 0; k < nl; k++)
        if (owns_bcast(p, load[k]))
            fprintf(em->f, "    FxBcast %s_b; /* where its elements are, for fx_gather */\n", em->cname[load[k]]);
    fprintf(em->f, "};\n\n");
}

/* The kernel's first lines: each pointer of the struct in a __restrict__
 * local, so that loads still take the read-only path (ld.global.nc). */
static void fused_args_locals(Emitter *em, const int *load, int nl, const int *store, int nout, const int *sc,
                              int nsc)
{
    const Program *p = em->p;
    fprintf(em->f, "    /* __restrict__: no array overlaps another, so loads may take the read-only path */\n");
    for (int k = 0; k < nl + nout; k++) {
        int v = k < nl ? load[k] : store[k - nl];
        fprintf(em->f, "    %s%s *__restrict__ %s = a.%s;\n", k < nl ? "const " : "", store_t[p->inst[v].dtype],
                em->cname[v], em->cname[v]);
    }
    for (int k = 0; k < nsc; k++)
        fprintf(em->f, "    const double %s = a.%s;\n", em->cname[sc[k]], em->cname[sc[k]]);
}

/* The host API's struct of the fused kernel's arguments, named args: the
 * live inputs, the outputs and the scalars, in the kernel's order. */
static void fused_args_init(Emitter *em, const int *fsc, int nfsc)
{
    const Program *p = em->p;
    fprintf(em->f, "    const %s_fused_args args = {", em->c->prefix);
    const char *sep = "";
    for (int k = 0; k < p->n_in + p->n_out; k++) {
        int v = k < p->n_in ? p->sym[p->inputs[k]].value : p->sym[p->outputs[k - p->n_in]].value;
        if (k < p->n_in && (v < 0 || !p->inst[v].live))
            continue;
        fprintf(em->f, "%s(%s%s *)%s", sep, k < p->n_in ? "const " : "", store_t[p->inst[v].dtype], em->cname[v]);
        sep = ", ";
    }
    for (int k = 0; k < nfsc; k++)
        fprintf(em->f, ", (double)%s", em->cname[fsc[k]]);
    for (int k = 0; k < p->n_in; k++) {
        int v = p->sym[p->inputs[k]].value;
        if (owns_bcast(p, v))
            fprintf(em->f, ", %s_b", em->cname[v]);
    }
    fprintf(em->f, "};\n");
}

static int bcast_init(Emitter *em, const char *name, const Shape *as, const Shape *rs, bool coalesce);

/* The fused kernel over n elements in flat order, E a thread, one chunk a
 * thread, the tail one element a thread past them (P_fused_elems on E
 * elements, or on 1). A shaped chain's is the same kernel
 * over its elements in row-major order, its broadcast inputs gathered
 * (fx_gather), with one more template argument, ROW: the host sets it when
 * the last dim is a multiple of E, so that a thread's E elements lie in one
 * row and each broadcast input's place is found once for them, as
 * torch.compile's kernel of such a chain does (docs/cuda.md, "Broadcast
 * inputs"). Its E comes from the arrays of the chain's whole shape: a
 * broadcast one ([C] beside [R, C]) is read from the cache, so its width
 * must not halve the bytes in flight of the others (an f32 [C] bias beside
 * bf16 data). */
static void emit_fused_kernel(Emitter *em, int *sc, int nsc)
{
    const bool shaped = em->p->shaped;
    FILE *f = em->f;
    const Program *p = em->p;
    const Traffic *t = em->t;
    int nout = p->n_out;
    int *load = arena_alloc(p->arena, sizeof(int) * (size_t)(p->n_in + 1));
    int *whole = arena_alloc(p->arena, sizeof(int) * (size_t)(p->n_in + 1));
    int *store = arena_alloc(p->arena, sizeof(int) * (size_t)(nout + 1));
    const char **lnames = arena_alloc(p->arena, sizeof(char *) * (size_t)(p->n_in + 1));
    const char **snames = arena_alloc(p->arena, sizeof(char *) * (size_t)(nout + 1));
    int nl, nw;
    fused_arrays(p, load, &nl, whole, &nw, store);
    for (int k = 0; k < nl; k++)
        lnames[k] = em->cname[load[k]];
    for (int k = 0; k < nout; k++)
        snames[k] = em->cname[store[k]];
    char why[224];
    int e = fused_shape(em->c, whole, nw, store, nout, nw < nl ? " of the chain's shape" : "", why, sizeof why,
                        &em->wide, &em->tiny);
    em->elems[t->nkernels] = e;

    char fr[32], fw[32];
    out_num(fr, sizeof fr, t->f_read);
    out_num(fw, sizeof fw, t->f_write);
    bool half = false, rn = false; /* rn: a float + - * (op_expr: fx_add, fx_sub, fx_mul) */
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (!in->live || in->scalar)
            continue;
        half |= in->dtype == FX_F16 || in->dtype == FX_BF16;
        rn |= (in->op == O_ADD || in->op == O_SUB || in->op == O_MUL) && fusec_dtype[in->ct].kind == FX_KIND_FLOAT;
    }
    fputc('\n', f);
    part(em, "the fused kernel: the whole chain in one kernel");
    fprintf(f, "/* ==== the fused kernel: the whole chain in one kernel ==== */\n\n");
    if (shaped)
        fprintf(f, "/* Over %s, row-major: reads %s B and writes %s B, each input's own elements\n"
                   " * once (a broadcast one from the cache); every intermediate stays in registers.\n"
                   " * %d distinct op%s. %s\n",
                comment_safe(em, shape_text(p, &p->full)),
                comment_safe(em, traffic_formula(p, t->fterm, t->nfterm, -1, FUSEC_IN, FUSEC_IN)),
                comment_safe(em, traffic_formula(p, t->fterm, t->nfterm, -1, FUSEC_OUT, FUSEC_OUT)), t->nfused_ops,
                t->nfused_ops == 1 ? "" : "s",
                nw < nl ? "Each broadcast input is gathered (fx_gather): with ROW (the\n"
                          " * last dim a multiple of E, so a thread's E elements lie in one row), its place\n"
                          " * is found once for the E elements, and one along the last dim ([C]) is a vector\n"
                          " * load, one constant along it ([R, 1]) one element; without, each element's own."
                        : "No input is broadcast: ROW changes nothing.");
    else
        fprintf(f, "/* Reads %s B and writes %s B per element; every intermediate stays in registers%s\n"
                   " * %s%d distinct op%s.\n",
                fr, fw, half ? "," : ".", half ? "and f16 and bf16 values compute in float. " : "", t->nfused_ops,
                t->nfused_ops == 1 ? "" : "s");
    if (rn)
        fprintf(f, " * + - * are fx_add, fx_sub, fx_mul: each rounded on its own, as eager's kernels\n"
                   " * round them (nvcc would contract a * b + c into one fma, rounded once).\n");
    fprintf(f, " * E elements per thread: %d (%s), or %d for a grid of under\n"
               " * %s blocks (%s)%s.\n"
               " * A thread takes a whole chunk of E elements by vector accesses, with no bounds to\n"
               " * check; past the whole chunks, one element of the rest (the grid covers n / E + n %% E\n"
               " * threads, fx_tail_blocks), so that one launch covers any n. E = 1 where a pointer\n"
               " * is misaligned. */\n",
            e, why, e / 2 > 0 ? e / 2 : 1, half_blocks(em->wide),
            em->wide ? "under two waves: more threads in flight beat more bytes a thread"
                     : "small n: twice the threads, half the serial work each",
            em->tiny ? ",\n * and 1 for a grid of under FX_TINY_BLOCKS at that (a compute-heavy kernel at tiny n:\n"
                       " * one element a thread spreads its serial work over more SMs)"
                     : "");
    fused_args_struct(em, load, nl, store, nout, sc, nsc);
    /* Occupancy from the bytes a thread holds: all its loads; in a ROW instance the arrays of
     * the chain's shape, as a broadcast input's values are used as soon as they come:
     * layernorm_affine's ROW kernel 32 registers so, 48 counting its f32 [C] inputs, 40 in the
     * row kernel before it, which ran at 93.7% of the copy; bias_gelu's 32 ran at 76.6% (calls
     * 1-3 of 2026-12-04, docs/cuda.md). At E = 32 (1-byte data, two vectors a thread) a [C]
     * input's 32 values fill registers on their own: they count, at most as wide as the widest
     * array (an fp8 chain with an f32 [C] input spilled 162 bytes under 32 registers). With
     * 64-bit indices (n of 2^31 or more) the count of every load: 3-D and 4-D gathers spilled.
     * "1" (no minimum of blocks an SM) where min_blocks gives none. */
    bool divides = fused_divides_int(p);
    const char *mb = min_blocks(thread_bytes(p, e, load, nl, store, nout, 1), t->fcost.fp64, divides, true);
    int widest = 1, row_bytes = thread_bytes(p, e, whole, nw, store, nout, 1);
    for (int k = 0; k < nw + nout; k++) {
        int sz = fusec_dtype_size[p->inst[k < nw ? whole[k] : store[k - nw]].dtype];
        widest = sz > widest ? sz : widest;
    }
    for (int k = 0; k < nl; k++)
        if (gathered(p, load[k])) {
            int sz = fusec_dtype_size[p->inst[load[k]].dtype];
            row_bytes += e >= 32 && varies_last(p, &p->inst[load[k]].shape) ? e * (sz < widest ? sz : widest) : 0;
        }
    const char *mb_row = min_blocks(row_bytes, t->fcost.fp64, divides, true);
    bool same = mb == mb_row || (mb && mb_row && strcmp(mb, mb_row) == 0);
    const char *lb = !shaped || same ? launch_bounds(em, mb)
                                             : arena_printf(p->arena, "FX_THREADS, ROW && sizeof(I) == 4 ? %s : %s",
                                                            mb_row ? mb_row : "1", mb ? mb : "1");
    const char *P = em->c->prefix, *R = shaped ? ", bool ROW" : "", *r = shaped ? ", ROW" : "";
    fprintf(f, "template <typename I, int E%s>\n__device__ __forceinline__ void %s_fused_elems(const %s_fused_args &a, I i, I n)\n{\n",
            R, P, P);
    fused_args_locals(em, load, nl, store, nout, sc, nsc);
    for (int k = 0; k < nl; k++) {
        fprintf(f, "    %s %s_v[E];\n", store_t[p->inst[load[k]].dtype], lnames[k]);
        if (gathered(p, load[k])) {
            int rg = gather_rep(p, load[k]);
            bool along;
            int rank = gather_dims(p, &p->inst[load[k]].shape, &along);
            fprintf(f, "    fx_gather<E, %d, ROW, %s>(%s_v, %s, a.%s_b, i); /* %s */\n", rank,
                    along ? "true" : "false", lnames[k], lnames[k], em->cname[rg],
                    comment_safe(em, arena_printf(p->arena, "%s: %s%s%s%s", p->sym[p->inst[load[k]].sym].name,
                                                  shape_text(p, &p->inst[load[k]].shape),
                                                  rg != load[k] ? ", at the offsets of " : "",
                                                  rg != load[k] ? p->sym[p->inst[rg].sym].name : "",
                                                  rg != load[k] ? ", of the same layout" : "")));
        } else
            fprintf(f, "    fx_load<E>(%s_v, %s, i, n, true);\n", lnames[k], lnames[k]);
    }
    for (int k = 0; k < nout; k++)
        fprintf(f, "    %s %s_v[E];\n", store_t[p->inst[store[k]].dtype], snames[k]);
    fprintf(f, "#pragma unroll\n    for (int e = 0; e < E; e++) {\n");
    emit_fused_values(em, "        ", "_v[e]");
    for (int k = 0; k < nout; k++)
        out_element(em, snames[k], store[k]);
    fprintf(f, "    }\n");
    for (int k = 0; k < nout; k++)
        fprintf(f, "    fx_store<E>(%s, i, n, true, %s_v);\n", snames[k], snames[k]);
    fprintf(f, "}\n\n");
    fprintf(f, "template <typename I, int E%s>\n__global__ void __launch_bounds__(%s) %s_fused_kernel(const %s_fused_args a, I n)\n{\n",
            R, lb, P, P);
    fprintf(f, "    const I t = (I)blockIdx.x * FX_THREADS + threadIdx.x, chunks = n / E;\n"
               "    if (t < chunks) /* a whole chunk */\n"
               "        %s_fused_elems<I, E%s>(a, t * E, n);\n"
               "    else if (chunks * E + (t - chunks) < n) /* past them, one element of the rest */\n"
               "        %s_fused_elems<I, 1%s>(a, chunks * E + (t - chunks), n);\n}\n",
            P, r, P, r);
}

/* ---- host API ----------------------------------------------------------- */

/* "(const float *x, float *y, float s, size_t n, cudaStream_t stream)" */
static void api_params(Emitter *em, FILE *f)
{
    const Program *p = em->p;
    fputc('(', f);
    for (int k = 0; k < p->n_in; k++)
        fprintf(f, "const %s *%s, ", api_t[p->sym[p->inputs[k]].dtype], em->in_name[k]);
    for (int k = 0; k < p->n_out; k++) {
        int v = p->sym[p->outputs[k]].value;
        fprintf(f, "%s *%s, ", api_t[p->inst[v].dtype], em->cname[v]);
    }
    for (int k = 0; k < p->n_par; k++)
        fprintf(f, "%s %s, ", emit_cuda_param_type(p, k), em->par_name[k]);
    if (p->shaped)
        for (int d = 0; d < p->ndim; d++)
            fprintf(f, "size_t %s, ", em->dim_name[d]);
    else
        fprintf(f, "size_t n, ");
    fprintf(f, "cudaStream_t stream)");
}

/* A host scalar: a value of params and literals that is neither (computed
 * once on the host). */
static bool host_scalar(const Inst *in)
{
    return in->live && in->scalar && in->op != O_CONST && in->op != O_PARAM;
}

/* Host-side scalars: what Python computes in double before eager sees it.
 * The API computes them with the fx_ functions (they are __host__
 * __device__); the reference with its own ref_ functions, from the params as
 * the API takes them (emit_reference), so the two are the same to the bit
 * and no jump among them can fall otherwise on the device: the reference
 * keeps them from making the element fragile (a floor of a param times 10
 * would have made every element so). */
static void emit_host_scalars(Emitter *em, bool reference)
{
    const Program *p = em->p;
    bool any = false;
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (!host_scalar(in))
            continue;
        if (reference && !any)
            fprintf(em->f, "    const int fragile = fusec_ref_fragile; /* the host scalars are the API's: no jump */\n");
        any = true;
        char a[3][640], expr[2200];
        for (int j = 0; j < in->nargs; j++) {
            const Inst *x = &p->inst[in->arg[j]];
            if (x->op == O_CONST)
                constant(a[j], sizeof a[j], x->value, FX_F64);
            else
                snprintf(a[j], sizeof a[j], "(double)%s", em->cname[in->arg[j]]);
        }
        op_expr(expr, sizeof expr, p, in, FX_F64, a, false);
        if (op_info[in->op].cls == K_CAST && in->dtype != FX_F64) { /* a cast of a scalar rounds it */
            if (reference)
                snprintf(expr, sizeof expr, "ref_round(%s, %d)", a[0], in->dtype);
            else
                snprintf(expr, sizeof expr, "(double)fx_widen(fx_to_%s(%s))", fusec_dtype_name[in->dtype], a[0]);
        }
        if (reference && in->op == O_ROUND)
            snprintf(expr, sizeof expr, "fx_roundeven(%s)", a[0]); /* ref_round is the storage rounding */
        /* Python's // of two floats, not eager's f16 kernel's (ref_floor_divide has no f16 form) */
        if (in->op == O_FLOORDIV && !is_int(in->dtype))
            snprintf(expr, sizeof expr, "fx_floor_divide(%s, %s)", a[0], a[1]);
        bool builtin = strncmp(expr, "fx_", 3) == 0;
        fprintf(em->f, "    const double %s = %s%s;\n", em->cname[i], reference && builtin ? "ref_" : "",
                reference && builtin ? expr + 3 : expr);
    }
    if (reference && any)
        fprintf(em->f, "    fusec_ref_fragile = fragile;\n");
}

/* "!fx_scalar_only && ... && fx_aligned(x_u, 4, 4) && ...": the condition for
 * the fused kernel's vector accesses of e elements: every live output
 * aligned, and every live input it loads by vectors (those it does not
 * gather). along: instead, what a shaped chain's ROW instances need beyond
 * that: every gathered input that varies along the last dim aligned, as
 * fx_gather loads it by vectors then (NULL when no input is gathered). */
static const char *vec_cond(Emitter *em, int e, bool along)
{
    const Program *p = em->p;
    const char *c = along ? "vec" : "!fx_scalar_only";
    bool some = false;
    for (int k = 0; k < p->n_in + p->n_out; k++) {
        int v = k < p->n_in ? p->sym[p->inputs[k]].value : p->sym[p->outputs[k - p->n_in]].value;
        if (v < 0 || !p->inst[v].live)
            continue;
        bool in = k < p->n_in;
        some |= in && gathered(p, v);
        if (along ? !in || !gathered(p, v) || !varies_last(p, &p->inst[v].shape) : in && gathered(p, v))
            continue;
        c = arena_printf(p->arena, "%s && fx_aligned(%s, %d, %d)", c, em->cname[v], align_elems(e, p->inst[v].dtype),
                         fusec_dtype_size[p->inst[v].dtype]);
    }
    return along && !some ? NULL : c;
}

static void emit_flat_launches(Emitter *em, const char *row);

/* A shaped chain's fused call: its dims, each broadcast input's FxBcast, and
 * the flat kernel's launches, ROW where the rows allow. */
static void emit_fused_api_shaped(Emitter *em, int *fsc, int nfsc)
{
    FILE *f = em->f;
    const Program *p = em->p;
    int e = em->elems[em->t->nkernels];
    fprintf(f, "    const size_t rows = %s, cols = %s; /* every dim but the last, and the last */\n", rows_expr(em),
            pos_size(em, p->full.rank - 1));
    fprintf(f, "    if (rows == 0 || cols == 0)\n        return cudaSuccess;\n");
    n_guard(f, "rows * cols");
    emit_host_scalars(em, false);
    for (int k = 0; k < p->n_in; k++) {
        int v = p->sym[p->inputs[k]].value;
        if (owns_bcast(p, v))
            bcast_init(em, arena_printf(p->arena, "%s_b", em->cname[v]), &p->inst[v].shape, &p->full, true);
    }
    fused_args_init(em, fsc, nfsc);
    fprintf(f, "    const size_t n = rows * cols;\n    const bool vec = %s;\n", vec_cond(em, e, false));
    const char *row = vec_cond(em, e, true);
    if (row && e > 2)
        fprintf(f, "    /* where a thread's chunk lies in one row (cols a multiple of %d, or else of %d with %d a\n"
                   "     * thread), each broadcast input's place is found once a chunk (ROW) */\n    const bool row = %s;\n",
                e, e / 2, e / 2, row);
    else if (row)
        fprintf(f, "    /* where a thread's chunk lies in one row (cols a multiple of %d), each broadcast\n"
                   "     * input's place is found once a chunk (ROW) */\n    const bool row = %s;\n", e, row);
    emit_flat_launches(em, row ? "row" : NULL);
    fprintf(f, "}\n");
}

/* A shaped chain's unfused kernel k: its elements, and for each broadcast
 * operand the FxBcast that finds its elements (TensorIterator's strides). */
/* A broadcast kernel (emit_broadcast_kernel): FUSEC_BCAST_E elements a thread;
 * its FxBcast arguments (extra, ", k1_b0, ...") follow n. */
static void launch_broadcast(Emitter *em, const char *kernel, const char *args, const char *extra)
{
    fprintf(em->f, "    if (n <= FX_INDEX32_MAX)\n        %s<unsigned><<<fx_blocks(n, %d), FX_THREADS, 0, stream>>>(%s(unsigned)n%s);\n",
            kernel, FUSEC_BCAST_E, args, extra);
    fprintf(em->f, "    else\n        %s<size_t><<<fx_blocks(n, %d), FX_THREADS, 0, stream>>>(%sn%s);\n", kernel, FUSEC_BCAST_E,
            args, extra);
}

/* "FxBcast NAME = {...}; fx_bcast_magic(&NAME);": how an operand of shape as
 * finds its elements in a result of shape rs (its sizes, innermost first, and
 * its strides, 0 where it is broadcast); returns its number of dims.
 * coalesce (the fused kernel's gather): neighbouring dims along which it
 * varies alike become one (a [R, C] operand of a [B, R, C] result: R*C
 * elements, then B with stride 0), so each element's offset takes fewer
 * divides; unfused kernels keep a divide a dim, as TensorIterator's
 * OffsetCalculator (gather_dims counts the coalesced dims). */
static int bcast_init(Emitter *em, const char *name, const Shape *as, const Shape *rs, bool coalesce)
{
    const Program *p = em->p;
    const char *size[LIMIT_DIMS], *stride[LIMIT_DIMS];
    bool varies[LIMIT_DIMS];
    int n = 0;
    const char *own = "1"; /* the operand's stride at this dim: the product of its later dims */
    for (int j = rs->rank - 1; j >= 0; j--) {
        int ja = j - (rs->rank - as->rank);
        int d = ja >= 0 ? as->dim[ja] : DIM_ONE;
        const char *sz = rs->dim[j] == DIM_ONE ? "1" : em->dim_name[rs->dim[j]];
        if (coalesce && n > 0 && varies[n - 1] == (d != DIM_ONE))
            size[n - 1] = strcmp(sz, "1") == 0              ? size[n - 1]
                          : strcmp(size[n - 1], "1") == 0 ? sz
                                                          : arena_printf(p->arena, "%s * %s", size[n - 1], sz);
        else {
            size[n] = sz;
            stride[n] = d == DIM_ONE ? "0" : own;
            varies[n++] = d != DIM_ONE;
        }
        if (d != DIM_ONE)
            own = strcmp(own, "1") == 0 ? em->dim_name[d] : arena_printf(p->arena, "%s * %s", own, em->dim_name[d]);
    }
    fprintf(em->f, "    FxBcast %s = {%d, {", name, n);
    for (int q = 0; q < n; q++)
        fprintf(em->f, "%s%s", q ? ", " : "", size[q]);
    fprintf(em->f, "}, {");
    for (int q = 0; q < n; q++)
        fprintf(em->f, "%s%s", q ? ", " : "", stride[q]);
    fprintf(em->f, "}, {0}, {0}};\n    fx_bcast_magic(&%s);\n", name);
    return n;
}

static void emit_kernel_shape(Emitter *em, int k)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const Kernel *kr = &em->t->kernels[k];
    const Shape *rs = &p->inst[kr->inst].shape;
    fprintf(f, "    n = %s;\n", numel_expr(em, rs));
    for (int r = 0; r < kr->nread; r++) {
        const Shape *as = &p->inst[kr->read[r]].shape;
        if (!shape_same_layout(p, as, rs))
            bcast_init(em, arena_printf(p->arena, "k%d_b%d", k + 1, r), as, rs, false);
    }
}

static void launch(Emitter *em, const char *kernel, const char *args, int e, bool apart)
{
    /* eager's shape: a block of FX_THREADS * e elements; else whole chunks of e, then the tail one a thread */
    const char *grid = apart ? "fx_blocks" : "fx_tail_blocks";
    fprintf(em->f, "    if (n <= FX_INDEX32_MAX)\n        %s<unsigned><<<%s(n, %d), FX_THREADS, 0, stream>>>(%s(unsigned)n, vec);\n",
            kernel, grid, e, args);
    fprintf(em->f, "    else\n        %s<size_t><<<%s(n, %d), FX_THREADS, 0, stream>>>(%sn, vec);\n", kernel, grid, e,
            args);
}

/* One launch of the fused kernel over all n elements: I the index type, e its
 * E (whole chunks of e a thread, then the rest one element a thread); a shaped
 * chain's (row: the condition of its ROW instance, NULL for none) picks its
 * ROW instance when the condition holds. */
static void chunk_launch(Emitter *em, const char *indent, const char *I, int e, const char *row)
{
    const char *K = arena_printf(em->p->arena, "%s_fused_kernel<%s, %d", em->c->prefix, I, e);
    const char *L = arena_printf(em->p->arena, "<<<fx_tail_blocks(n, %d), FX_THREADS, 0, stream>>>(args, %sn);\n", e,
                                 strcmp(I, "unsigned") == 0 ? "(unsigned)" : "");
    if (!em->p->shaped)
        fprintf(em->f, "%s%s>%s", indent, K, L);
    else if (!row)
        fprintf(em->f, "%s%s, false>%s", indent, K, L);
    else
        fprintf(em->f, "%sif (%s)\n%s    %s, true>%s%selse\n%s    %s, false>%s", indent, row, indent, K, L, indent, indent,
                K, L);
}

/* The flat fused kernel's launch over n elements (emit_fused_kernel), after
 * args and vec (vec_cond): one launch, whose E the pointers' alignment and
 * the grid's size pick; its threads past the whole chunks take the rest one
 * element each. row: a shaped chain's variable that allows its ROW instances
 * (emit_fused_api_shaped), or NULL. */
static void emit_flat_launches(Emitter *em, const char *row)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const Traffic *t = em->t;
    int e = em->elems[t->nkernels]; /* set by emit_fused_kernel */
    int es = e / 2 > 0 ? e / 2 : 1;
    const char *row_e = row ? arena_printf(p->arena, "%s && cols %% %d == 0", row, e) : NULL;
    const char *row_es = row && es > 1 ? arena_printf(p->arena, "%s && cols %% %d == 0", row, es) : NULL;
    fprintf(f, "    /* whole chunks of E by vector accesses, and past them the rest element by element, in one launch */\n"
               "    if (!vec && n <= FX_INDEX32_MAX) /* a misaligned pointer: one element a thread */\n");
    chunk_launch(em, "        ", "unsigned", 1, NULL);
    fprintf(f, "    else if (!vec)\n");
    chunk_launch(em, "        ", "size_t", 1, NULL);
    if (em->tiny && es > 1) {
        fprintf(f, "    else if (n <= FX_INDEX32_MAX && fx_blocks(n, %d) < FX_TINY_BLOCKS) /* one element a thread */\n", es);
        chunk_launch(em, "        ", "unsigned", 1, NULL);
    }
    /* a shaped chain whose rows are a multiple of E / 2 but not of E: E / 2 a thread, ROW */
    const char *odd = row_es ? arena_printf(p->arena, " || (%s && cols %% %d != 0 && cols %% %d == 0)", row, e, es)
                                     : "";
    fprintf(f, "    else if (n <= FX_INDEX32_MAX && %sfx_blocks(n, %d) < %s%s%s)%s\n", *odd ? "(" : "", e,
            half_blocks(em->wide), odd, *odd ? ")" : "", p->shaped ? " {" : "");
    chunk_launch(em, "        ", "unsigned", es, row_es);
    fprintf(f, "    %selse if (n <= FX_INDEX32_MAX)%s\n", p->shaped ? "} " : "", p->shaped ? " {" : "");
    chunk_launch(em, "        ", "unsigned", e, row_e);
    fprintf(f, "    %selse%s\n", p->shaped ? "} " : "", p->shaped ? " {" : "");
    chunk_launch(em, "        ", "size_t", e, row_e);
    if (p->shaped)
        fprintf(f, "    }\n");
    fprintf(f, "    return cudaGetLastError();\n");
}

static void emit_fused_api(Emitter *em, int *fsc, int nfsc)
{
    fprintf(em->f, "    if (n == 0)\n        return cudaSuccess;\n");
    n_guard(em->f, "n");
    emit_host_scalars(em, false);
    fprintf(em->f, "    const bool vec = %s;\n", vec_cond(em, em->elems[em->t->nkernels], false));
    fused_args_init(em, fsc, nfsc);
    emit_flat_launches(em, NULL);
    fprintf(em->f, "}\n");
}

static void emit_unfused_api(Emitter *em)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const Traffic *t = em->t;
    const char *P = em->c->prefix;
    Arena *a = p->arena;
    const int *slot = t->slot, *first = t->slot_first, nslots = t->nslots;
    double scratch = 0;
    for (int s = 0; s < nslots; s++)
        scratch += fusec_dtype_size[p->inst[t->kernels[first[s]].inst].dtype];
    if (scratch > 0 && p->shaped) {
        fprintf(f, "\n/* Scratch for the unfused intermediates, kept between calls and grown when the dims\n"
                   " * grow; %s_unfused_release() frees it. Not thread-safe: one stream at a time, like\n"
                   " * the static buffers it is. */\n",
                P);
    } else if (scratch > 0) {
        fprintf(f, "\n/* Scratch for the unfused intermediates (%g B per element), kept between calls and\n"
                   " * grown when n grows; %s_unfused_release() frees it. Not thread-safe: one stream\n"
                   " * at a time, like the static buffers it is. */\n",
                scratch, P);
    }
    if (scratch > 0) {
        fprintf(f, "static void *%s_scratch;\nstatic size_t %s_scratch_bytes;\n\n", P, P);
        fprintf(f, "extern \"C\" void %s_unfused_release(void)\n{\n    cudaFree(%s_scratch);\n    %s_scratch = NULL;\n"
                   "    %s_scratch_bytes = 0;\n}\n",
                P, P, P, P);
    } else {
        fprintf(f, "\n/* The unfused version has no intermediates here, so no scratch to free: every\n"
                   " * chain's API has this function. */\nextern \"C\" void %s_unfused_release(void)\n{\n}\n",
                P);
    }
    if (t->nkernels == 1)
        fprintf(f, "\n/* The chain as PyTorch eager runs it: 1 kernel, reading its operands from memory\n"
                   " * and writing its result in its storage dtype. */\nextern \"C\" cudaError_t %s_unfused",
                P);
    else
        fprintf(f, "\n/* The chain as PyTorch eager runs it: %d kernels, each reading its operands from\n"
                   " * memory and writing its result back in its storage dtype. */\nextern \"C\" cudaError_t %s_unfused",
                t->nkernels, P);
    api_params(em, f);
    if (p->shaped)
        fprintf(f, "\n{\n    size_t n = %s; /* elements of the chain's shape %s */\n    if (n == 0)\n"
                   "        return cudaSuccess;\n",
                numel_expr(em, &p->full), comment_safe(em, shape_text(p, &p->full)));
    else
        fprintf(f, "\n{\n    if (n == 0)\n        return cudaSuccess;\n");
    n_guard(f, "n");
    /* scratch layout: one 256-byte-aligned region per slot (traffic_slots) */
    if (scratch > 0) {
        fprintf(f, "    /* a slot per live intermediate: one whose last reader has run hands its slot on,\n"
                   "     * as eager's caching allocator hands on a freed temporary's block */\n"
                   "    size_t need = 0;\n");
        for (int s = 0; s < nslots; s++) {
            int i = t->kernels[first[s]].inst;
            fprintf(f, "    const size_t s%d_at = need;\n    need += (%s * %d + 255) / 256 * 256;\n", s + 1,
                    p->shaped ? numel_expr(em, &p->inst[i].shape) : "n", fusec_dtype_size[p->inst[i].dtype]);
        }
        fprintf(f, "    if (need > %s_scratch_bytes) {\n        %s_unfused_release();\n"
                   "        cudaError_t err = cudaMalloc(&%s_scratch, need);\n"
                   "        if (err != cudaSuccess)\n            return err;\n        %s_scratch_bytes = need;\n    }\n",
                P, P, P, P);
    }
    for (int k = 0; k < t->nkernels; k++) {
        int i = t->kernels[k].inst;
        if (slot[k] >= 0)
            fprintf(f, "    %s *t%d = (%s *)((char *)%s_scratch + s%d_at);\n", store_t[p->inst[i].dtype], k + 1,
                    store_t[p->inst[i].dtype], P, slot[k] + 1);
    }
    emit_host_scalars(em, false);
    bool any_vec = false; /* a kernel without a broadcast operand takes vector accesses */
    for (int k = 0; k < t->nkernels; k++)
        any_vec |= !kernel_broadcasts(em, k);
    fprintf(f, "%s    cudaError_t err;\n", any_vec ? "    bool vec;\n" : "");
    for (int k = 0; k < t->nkernels; k++) {
        const Kernel *kr = &t->kernels[k];
        int ke = em->elems[k]; /* set by emit_unfused_kernel */
        char *kargs = arena_printf(a, "%s", "");
        char *kal = arena_printf(a, "%s", "!fx_scalar_only");
        for (int r = 0; r < kr->nread + 1; r++) {
            int x = r < kr->nread ? kr->read[r] : kr->inst;
            const char *nm = em->out_of[x] >= 0 || p->inst[x].op == O_INPUT ? em->cname[x]
                                                                           : arena_printf(a, "t%d", t->kernel_of[x] + 1);
            kargs = arena_printf(a, "%s(%s%s *)%s, ", kargs, r < kr->nread ? "const " : "", store_t[p->inst[x].dtype], nm);
            kal = arena_printf(a, "%s && fx_aligned(%s, %d, %d)", kal, nm,
                               align_elems(em->apart[k] ? em->apart[k] : ke, p->inst[x].dtype),
                               fusec_dtype_size[p->inst[x].dtype]);
        }
        int sc[3];
        int nsc = kernel_scalars(em, &kr->inst, 1, false, sc, em->seen);
        for (int s = 0; s < nsc; s++)
            kargs = arena_printf(a, "%s(double)%s, ", kargs, em->cname[sc[s]]);
        fprintf(f, "    /* k%d */\n", k + 1);
        if (p->shaped)
            emit_kernel_shape(em, k);
        if (kernel_broadcasts(em, k)) {
            char *extra = arena_printf(a, "%s", "");
            for (int r = 0; r < kr->nread; r++)
                if (!shape_same_layout(p, &p->inst[kr->read[r]].shape, &p->inst[kr->inst].shape))
                    extra = arena_printf(a, "%s, k%d_b%d", extra, k + 1, r);
            launch_broadcast(em, unfused_name(em, k), kargs, extra);
        } else {
            fprintf(f, "    vec = %s;\n", kal);
            launch(em, unfused_name(em, k), kargs, ke, em->apart[k] > 0);
        }
        fprintf(f, "    if ((err = cudaGetLastError()) != cudaSuccess)\n        return err;\n");
    }
    fprintf(f, "    return cudaSuccess;\n}\n");
}

static void emit_api(Emitter *em, int *fsc, int nfsc)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const char *P = em->c->prefix;
    Arena *a = p->arena;

    /* fused */
    fputc('\n', f);
    part(em, arena_printf(a, "host API (%s_fused, %s_unfused)", P, P));
    fprintf(f, "/* ==== host API ==== */\n\n/* The fused version: %s. */\nextern \"C\" cudaError_t %s_fused",
            p->shaped ? "one launch of its kernel: whole chunks of E a thread (each in one row where the last dim allows), the tail past them one element a thread"
                      : "one launch of its kernel: whole chunks of E a thread, the tail past them one element a thread", P);
    api_params(em, f);
    fprintf(f, "\n{\n");
    if (p->shaped)
        emit_fused_api_shaped(em, fsc, nfsc);
    else
        emit_fused_api(em, fsc, nfsc);
    emit_unfused_api(em);
}

/* ---- the CUB version (-DFUSEC_CUB) ---------------------------------------- */

/* The fused chain's element function as a functor for cub::DeviceTransform
 * (CCCL, in the CUDA toolkit), and P_cub with P_fused's arguments: the same
 * arithmetic as the fused kernel, in CUB's kernel shape. A library baseline
 * for the fused kernel (docs/cuda.md, "The CUB version"). All outputs come
 * from one call: a zip iterator over their pointers takes the tuple the
 * functor returns, so the inputs are read once, as the fused kernel reads
 * them. Not for a shaped chain: DeviceTransform pairs element i of every
 * array, and a shaped chain broadcasts. */
static void emit_cub(Emitter *em, const int *sc, int nsc)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const char *P = em->c->prefix;
    int nout = p->n_out;
    fputc('\n', f);
    part(em, arena_printf(p->arena, "#ifdef FUSEC_CUB (the fused chain through cub::DeviceTransform: %s_cub)", P));
    fprintf(f, "#ifdef FUSEC_CUB\n/* ==== the CUB version: the fused chain through cub::DeviceTransform ==== */\n\n");
    fprintf(f, "/* Compiled in with -DFUSEC_CUB. The fused kernel's element function, run by CUB's\n"
               " * DeviceTransform (CCCL, in the CUDA toolkit) instead of by %s_fused_kernel: the same\n"
               " * arithmetic, so the same results, in CUB's kernel shape. On sm_90 each block copies\n"
               " * its tile of every input into shared memory with bulk copies (TMA), with enough\n"
               " * elements per thread for about 48 KiB in flight per SM, then each thread computes\n"
               " * and stores one element at a time. A baseline: the best hand-written library\n"
               " * transform, which the harness times with the same method as the other versions.\n"
               " * Compiled in, those bulk copies make nvcc reserve 1 KiB of shared memory in every\n"
               " * kernel of the module, the fused and unfused ones too (in one H200 run the fused\n"
               " * kernel was 3%% slower at 4096 elements so: docs/cuda.md). Time the fused kernel from a\n"
               " * build without -DFUSEC_CUB, as bench/fusion_bench.py does. */\n",
            P);
    fprintf(f, "#include <cub/device/device_transform.cuh>\n");
    if (nout > 1)
        fprintf(f, "#include <thrust/iterator/zip_iterator.h>\n");

    /* the functor */
    char *rt = NULL, *args = NULL;
    size_t rlen = 0, alen = 0;
    FILE *fr = mem_open(&rt, &rlen), *fa = mem_open(&args, &alen);
    for (int k = 0; k < nout; k++)
        fprintf(fr, "%s%s", k ? ", " : "", store_t[p->inst[p->sym[p->outputs[k]].value].dtype]);
    int nl = 0;
    for (int k = 0; k < p->n_in; k++) {
        int v = p->sym[p->inputs[k]].value;
        if (v >= 0 && p->inst[v].live)
            fprintf(fa, "%s%s %s", nl++ ? ", " : "", store_t[p->inst[v].dtype], em->cname[v]);
    }
    fclose(fr);
    fclose(fa);
    fprintf(f, "\n/* One element: each input's value in, %s out.\n"
               " * Params and the scalars the host computes are members, passed by value with\n"
               " * the functor. */\n",
            nout == 1 ? "the output's value" : "the outputs' values as a tuple");
    fprintf(f, "struct %s_cub_op {\n", P);
    for (int k = 0; k < nsc; k++)
        fprintf(f, "    double %s;\n", em->cname[sc[k]]);
    if (nout == 1)
        fprintf(f, "    __device__ %s operator()(%s) const\n    {\n", rt, args);
    else
        fprintf(f, "    __device__ cuda::std::tuple<%s> operator()(%s) const\n    {\n", rt, args);
    free(rt);
    free(args);
    emit_fused_values(em, "        ", "");
    fprintf(f, "        return %s", nout == 1 ? "" : "cuda::std::make_tuple(");
    for (int k = 0; k < nout; k++) {
        int v = p->sym[p->outputs[k]].value;
        fprintf(f, "%sfx_to_%s(v%d)", k ? ", " : "", to_fn(p, p->inst[v].dtype, ir_stored_value(p, v)),
                stored_vnum(em, v));
    }
    fprintf(f, "%s;\n    }\n};\n", nout == 1 ? "" : ")");

    /* the API */
    fprintf(f, "\n/* What %s_fused computes, from the same arguments, by one call of\n"
               " * cub::DeviceTransform::Transform%s. */\nextern \"C\" cudaError_t %s_cub",
            P, nout == 1 ? "" : " for all the outputs", P);
    api_params(em, f);
    fprintf(f, "\n{\n    if (n == 0)\n        return cudaSuccess;\n");
    emit_host_scalars(em, false);
    fprintf(f, "    const %s_cub_op op = {", P);
    for (int k = 0; k < nsc; k++)
        fprintf(f, "%s(double)%s", k ? ", " : "", em->cname[sc[k]]);
    fprintf(f, "};\n    const auto in = cuda::std::make_tuple(");
    nl = 0;
    for (int k = 0; k < p->n_in; k++) {
        int v = p->sym[p->inputs[k]].value;
        if (v >= 0 && p->inst[v].live)
            fprintf(f, "%s(const %s *)%s", nl++ ? ", " : "", store_t[p->inst[v].dtype], em->cname[v]);
    }
    fprintf(f, ");\n");
    if (nout == 1) {
        int v = p->sym[p->outputs[0]].value;
        fprintf(f, "    %s *const out = (%s *)%s;\n", store_t[p->inst[v].dtype], store_t[p->inst[v].dtype], em->cname[v]);
    } else {
        fprintf(f, "    const auto out = thrust::make_zip_iterator(");
        for (int k = 0; k < nout; k++) {
            int v = p->sym[p->outputs[k]].value;
            fprintf(f, "%s(%s *)%s", k ? ", " : "", store_t[p->inst[v].dtype], em->cname[v]);
        }
        fprintf(f, ");\n");
    }
    fprintf(f, "    /* 32-bit indices where n allows them, as the fused kernel */\n"
               "    const cudaError_t err = n <= 0x7fffffffu ? cub::DeviceTransform::Transform(in, out, (int)n, op, stream)\n"
               "                                             : cub::DeviceTransform::Transform(in, out, (long long)n, op, stream);\n"
               "    const cudaError_t last = cudaGetLastError(); /* clears a launch error, as the other versions do */\n"
               "    return err != cudaSuccess ? err : last;\n}\n#endif /* FUSEC_CUB */\n");
}

/* ---- the harness's view of the chain -------------------------------------- */

static void cost_init(FILE *f, const FusecKernelCost *k)
{
    fprintf(f, "{%g, %g, %g, %g, %g, %g, %.4g, %.4g, %d, %d, %d, %g, %g, %d, %g, %g, %g, %g, %g, %g}", k->in_bytes,
            k->mid_read, k->mid_write, k->out_bytes, k->flops, k->trans, k->slots32, k->slots64, k->fp64,
            k->count > 0 ? k->count : 1, k->reuse, k->mid_dist, k->gather, k->last, k->reread, k->reread_dist,
            k->reread_row, k->row_dist, k->in_again, k->again_dist);
}

static void c_string(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs(i + 1 < len ? "\\n\"\n    \"" : "\\n", f);
        else if (ch < 0x20 || ch >= 0x7F || (ch == '?' && i + 1 < len && s[i + 1] == '?'))
            fprintf(f, "\\%03o", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* Whether a value is an integer wherever it is computed, so that a
 * conversion of it to an integer dtype is exact on both sides (no jump to
 * watch): floor, ceil, round, trunc, integers, fp8 values, and clamp, min, max, where ...
 * of those and of integer-valued literals. ok[] holds the answer of every
 * earlier instruction. */
static bool integral_valued(const Program *p, int i, const bool *ok)
{
    const Inst *in = &p->inst[i];
    if (in->op == O_CONST)
        return in->value == nearbyint(in->value);
    /* an fp8 value is the same on both sides too: the reference marks the
     * elements next to its rounding's boundaries */
    if (is_int(in->dtype) || in->dtype == FX_BOOL || in->op == O_FLOOR || in->op == O_CEIL || in->op == O_ROUND ||
        in->op == O_TRUNC || FX_IS_FP8(in->dtype))
        return true;
    switch (in->op) {
    case O_CLAMP: case O_MIN: case O_MAX: case O_RELU: case O_ABS: case O_NEG: case O_NEGATE: case O_WHERE:
    case O_COPY: case O_SIGN:
        break;
    default:
        if (op_info[in->op].cls != K_CAST)
            return false;
    }
    for (int a = op_info[in->op].cls == K_WHERE; a < in->nargs; a++)
        if (!ok[in->arg[a]])
            return false;
    return true;
}

/* Whether an operand of a float comparison, value i written in the reference
 * as text, is the same number there as in the kernels: an input as stored, or
 * a literal whose text is exactly the number the kernel compares (in f32, a
 * literal's shortest text is exact only for short binary fractions: 2.5, not
 * 2.3). A comparison of two such operands, or of a value with itself, has no
 * jump to watch: no element is fragile for it. */
static bool exact_operand(const Program *p, int i, const char *text, int ct)
{
    if (p->inst[i].op == O_INPUT)
        return true;
    if (p->inst[i].op != O_CONST)
        return false;
    char *end;
    double v = strtod(text, &end);
    return end != text && *end == 0 && (ct != FX_F32 || (double)(float)v == v);
}

/* The reference of an op that computes in integer type ct, on operand
 * expressions a[] (long long): fusec_ref.h's ref_int_ functions. */
static void ref_int_expr(char *buf, size_t len, const Inst *in, int ct, char a[3][640])
{
    Op op = (Op)in->op;
    const OpInfo *info = &op_info[op];
    const char *f = op_word(op); /* ref_int_add, ref_int_floor_divide, ... */
    /* the ones that wrap take the dtype */
    bool wraps = op == O_ADD || op == O_SUB || op == O_MUL || op == O_NEGATE || op == O_NEG || op == O_ABS ||
                 op == O_NOT || op == O_REM || op == O_FLOORDIV || op == O_SHL || op == O_SHR;
    if (info->cls == K_CMP)
        snprintf(buf, len, "(%s %s %s ? 1.0 : 0.0)", a[0], op_name(op), a[1]);
    else if (info->cls == K_WHERE)
        snprintf(buf, len, "(%s != 0 ? %s : %s)", a[0], a[1], a[2]);
    else if (op == O_COPY)
        snprintf(buf, len, "%s", a[0]);
    else if (in->nargs == 1)
        snprintf(buf, len, wraps ? "ref_int_%s(%s, %d)" : "ref_int_%s(%s)", f, a[0], ct);
    else if (in->nargs == 2)
        snprintf(buf, len, wraps ? "ref_int_%s(%s, %s, %d)" : "ref_int_%s(%s, %s)", f, a[0], a[1], ct);
    else
        snprintf(buf, len, "ref_int_%s(%s, %s, %s)", f, a[0], a[1], a[2]);
}

/* The reference, in double (integers exactly, in long long): rounds where
 * the version rounds. */
static void emit_reference(Emitter *em)
{
    FILE *f = em->f;
    const Program *p = em->p;
    bool scalars = false; /* a literal or param operand of a tensor op */
    for (int i = 0; i < p->ninst; i++)
        for (int a = 0; a < p->inst[i].nargs; a++)
            scalars |= p->inst[i].live && !p->inst[i].scalar && p->inst[p->inst[i].arg[a]].scalar;
    bool *whole = arena_alloc(p->arena, (size_t)p->ninst + 1);
    for (int i = 0; i < p->ninst; i++)
        whole[i] = integral_valued(p, i, whole);
    fprintf(f, "\n/* The host reference for one element, in double (integers exactly, as long long).\n"
               " * Unfused rounds every kernel's result to its storage dtype, as eager does; fused\n"
               " * rounds each value to its compute type.%s */\n",
            scalars ? " Scalars are rounded to the type the op computes in." : "");
    fprintf(f, "static void %s_reference(int fused, const FusecValue *in, const double *par, FusecValue *out)\n{\n",
            em->c->prefix);
    fprintf(f, "    (void)in;\n    (void)par;\n");
    for (int k = 0; k < p->n_in; k++) {
        int v = p->sym[p->inputs[k]].value;
        bool iv = is_int(p->sym[p->inputs[k]].dtype);
        if (v >= 0 && p->inst[v].live) /* a dead one would be nvcc's warning 177 */
            fprintf(f, "    const %s v%d = in[%d].%s; /* %s */\n", iv ? "long long" : "double", em->vnum[v], k,
                    iv ? "i" : "f", p->sym[p->inputs[k]].name);
    }
    /* each param as the C API takes it, so that the host scalars below are the API's to the bit */
    for (int k = 0; k < p->n_par; k++) {
        int v = p->sym[p->params[k]].value;
        if (v >= 0 && p->inst[v].live)
            fprintf(f, "    const double %s = (%s)par[%d];\n", em->cname[v], emit_cuda_param_type(p, k), k);
    }
    emit_host_scalars(em, true);
    for (int pass = 0; pass < 2; pass++) {
        bool fused = pass == 1;
        fprintf(f, "    %s {\n", fused ? "else" : "if (!fused)");
        for (int i = 0; i < p->ninst; i++) {
            const Inst *in = &p->inst[i];
            if (!in->live || in->scalar || in->op == O_INPUT || (fused && in->canon != i))
                continue;
            int ct = in->ct;
            char a[3][640], expr[2200];
            for (int j = 0; j < in->nargs; j++) {
                int x = fused ? p->inst[in->arg[j]].canon : in->arg[j];
                const Inst *arg = &p->inst[x];
                int want = op_info[in->op].cls == K_WHERE && j == 0 ? FX_BOOL : ct;
                /* unfused: the number rounded as its kernel rounds it */
                int common = fused || !arg->scalar ? -1 : eager_number_dtype(p, in, j);
                bool as_half = common >= 0;
                if (arg->op == O_CONST && as_half)
                    constant(a[j], sizeof a[j], ref_round(arg->value, common), want == FX_F32 ? FX_F32 : FX_F64);
                else if (arg->op == O_CONST)
                    literal(a[j], sizeof a[j], arg, is_int(want) ? want : want == FX_F32 ? FX_F32 : FX_F64);
                else if (as_half)
                    snprintf(a[j], sizeof a[j], "ref_round(%s, %d)", em->cname[x], common);
                else if (arg->scalar && is_int(want))
                    snprintf(a[j], sizeof a[j], "(long long)%s", em->cname[x]); /* a bool scalar */
                else if (arg->scalar)
                    snprintf(a[j], sizeof a[j], "ref_round(%s, %d)", em->cname[x], want == FX_BOOL ? FX_F64 : want);
                else if (is_int(want) && !is_int(arg->dtype))
                    snprintf(a[j], sizeof a[j], "(long long)v%d", em->vnum[x]); /* a bool value */
                else if (!is_int(want) && want != FX_BOOL && is_int(arg->dtype))
                    snprintf(a[j], sizeof a[j], "ref_int_to_float(v%d, %d)", em->vnum[x], want);
                else
                    snprintf(a[j], sizeof a[j], "v%d", em->vnum[x]);
                /* float constants print with an f suffix: drop it for double code. */
                size_t l = strlen(a[j]);
                if (arg->op == O_CONST && l > 1 && a[j][l - 1] == 'f' && a[j][l - 2] != 'N')
                    a[j][l - 1] = 0;
            }
            const OpInfo *info = &op_info[in->op];
            int from = in->nargs ? p->inst[in->arg[0]].dtype : in->dtype;
            int x0 = in->nargs > 0 ? (fused ? p->inst[in->arg[0]].canon : in->arg[0]) : -1;
            int x1 = in->nargs > 1 ? (fused ? p->inst[in->arg[1]].canon : in->arg[1]) : -2;
            if (info->cls == K_CAST && is_int(in->dtype))
                snprintf(expr, sizeof expr,
                         is_int(from) ? "ref_wrap((unsigned long long)%s, %d)"
                         : from == FX_BOOL ? "%s"
                                           : "ref_float_to_int(%s, %d, %d, %d)",
                         a[0], in->dtype, !whole[in->arg[0]], from == FX_F64);
            else if (info->cls == K_CAST && is_int(from))
                snprintf(expr, sizeof expr, in->dtype == FX_BOOL ? "(%s != 0 ? 1.0 : 0.0)" : "ref_int_to_float(%s, %d)",
                         a[0], in->dtype);
            else if (is_int(ct))
                ref_int_expr(expr, sizeof expr, in, ct, a);
            else if (info->cls == K_CMP &&
                     (x0 == x1 || (exact_operand(p, x0, a[0], ct) && exact_operand(p, x1, a[1], ct))))
                snprintf(expr, sizeof expr, "(%s %s %s ? 1.0 : 0.0)", a[0], op_name((Op)in->op), a[1]);
            else if (info->cls == K_CMP)
                snprintf(expr, sizeof expr, "ref_%s(%s, %s)", op_word((Op)in->op), a[0], a[1]);
            else if (info->cls == K_WHERE && is_int(in->dtype))
                snprintf(expr, sizeof expr, "(%s != 0 ? %s : %s)", a[0], a[1], a[2]);
            else if (info->cls == K_WHERE)
                snprintf(expr, sizeof expr, "ref_where(%s, %s, %s)", a[0], a[1], a[2]);
            else if (info->cls == K_CAST || in->op == O_COPY)
                snprintf(expr, sizeof expr, "%s", a[0]);
            else if (divides_by_literal_zero(p, in))
                snprintf(expr, sizeof expr, "ref_ovf(ref_div(%s, %s), %s, %s)", a[0], a[1], a[0], a[1]);
            else if (!fused && in->op == O_DIV && in->uform == 2) /* eager's reciprocal, in its dtype, times a */
                snprintf(expr, sizeof expr, "ref_ovf(%s * ref_round(1.0 / %s, %d), %s, %s)", a[0], a[1],
                         rdiv_dtype(p, in), a[0], a[1]);
            else if (in->op >= O_ADD && in->op <= O_DIV) /* + - * /: watch for overflow */
                snprintf(expr, sizeof expr, "ref_ovf(%s %s %s, %s, %s)", a[0], op_name((Op)in->op), a[1], a[0],
                         a[1]);
            else {
                op_expr(expr, sizeof expr, p, in, FX_F64, a, false);
                /* eager's sixth only where an unfused f64 kernel uses it */
                if ((in->op == O_HARDSWISH || in->op == O_HARDSIGMOID) && (fused || in->dtype != FX_F64))
                    snprintf(expr, sizeof expr, "fx_%s(%s)", op_info[in->op].name, a[0]);
                /* The reference computes pow by PyTorch's rules, whatever form
                 * the kernels run (PowForm): eager's, in the tensor's dtype, for
                 * unfused; the compute type's for fused. */
                if (in->op == O_POW && in->form != POW_GENERAL)
                    snprintf(expr, sizeof expr, "ref_pow_scalar(%s, %s, %d)", a[0], a[1],
                             fused ? dtype_compute(in->dtype) : in->dtype);
                if (in->op == O_ROUND)
                    snprintf(expr, sizeof expr, "ref_roundeven(%s)", a[0]);
                else if (in->op == O_FLOORDIV) /* one reference for both of eager's forms */
                    snprintf(expr, sizeof expr, "ref_floor_divide(%s, %s)", a[0], a[1]);
                else if (!strncmp(expr, "fx_", 3))
                    memmove(expr + 1, expr, strlen(expr) + 1), memcpy(expr, "ref", 3);
            }
            /* Where the value is rounded: unfused to its storage dtype; fused to its
             * compute type, or to the dtype an explicit cast names. An integer
             * is exact, each op wrapping it to its dtype already. */
            int r = in->dtype;
            if (fused && info->cls != K_CAST)
                r = dtype_compute(in->dtype);
            if (is_int(in->dtype))
                fprintf(f, "        const long long v%d = %s;\n", em->vnum[i], expr);
            else
                fprintf(f, "        const double v%d = ref_round(%s, %d);\n", em->vnum[i], expr,
                        r == FX_BOOL ? FX_BOOL : r);
        }
        for (int k = 0; k < p->n_out; k++) {
            int v = p->sym[p->outputs[k]].value;
            int vn = em->vnum[fused ? p->inst[v].canon : v];
            if (is_int(p->inst[v].dtype))
                fprintf(f, "        out[%d].i = v%d; /* %s */\n", k, vn, p->sym[p->outputs[k]].name);
            else
                fprintf(f, "        out[%d].f = ref_round(v%d, %d); /* %s */\n", k, vn, p->inst[v].dtype,
                        p->sym[p->outputs[k]].name);
        }
        fprintf(f, "    }\n");
    }
    fprintf(f, "}\n");
}

/* The significant bits of a float dtype, for choosing the least precise;
 * other dtypes carry no rounding error of their own. */
static int tol_bits(int dt)
{
    /* an fp8 value is exact (the reference marks its rounding's boundaries):
     * it makes nothing less precise */
    return fusec_dtype[dt].kind == FX_KIND_FLOAT && !FX_IS_FP8(dt) ? fusec_dtype[dt].prec : 1 << 20;
}

/* Bit q set: shape sh varies along position q of the chain's shape. */
static unsigned varies_mask(const Program *p, const Shape *sh)
{
    unsigned m = 0;
    for (int q = 0; q < p->full.rank; q++)
        m |= (unsigned)shape_varies(p, sh, q) << q;
    return m;
}

static void emit_terms(FILE *f, const char *P, const char *which, const FusecTerm *t, int n)
{
    fprintf(f, "static const FusecTerm %s_%sterms[] = {\n", P, which);
    static const char *const field[] = {
#define FUSEC_TERM_NAME(E, member) "FUSEC_" #E,
        FUSEC_TERM_FIELDS(FUSEC_TERM_NAME)
#undef FUSEC_TERM_NAME
    };
    for (int i = 0; i < n; i++)
        fprintf(f, "    {%d, %s, %.9g, {%d, %d, %d, %d}},\n", t[i].kernel, field[t[i].field], t[i].coef, t[i].exp[0],
                t[i].exp[1], t[i].exp[2], t[i].exp[3]);
    if (n == 0)
        fprintf(f, "    {0, FUSEC_IN, 0, {0, 0, 0, 0}},\n");
    fprintf(f, "};\n");
}

/* A shaped chain's shape, dims and cost terms, for the harness. */
static void emit_shape_tables(Emitter *em)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const char *P = em->c->prefix;
    fprintf(f, "\n/* The chain's shape (the dim at each position, -1 for 1), its dims in the API's order,\n"
               " * and each version's bytes and compute as terms in the dims (runtime/fusec_model.h). */\n");
    fprintf(f, "static const int %s_shape[] = {", P);
    for (int q = 0; q < p->full.rank; q++)
        fprintf(f, "%s%d", q ? ", " : "", p->full.dim[q]);
    fprintf(f, "};\nstatic const char *const %s_dims[] = {", P);
    for (int d = 0; d < p->ndim; d++)
        fprintf(f, "%s\"%s\"", d ? ", " : "", p->dim[d].name);
    fprintf(f, "};\n");
    emit_terms(f, P, "u", em->t->uterm, em->t->nuterm);
    emit_terms(f, P, "f", em->t->fterm, em->t->nfterm);
}

static void emit_harness(Emitter *em)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const Traffic *t = em->t;
    const char *P = em->c->prefix;
    fputc('\n', f);
    part(em, "#ifndef FUSEC_NO_HARNESS (the rest: the harness, left out of a library build)");
    fprintf(f, "#ifndef FUSEC_NO_HARNESS\n");
    emit_runtime(em, "fusec_dtype.h", "every fact about a dtype", true);
    emit_runtime(em, "fusec_model.h", "the time model", false);
    emit_runtime(em, "fusec_sizes.h", "the size lists", false);
    emit_runtime(em, "fusec_chain.h", "the chain descriptor's type", true);
    emit_runtime(em, "fusec_ref.h", "the double reference of every builtin", true);
    emit_runtime(em, "fusec_harness.cuh", "the test and timing program", true);
    fputc('\n', f);
    part(em, "the chain, as the harness sees it (its reference, costs, descriptor and main)");
    fprintf(f, "/* ==== the chain, as the harness sees it ==== */\n");
    emit_reference(em);
    /* in, mid read, mid write, out (bytes per element), flops, transcendentals, issue slots, fp64, kernels */
    fprintf(f, "\n/* The model's view of each version (runtime/fusec_model.h): bytes per element by kind,\n"
               " * flops, transcendentals, issue slots in fp32 and fp64 FMAs, fp64, and how many kernels\n"
               " * cost exactly that. */\n");
    fprintf(f, "static const FusecKernelCost %s_unfused_cost[] = {\n", P);
    for (int k = 0; k < t->ngroups; k++) {
        fprintf(f, "    ");
        cost_init(f, &t->ucost_grouped[k]);
        fprintf(f, ",\n");
    }
    fprintf(f, "};\nstatic const FusecKernelCost %s_fused_cost[] = {", P);
    cost_init(f, &t->fcost);
    fprintf(f, "};\n");
    /* The least precise float dtype each value depends on (the fewest
     * significant bits: bf16 < f16 < f32 < f64; bools and literals carry
     * none): the harness's tolerance. */
    int *low = arena_alloc(p->arena, sizeof(int) * (size_t)(p->ninst + 1));
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        low[i] = in->op == O_CONST ? FX_BOOL : in->dtype;
        for (int a = 0; a < in->nargs; a++) {
            int d = low[in->arg[a]];
            if (tol_bits(d) < tol_bits(low[i]))
                low[i] = d;
        }
    }
    fprintf(f, "static const FusecTensorArg %s_in[] = {", P);
    for (int k = 0; k < p->n_in; k++) {
        int d = p->sym[p->inputs[k]].dtype;
        fprintf(f, "%s{\"%s\", %s, %s", k ? ", " : "", p->sym[p->inputs[k]].name, dt_enum[d], dt_enum[d]);
        if (p->shaped)
            fprintf(f, ", 0x%xu", varies_mask(p, input_shape(p, k)));
        fputc('}', f);
    }
    fprintf(f, "};\nstatic const FusecTensorArg %s_out[] = {", P);
    for (int k = 0; k < p->n_out; k++) {
        int v = p->sym[p->outputs[k]].value;
        fprintf(f, "%s{\"%s\", %s, %s", k ? ", " : "", p->sym[p->outputs[k]].name, dt_enum[p->inst[v].dtype],
                dt_enum[low[v] == FX_BOOL ? p->inst[v].dtype : low[v]]);
        if (p->shaped)
            fprintf(f, ", 0x%xu", varies_mask(p, &p->inst[v].shape));
        fputc('}', f);
    }
    fprintf(f, "};\n");
    if (p->n_par) {
        fprintf(f, "static const FusecParamArg %s_par[] = {", P);
        for (int k = 0; k < p->n_par; k++) {
            const Sym *s = &p->sym[p->params[k]];
            char v[48];
            constant(v, sizeof v, s->pvalue, FX_F64); /* a double literal: -0.0, not the int -0 */
            fprintf(f, "%s{\"%s\", %s, %s}", k ? ", " : "", s->name, dt_enum[s->dtype], v);
        }
        fprintf(f, "};\n");
    }
    if (p->shaped)
        emit_shape_tables(em);
    /* run: the API over void pointers */
    if (p->shaped)
        fprintf(f, "\nstatic cudaError_t %s_run_dims(int fused, void *const *b, const double *par, const size_t *dims, "
                   "cudaStream_t s)\n{\n    (void)par;\n    return (fused ? %s_fused : %s_unfused)(", P, P, P);
    char *args = NULL;
    size_t alen = 0;
    FILE *fa = mem_open(&args, &alen);
    int nb = 0;
    for (int k = 0; k < p->n_in; k++)
        fprintf(fa, "(const %s *)b[%d], ", api_t[p->sym[p->inputs[k]].dtype], nb++);
    for (int k = 0; k < p->n_out; k++)
        fprintf(fa, "(%s *)b[%d], ", api_t[p->inst[p->sym[p->outputs[k]].value].dtype], nb++);
    for (int k = 0; k < p->n_par; k++)
        fprintf(fa, "(%s)par[%d], ", emit_cuda_param_type(p, k), k);
    if (p->shaped)
        for (int d = 0; d < p->ndim; d++)
            fprintf(fa, "dims[%d], ", d);
    fclose(fa);
    if (p->shaped)
        fprintf(f, "%ss);\n}\n", args);
    else
        fprintf(f, "\n/* Version 0 unfused, 1 fused, 2 the CUB version (with -DFUSEC_CUB). */\n"
                   "static cudaError_t %s_run(int version, void *const *b, const double *par, size_t n, cudaStream_t s)\n{\n"
                   "    (void)par;\n#ifdef FUSEC_CUB\n    if (version == 2)\n        return %s_cub(%sn, s);\n#endif\n"
                   "    return (version ? %s_fused : %s_unfused)(%sn, s);\n}\n",
                P, P, args, P, P, args);
    free(args);
    size_t plen = em->c->src->len > 4000 ? 4000 : em->c->src->len;
    fprintf(f, "\nstatic const FusecChain %s_chain = {\n    \"%s\",\n    ", P, P);
    c_string(f, em->c->src->name, strlen(em->c->src->name));
    fprintf(f, ",\n    ");
    c_string(f, em->c->src->text, plen);
    fprintf(f, ",\n    %d, %d, %d,\n    %s_in, %s_out, %s%s,\n", p->n_in, p->n_out, p->n_par, P, P, p->n_par ? P : "NULL",
            p->n_par ? "_par" : "");
    /* the fused call's chunks as its launches pick them, from this file's own thresholds */
    int e = t->fused.chunk;
    fprintf(f, "    {%d, %s_unfused_cost, %g, 0, 0},\n    {1, %s_fused_cost, %g, %d, %s%s},\n",
            t->ngroups, P, t->unfused.footprint, P, t->fused.footprint, e,
            t->fused.row_max > 0 ? "(double)FX_INDEX32_MAX" : "0.0",
            t->fused.gather_slots > 0 ? arena_printf(p->arena, ", %g /* gathers: fp32 slots an element that finds its own broadcast offsets */",
                                                         t->fused.gather_slots)
                                          : "");
    if (p->shaped) {
        fprintf(f, "    %g, %g,\n    NULL,\n    %s_reference,\n    2, /* versions: unfused and fused */\n",
                t->u_read + t->u_write, t->f_read + t->f_write, P);
        fprintf(f, "    %d, %s_shape, %d, %s_dims, %s_run_dims,\n    %d, %d, %s_uterms, %s_fterms,\n};\n", p->full.rank, P,
                p->ndim, P, P, t->nuterm, t->nfterm, P, P);
    } else {
        fprintf(f, "    %g, %g,\n    %s_run,\n    %s_reference,\n", t->u_read + t->u_write, t->f_read + t->f_write, P, P);
        fprintf(f, "#ifdef FUSEC_CUB\n    3, /* versions: unfused, fused and CUB */\n#else\n    2, /* versions: unfused and fused */\n"
                   "#endif\n};\n");
    }
    fprintf(f, "\nint main(int argc, char **argv)\n{\n    return fusec_harness_main(&%s_chain, argc, argv);\n}\n", P);
    fprintf(f, "#endif /* FUSEC_NO_HARNESS */\n");
}

/* ---- the file ------------------------------------------------------------ */

static void emitter_init(Emitter *em, FILE *f, const Chain *c)
{
    Program *p = c->prog;
    memset(em, 0, sizeof *em);
    em->f = f;
    em->c = c;
    em->p = p;
    em->t = &c->traffic;
    em->cname = arena_alloc(p->arena, sizeof(char *) * (size_t)(p->ninst + 1));
    em->out_of = arena_alloc(p->arena, sizeof(int) * (size_t)(p->ninst + 1));
    em->elems = arena_alloc(p->arena, sizeof(int) * (size_t)(c->traffic.nkernels + 1));
    em->apart = arena_alloc(p->arena, sizeof(int) * (size_t)(c->traffic.nkernels + 1));
    for (int i = 0; i < p->ninst; i++)
        em->out_of[i] = -1;
    for (int k = 0; k < p->n_out; k++)
        em->out_of[p->sym[p->outputs[k]].value] = k;
    int nc = 0;
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (in->op == O_INPUT || in->op == O_PARAM)
            em->cname[i] = c_ident(em, p->sym[in->sym].name);
        else if (in->scalar && in->op != O_CONST)
            em->cname[i] = arena_printf(p->arena, "c%d", nc++);
    }
    /* Tensor values are v0, v1, ... in the order the fused kernel computes
     * them; then the repeats only the unfused version computes (common
     * subexpressions) and inputs that no output reads. */
    em->vnum = arena_alloc(p->arena, sizeof(int) * (size_t)(p->ninst + 1));
    int nv = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < p->ninst; i++) {
            const Inst *in = &p->inst[i];
            bool tensor = in->live && !in->scalar;
            if (pass == 0 ? tensor && in->canon == i : pass == 1 ? tensor && in->canon != i : !in->live && in->op == O_INPUT)
                em->vnum[i] = nv++;
        }
    for (int k = 0; k < p->n_out; k++)
        em->cname[p->sym[p->outputs[k]].value] = c_ident(em, p->sym[p->outputs[k]].name);
    em->in_name = arena_alloc(p->arena, sizeof(char *) * (size_t)(p->n_in + 1));
    em->par_name = arena_alloc(p->arena, sizeof(char *) * (size_t)(p->n_par + 1));
    for (int k = 0; k < p->n_in; k++)
        em->in_name[k] = c_ident(em, p->sym[p->inputs[k]].name);
    for (int k = 0; k < p->n_par; k++)
        em->par_name[k] = c_ident(em, p->sym[p->params[k]].name);
    em->stmt_name = arena_alloc(p->arena, sizeof(char *) * (size_t)(p->ninst + 1));
    for (int k = p->nstmt - 1; k >= 0; k--) /* the first statement wins */
        em->stmt_name[p->stmt[k].value] = p->sym[p->stmt[k].sym].name;
    em->seen = arena_alloc(p->arena, (size_t)p->ninst + 1);
    em->dim_name = arena_alloc(p->arena, sizeof(char *) * (size_t)(p->ndim + 1));
    for (int d = 0; d < p->ndim; d++) {
        /* dim_R; dim_u_d if an input named dim makes dim_u (its C name) or dim_u_b (its FxBcast) */
        em->dim_name[d] = arena_printf(p->arena, "dim_%s", p->dim[d].name);
        while (user_derived(p, em->dim_name[d]))
            em->dim_name[d] = arena_printf(p->arena, "%s_d", em->dim_name[d]);
    }
}

/* The program, up to 40 lines, each after lead, made safe for a comment. */
static void program_lines(Emitter *em, const char *lead)
{
    FILE *f = em->f;
    const char *s = em->c->src->text, *end = s + em->c->src->len;
    for (int line = 0; s < end && line < 40; line++) {
        size_t len = 0;
        while (s + len < end && !line_ends_at(s, len, (size_t)(end - s)) && s[len] != '\r')
            len++;
        fprintf(f, "%s%s\n", lead, comment_safe(em, arena_strndup(em->p->arena, s, len)));
        s += len;
        if (s < end)
            s += *s == '\r' && s + 1 < end && s[1] == '\n' ? 2 : 1;
    }
    if (s < end)
        fprintf(f, "%s...\n", lead);
}

static void banner(Emitter *em, const char *what)
{
    FILE *f = em->f;
    const Chain *c = em->c;
    const Traffic *t = &c->traffic;
    fprintf(f, "/*\n * %s.%s: generated by fusec %s from %s. Do not edit; edit the .fuse file.\n *\n", c->prefix,
            what, FUSEC_VERSION, comment_safe(em, c->src->name));
    program_lines(em, " *   ");
    char ub[32], fb[32];
    out_num(ub, sizeof ub, t->u_read + t->u_write);
    out_num(fb, sizeof fb, t->f_read + t->f_write);
    if (c->prog->shaped) {
        const Program *p = c->prog;
        fprintf(f, " *\n * Over %s, row-major. Unfused: %d kernel%s, %s B (as PyTorch eager).\n"
                   " * Fused: 1 kernel, %s B. Traffic ratio %.2fx for large dims: the predicted speedup\n"
                   " * while memory-bound.\n",
                comment_safe(em, shape_text(p, &p->full)), t->nkernels, t->nkernels == 1 ? "" : "s",
                comment_safe(em, traffic_formula(p, t->uterm, t->nuterm, -1, FUSEC_IN, FUSEC_OUT)),
                comment_safe(em, traffic_formula(p, t->fterm, t->nfterm, -1, FUSEC_IN, FUSEC_OUT)), t->ratio);
        return;
    }
    fprintf(f, " *\n * Unfused: %d kernel%s, %s B per element (as PyTorch eager). Fused: 1 kernel, %s B per\n"
               " * element. Traffic ratio %.2fx: the predicted speedup while memory-bound.\n",
            t->nkernels, t->nkernels == 1 ? "" : "s", ub, fb, t->ratio);
}

static ssize_t count_write(void *cookie, const char *buf, size_t size)
{
    Emitter *em = cookie;
    for (size_t i = 0; i < size; i++)
        em->lines += buf[i] == '\n';
    return (ssize_t)size;
}

/* Everything after the banner. */
static void emit_body(Emitter *em)
{
    FILE *f = em->f;
    const Program *p = em->p;
    const Traffic *t = em->t;
    emit_runtime(em, "fusec_kernel.cuh", "storage types, conversions, vector loads and stores", true);
    emit_runtime(em, "fusec_ops.cuh", "the builtins as device functions", true);
    fputc('\n', f);
    part(em, arena_printf(p->arena, "the unfused kernels: one per eager op (%s_k1_%s ...)", em->c->prefix,
                          t->nkernels ? op_word((Op)p->inst[t->kernels[0].inst].op) : ""));
    fprintf(f, "/* ==== the unfused kernels: one per eager op ==== */\n");
    for (int k = 0; k < t->nkernels; k++) {
        char text[1200];
        traffic_kernel_text(p, t, k, em->cname, text, sizeof text);
        emit_unfused_kernel(em, k, text);
    }
    int *live_kernel_insts = arena_alloc(p->arena, sizeof(int) * (size_t)(p->ninst + 1));
    int nk = 0;
    for (int i = 0; i < p->ninst; i++)
        if (p->inst[i].live && !p->inst[i].scalar && p->inst[i].canon == i)
            live_kernel_insts[nk++] = i;
    int *fsc = arena_alloc(p->arena, sizeof(int) * (size_t)(p->ninst + 1));
    int nfsc = kernel_scalars(em, live_kernel_insts, nk, true, fsc, em->seen);
    emit_fused_kernel(em, fsc, nfsc);
    emit_api(em, fsc, nfsc);
    if (!p->shaped)
        emit_cub(em, fsc, nfsc);
    emit_harness(em);
}

static void emit_cu(FILE *out, const Chain *c)
{
    Emitter em;
    emitter_init(&em, out, c);
    /* First the body into a stream that counts its lines, for the banner's
     * contents (where each part starts); then the banner and the body. */
    em.counting = true;
    em.f = fopencookie(&em, "w", (cookie_io_functions_t){NULL, count_write, NULL, NULL});
    if (!em.f) {
        fprintf(stderr, "fusec: fatal error: out of memory\n");
        exit(1);
    }
    emit_body(&em);
    fclose(em.f);
    em.counting = false;
    em.f = out;
    /* The banner: as far as the nvcc commands, two lines, an entry per part,
     * and the close. */
    char *head = NULL;
    size_t hlen = 0;
    FILE *h = mem_open(&head, &hlen);
    em.f = h;
    banner(&em, "cu");
    fprintf(h, " *\n * Harness:  nvcc -O3 -arch=sm_90 %s.cu -o %s && ./%s --help\n", c->prefix, c->prefix, c->prefix);
    fprintf(h, " * Library:  nvcc -O3 -arch=sm_90 -DFUSEC_NO_HARNESS -c %s.cu   (API: fusec --emit=header)\n",
            c->prefix);
    if (!c->prog->shaped)
        fprintf(h, " * CUB:      add -DFUSEC_CUB to either for a third version, %s_cub (cub::DeviceTransform;\n"
                   " *           it reserves shared memory in every kernel of its build: docs/cuda.md)\n",
                c->prefix);
    fclose(h);
    int skip = 0;
    for (size_t i = 0; i < hlen; i++)
        skip += head[i] == '\n';
    skip += 2 + em.nparts + 1;
    char last[16];
    int width = snprintf(last, sizeof last, "%d", skip + em.part[em.nparts - 1].line);
    fwrite(head, 1, hlen, out);
    free(head);
    fprintf(out, " *\n * Contents (line: part):\n");
    for (int k = 0; k < em.nparts; k++)
        fprintf(out, " *   %*d: %s\n", width, skip + em.part[k].line, comment_safe(&em, em.part[k].title));
    fprintf(out, " */\n");
    em.f = out;
    emit_body(&em);
}

/* "dim_R = R, dim_C = C" */
static const char *dim_list(const Emitter *em)
{
    const Program *p = em->p;
    char *s = arena_printf(p->arena, "%s", "");
    for (int d = 0; d < p->ndim; d++)
        s = arena_printf(p->arena, "%s%s%s for %s", s, d ? ", " : "", em->dim_name[d], p->dim[d].name);
    return s;
}

static void emit_h(FILE *f, const Chain *c)
{
    Emitter em;
    emitter_init(&em, f, c);
    banner(&em, "h");
    bool ints = false, fp8 = false;
    for (int k = 0; k < c->prog->n_in + c->prog->n_out; k++) {
        int dt = k < c->prog->n_in ? c->prog->sym[c->prog->inputs[k]].dtype
                                   : c->prog->inst[c->prog->sym[c->prog->outputs[k - c->prog->n_in]].value].dtype;
        ints |= is_int(dt);
        fp8 |= FX_IS_FP8(dt);
    }
    const char *int_note = arena_printf(
        c->prog->arena, "%s%s", ints ? "; integer tensors as their <stdint.h> types (u8 is uint8_t, i8 int8_t, ...)" : "",
        fp8 ? ";\n * f8e4m3 and f8e5m2 tensors as uint8_t pointers holding their bits (torch.float8_e4m3fn,\n"
              " * torch.float8_e5m2)"
            : "");
    if (c->prog->shaped)
        fprintf(f, " *\n * f16 and bf16 tensors are passed as uint16_t pointers holding their bits (a __half *\n"
                   " * or __nv_bfloat16 * converts with a cast); bool tensors as uint8_t (0 or 1, like\n"
                   " * torch.bool)%s. Arguments: inputs, outputs, params, then the dims (%s, in the\n"
                   " * order they first appear) and the stream. Each tensor is contiguous and row-major\n"
                   " * in its own shape (a [C] bias holds C elements). Device pointers; 16-byte-aligned\n"
                   " * ones take the vector path. Both calls are asynchronous.\n */\n",
                int_note, comment_safe(&em, dim_list(&em)));
    else
        fprintf(f, " *\n * f16 and bf16 tensors are passed as uint16_t pointers holding their bits (a __half *\n"
                   " * or __nv_bfloat16 * converts with a cast); bool tensors as uint8_t (0 or 1, like\n"
                   " * torch.bool)%s. Arguments: inputs, outputs, params, then n and the stream. Device\n"
                   " * pointers; 16-byte-aligned ones take the vector path. Both calls are asynchronous.\n */\n",
                int_note);
    char guard[300];
    size_t g = 0;
    for (const char *s = c->prefix; *s && g < sizeof guard - 3; s++)
        guard[g++] = (char)((*s >= 'a' && *s <= 'z') ? *s - 32 : *s);
    guard[g] = 0;
    fprintf(f, "#ifndef %s_H\n#define %s_H\n\n#include <stddef.h>\n#include <stdint.h>\n#include <cuda_runtime_api.h>\n\n",
            guard, guard);
    fprintf(f, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    const Traffic *t = &c->traffic;
    if (c->prog->shaped)
        fprintf(f, "/* One fused kernel: %s B. */\ncudaError_t %s_fused",
                comment_safe(&em, traffic_formula(c->prog, t->fterm, t->nfterm, -1, FUSEC_IN, FUSEC_OUT)), c->prefix);
    else
        fprintf(f, "/* One fused kernel: %g B per element. */\ncudaError_t %s_fused", t->f_read + t->f_write, c->prefix);
    api_params(&em, f);
    if (c->prog->shaped)
        fprintf(f, ";\n\n/* %d kernels as PyTorch eager runs them: %s B. */\ncudaError_t %s_unfused", t->nkernels,
                comment_safe(&em, traffic_formula(c->prog, t->uterm, t->nuterm, -1, FUSEC_IN, FUSEC_OUT)), c->prefix);
    else
        fprintf(f, ";\n\n/* %d kernels as PyTorch eager runs them: %g B per element. */\ncudaError_t %s_unfused",
                t->nkernels, t->u_read + t->u_write, c->prefix);
    api_params(&em, f);
    fprintf(f, ";\n\n/* Frees the unfused version's cached scratch buffers. */\nvoid %s_unfused_release(void);\n\n",
            c->prefix);
    if (!c->prog->shaped) {
        fprintf(f, "#ifdef FUSEC_CUB\n/* The fused chain through cub::DeviceTransform: only in a .cu compiled with -DFUSEC_CUB\n"
                   " * (define it here too to declare it). */\ncudaError_t %s_cub", c->prefix);
        api_params(&em, f);
        fprintf(f, ";\n#endif\n\n");
    }
    fprintf(f, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s_H */\n", guard);
}

/* ---- for the other backends (fusec.h) -------------------------------------- */

void emit_cuda_runtime(FILE *f, const char *name)
{
    fputc('\n', f);
    paste_runtime(f, name);
}

void emit_cuda_program_lines(FILE *f, const Chain *c, const char *lead)
{
    Emitter em;
    emitter_init(&em, f, c);
    program_lines(&em, lead);
}

const char *emit_cuda_api_type(int dtype)
{
    return api_t[dtype];
}

const char *emit_cuda_param_type(const Program *p, int k)
{
    return p->sym[p->params[k]].dtype == FX_F64 ? "double" : "float";
}

void emit_cuda_api_names(const Chain *c, const char **in, const char **out, const char **par)
{
    Emitter em;
    emitter_init(&em, NULL, c);
    const Program *p = c->prog;
    for (int k = 0; k < p->n_in; k++)
        in[k] = em.in_name[k];
    for (int k = 0; k < p->n_out; k++)
        out[k] = em.cname[p->sym[p->outputs[k]].value];
    for (int k = 0; k < p->n_par; k++)
        par[k] = em.par_name[k];
}

const Backend backend_cuda = {"cuda", emit_cu};
const Backend backend_header = {"header", emit_h};

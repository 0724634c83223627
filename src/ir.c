/*
 * ir.c: from parsed instructions to a typed SSA DAG.
 *
 * One forward pass over the instructions (operands always come first, so
 * no recursion anywhere): resolve each name to its assignment, input or
 * param; give every instruction its dtype by PyTorch's promotion rules;
 * fold literal-only subexpressions, as Python does before eager sees them.
 * Then find the outputs, mark what reaches them and find the common
 * subexpressions (Inst.canon) that the fused kernel computes once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusec.h"
#include "fusec_ref.h"

int dtype_lookup(const char *s, size_t len)
{
    for (int i = 0; i < FX_NDTYPES; i++)
        if (strlen(fusec_dtype_name[i]) == len && memcmp(fusec_dtype_name[i], s, len) == 0)
            return i;
    return -1;
}

/* torch.promote_types, from the dtypes' rows (runtime/fusec_dtype.h): bool
 * yields to any number, an integer to any float; two floats of the same
 * size but different formats (f16 and bf16) give f32; u8 with a signed
 * integer of its size or less gives the next signed size up (u8 with i8:
 * i16); otherwise the wider one. */
int dtype_promote(int a, int b)
{
    const FusecDtype *x = &fusec_dtype[a], *y = &fusec_dtype[b];
    if (a == b || y->kind == FX_KIND_BOOL)
        return a;
    if (x->kind == FX_KIND_BOOL)
        return b;
    if (x->kind != y->kind)
        return x->kind == FX_KIND_FLOAT ? a : b;
    if (x->kind == FX_KIND_INT) {
        bool xs = x->prec < 8 * x->size, ys = y->prec < 8 * y->size;
        if (xs != ys) { /* one is u8 */
            const FusecDtype *s = xs ? x : y;
            int other = xs ? a : b;
            return s->size > 1 ? other : FX_I16;
        }
    }
    if (x->size == y->size)
        return FX_F32;
    return x->size > y->size ? a : b;
}

/* PyTorch's categories, for the scalars' rule (c10's result_type): a scalar
 * of a higher category than every tensor gives that category's default
 * dtype (i64, f32); otherwise the tensors decide. */
enum { CAT_BOOL, CAT_INT, CAT_FLOAT };
static int category(int dt)
{
    int k = fusec_dtype[dt].kind;
    return k == FX_KIND_BOOL ? CAT_BOOL : k == FX_KIND_INT ? CAT_INT : CAT_FLOAT;
}
static bool is_int(int dt) { return fusec_dtype[dt].kind == FX_KIND_INT; }

int dtype_compute(int dt) { return fusec_dtype[dt].compute; }

int ir_stored_value(const Program *p, int v)
{
    const Inst *in = &p->inst[p->inst[v].canon];
    const Inst *arg = op_info[in->op].cls == K_CAST ? &p->inst[p->inst[in->arg[0]].canon] : NULL;
    return arg && !arg->scalar ? arg->canon : in->canon;
}

/* Depth of ir_bounded's walk: each level may visit three operands, so the
 * walk stays under 3^8 visits on any DAG; deeper values count as unbounded. */
#define BOUND_DEPTH 8

static bool bounded(const Program *p, int v, double m, int depth)
{
    const Inst *in = &p->inst[p->inst[v].canon];
    const FusecDtype *d = &fusec_dtype[in->dtype];
    if (in->op == O_CONST)
        return fabs(in->value) <= m;
    if (in->scalar) /* params and what the host computes from them, in double, unwrapped: unknown */
        return false;
    if (d->kind != FX_KIND_FLOAT || (d->size == 1 && !d->inf)) /* bool, integers, f8e4m3: the dtype's range */
        return d->max_finite + (d->kind == FX_KIND_INT) <= m;      /* (an integer's least is -max - 1) */
    if (depth == 0)
        return false;
    const int *a = in->arg;
    switch (in->op) {
    case O_CLAMP: /* [lo, hi] (hi when lo > hi, as torch.clamp) */
        return bounded(p, a[1], m, depth - 1) && bounded(p, a[2], m, depth - 1);
    case O_MIN:
    case O_MAX: return bounded(p, a[0], m, depth - 1) && bounded(p, a[1], m, depth - 1);
    case O_WHERE: return bounded(p, a[1], m, depth - 1) && bounded(p, a[2], m, depth - 1);
    case O_ABS:
    case O_NEG:
    case O_NEGATE:
    case O_RELU: return bounded(p, a[0], m, depth - 1);
    case O_TANH:
    case O_SIGMOID:
    case O_HARDSIGMOID:
    case O_ERF:
    case O_SIN:
    case O_COS: return 2 <= m; /* |.| <= 1, with room for a fast form's rounding */
    default: /* a cast to a float type keeps a bound the type holds exactly (rounding is monotone) */
        return op_info[in->op].cls == K_CAST && ref_round(m, in->dtype) == m &&
               bounded(p, a[0], m, depth - 1);
    }
}

bool ir_bounded(const Program *p, int v, double m) { return bounded(p, v, m, BOUND_DEPTH); }

int ir_add(Program *p, Inst in)
{
    arena_grow(p->arena, (void **)&p->inst, &p->cap_inst, p->ninst + 1, sizeof(Inst));
    p->inst[p->ninst] = in;
    return p->ninst++;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

Sym *ir_sym(Program *p, const char *name, uint32_t len, uint32_t off)
{
    uint32_t h = hash_bytes(name, len);
    if (p->nsym * 2 >= p->symtab_cap) { /* rehash at half full */
        int cap = p->symtab_cap ? p->symtab_cap * 2 : 256;
        int *t = arena_alloc(p->arena, (size_t)cap * sizeof(int));
        memset(t, -1, (size_t)cap * sizeof(int));
        for (int i = 0; i < p->nsym; i++) {
            uint32_t j = p->sym[i].hash & (uint32_t)(cap - 1);
            while (t[j] >= 0)
                j = (j + 1) & (uint32_t)(cap - 1);
            t[j] = i;
        }
        p->symtab = t;
        p->symtab_cap = cap;
    }
    uint32_t j = h & (uint32_t)(p->symtab_cap - 1);
    for (; p->symtab[j] >= 0; j = (j + 1) & (uint32_t)(p->symtab_cap - 1)) {
        Sym *s = &p->sym[p->symtab[j]];
        if (s->hash == h && s->len == len && memcmp(s->name, name, len) == 0)
            return s;
    }
    arena_grow(p->arena, (void **)&p->sym, &p->cap_sym, p->nsym + 1, sizeof(Sym));
    Sym *s = &p->sym[p->nsym];
    memset(s, 0, sizeof *s);
    s->name = arena_strndup(p->arena, name, len);
    s->len = len;
    s->hash = h;
    s->kind = S_UNKNOWN;
    s->decl_off = off;
    s->decl_len = len;
    s->assign_stmt = -1;
    s->value = -1;
    p->symtab[j] = p->nsym++;
    return s;
}

static Diag *diag(Program *p) { return p->diag; }

/* ---- shapes ---------------------------------------------------------------- */

Numel shape_numel(const Shape *s)
{
    Numel e;
    memset(&e, 0, sizeof e);
    for (int i = 0; i < s->rank; i++)
        if (s->dim[i] != DIM_ONE)
            e.exp[s->dim[i]]++;
    return e;
}

const char *shape_text(const Program *p, const Shape *s)
{
    char *t = arena_printf(p->arena, "[");
    for (int i = 0; i < s->rank; i++)
        t = arena_printf(p->arena, "%s%s%s", t, i ? ", " : "", s->dim[i] == DIM_ONE ? "1" : p->dim[s->dim[i]].name);
    return arena_printf(p->arena, "%s]", t);
}

const Shape *sym_shape(const Program *p, const Sym *sy)
{
    if (sy->value >= 0)
        return &p->inst[sy->value].shape;
    return sy->shape.rank > 0 ? &sy->shape : &p->full;
}

const Shape *input_shape(const Program *p, int k) { return sym_shape(p, &p->sym[p->inputs[k]]); }

bool shape_varies(const Program *p, const Shape *s, int q)
{
    int j = q - (p->full.rank - s->rank);
    return j >= 0 && s->dim[j] != DIM_ONE;
}

bool shape_same_layout(const Program *p, const Shape *a, const Shape *b)
{
    for (int q = 0; q < p->full.rank; q++)
        if (shape_varies(p, a, q) != shape_varies(p, b, q))
            return false;
    return true;
}

/* PyTorch's broadcast of a and b into *out, aligned on the last dim: a dim
 * of 1 stretches, two names must be the same. Returns -1, or the position
 * of *out where two names meet (out->dim there is a's, *other b's). */
static int broadcast(const Shape *a, const Shape *b, Shape *out, int *other)
{
    Shape r;
    memset(&r, 0, sizeof r);
    r.rank = a->rank > b->rank ? a->rank : b->rank;
    for (int q = 0; q < r.rank; q++) {
        int ia = q - (r.rank - a->rank), ib = q - (r.rank - b->rank);
        int da = ia >= 0 ? a->dim[ia] : DIM_ONE, db = ib >= 0 ? b->dim[ib] : DIM_ONE;
        r.dim[q] = da == DIM_ONE ? db : da;
        if (da != DIM_ONE && db != DIM_ONE && da != db) {
            *out = r;
            *other = db;
            return q;
        }
    }
    *out = r;
    return -1;
}

static int by_shape_off(const void *x, const void *y)
{
    const Sym *a = *(const Sym *const *)x, *b = *(const Sym *const *)y;
    return a->shape_off < b->shape_off ? -1 : a->shape_off > b->shape_off;
}

/* The chain's shape: the broadcast of every declared shape, in source
 * order; two names that meet are a located error naming both. */
static void full_shape(Program *p)
{
    memset(&p->full, 0, sizeof p->full);
    if (!p->shaped)
        return;
    const Sym **decl = arena_alloc(p->arena, sizeof(Sym *) * (size_t)(p->nsym + 1));
    int n = 0;
    for (int i = 0; i < p->nsym; i++)
        if (p->sym[i].shape.rank > 0)
            decl[n++] = &p->sym[i];
    qsort(decl, (size_t)n, sizeof *decl, by_shape_off);
    /* whose shape first set each position of the full shape, for the message */
    const Sym *from[LIMIT_DIMS] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < n; k++) {
        const Sym *s = decl[k];
        Shape r;
        int other = 0;
        int q = broadcast(&p->full, &s->shape, &r, &other);
        if (q >= 0) {
            const Sym *f = from[q - (r.rank - p->full.rank)];
            diag_note(diag(p), f->shape_off, f->shape_len, "'%s' is %s, declared here", f->name,
                      shape_text(p, &f->shape));
            diag_error(diag(p), s->shape_off, s->shape_len,
                       "'%s' is %s: its dim '%s' meets dim '%s' of the shapes before it, and they do not "
                       "broadcast (two different names are two different dims; a dim of 1 stretches)",
                       s->name, shape_text(p, &s->shape), p->dim[other].name, p->dim[r.dim[q]].name);
        }
        /* positions move right as the rank grows */
        const Sym *moved[LIMIT_DIMS] = {NULL, NULL, NULL, NULL};
        for (int j = 0; j < p->full.rank; j++)
            moved[j + r.rank - p->full.rank] = from[j];
        for (int j = 0; j < r.rank; j++) {
            int jf = j - (r.rank - p->full.rank), js = j - (r.rank - s->shape.rank);
            bool old_named = jf >= 0 && p->full.dim[jf] != DIM_ONE;
            bool new_named = js >= 0 && s->shape.dim[js] != DIM_ONE;
            from[j] = old_named || (!new_named && moved[j]) ? moved[j] : s;
        }
        p->full = r;
    }
    if (p->ndim == 0)
        diag_error(diag(p), decl[0]->shape_off, decl[0]->shape_len,
                   "the chain's shape %s names no dim: give a shaped input a named dim (as in: in x: f32[N])",
                   shape_text(p, &p->full));
}

/* A tensor instruction's shape: the broadcast of its tensor operands'. */
static void shape_inst(Program *p, Inst *in)
{
    Shape r;
    memset(&r, 0, sizeof r);
    for (int a = 0; a < in->nargs; a++) {
        const Inst *x = &p->inst[in->arg[a]];
        int other;
        if (!x->scalar && broadcast(&r, &x->shape, &r, &other) >= 0)
            diag_internal(diag(p), "operands of a broadcast shape do not broadcast");
    }
    in->shape = r;
}

/* Folds instruction i, whose operands are all literals, to a literal: in
 * exact integers when its result is an integer (Python's int), else in
 * double. Its dtype is then a Python scalar's: i64 or f64 (bool for a
 * comparison), or the dtype a cast names. */
static void fold(Program *p, Inst *in, int dt)
{
    const OpInfo *info = &op_info[in->op];
    double v[3] = {0, 0, 0};
    int64_t iv[3] = {0, 0, 0};
    bool ints = true;
    for (int a = 0; a < in->nargs; a++) {
        const Inst *x = &p->inst[in->arg[a]];
        v[a] = x->value;
        iv[a] = is_int(x->dtype) ? x->ival : (int64_t)(x->value != 0);
        ints &= x->dtype == FX_BOOL || is_int(x->dtype);
    }
    if (info->cls == K_CAST) {
        const Inst *x = &p->inst[in->arg[0]];
        if (is_int(dt)) {
            in->ival = is_int(x->dtype) ? ref_wrap((uint64_t)x->ival, dt) : ref_float_to_int(x->value, dt, 0, x->dtype == FX_F64);
            in->value = (double)in->ival;
        } else {
            in->value = is_int(x->dtype) ? ref_int_to_float(x->ival, dt == FX_F64 ? FX_F64 : FX_F32) : x->value;
            in->value = op_fold((Op)in->op, &in->value);
        }
    } else if (ints && (is_int(dt) || info->cls == K_CMP) && in->op != O_DIV) {
        const char *err = op_fold_int((Op)in->op, iv, &in->ival);
        if (err)
            diag_error(diag(p), in->off, in->len, "%s in a constant expression", err);
        in->value = (double)in->ival;
    } else {
        if ((in->op == O_DIV || in->op == O_FLOORDIV) && v[1] == 0)
            diag_error(diag(p), in->off, in->len, "division by zero in a constant expression");
        if (in->op == O_REM && v[1] == 0)
            diag_error(diag(p), in->off, in->len, "modulo by zero in a constant expression");
        /* Python's ** of numbers: 0 ** -1 raises ZeroDivisionError, (-8) ** 0.5 is complex */
        if (in->op == O_POW && v[0] == 0 && v[1] < 0)
            diag_error(diag(p), in->off, in->len, "zero to a negative power in a constant expression");
        if (in->op == O_POW && v[0] < 0 && isfinite(v[0]) && isfinite(v[1]) && v[1] != floor(v[1]))
            diag_error(diag(p), in->off, in->len,
                       "a negative number to a fractional power in a constant expression (Python makes it a "
                       "complex number; fusec has none)");
        in->value = op_fold((Op)in->op, v);
    }
    in->op = O_CONST;
    in->nargs = 0;
    if (info->cls != K_CAST)
        in->dtype = info->cls == K_CMP ? FX_BOOL : dt == FX_BOOL ? FX_BOOL : is_int(dt) ? FX_I64 : FX_F64;
    if (is_int(in->dtype) && info->cls != K_CAST)
        in->value = (double)in->ival;
    in->ct = (uint8_t)dtype_compute(in->dtype);
}

/* PyTorch has no arithmetic on its Float8 types ("Promotion for Float8
 * Types is not supported", "... not implemented for 'Float8_e4m3fn'"): an
 * fp8 operand of anything but a cast is a located error that says to cast it
 * first. Its name, when it has one, makes the example. */
static void check_no_fp8(Program *p, const Inst *in, const int *use)
{
    const OpInfo *info = &op_info[in->op];
    if (info->cls == K_CAST)
        return;
    for (int a = 0; a < in->nargs; a++) {
        int dt = p->inst[in->arg[a]].dtype;
        if (!FX_IS_FP8(dt))
            continue;
        const Inst *w = &p->inst[use[a]];
        const char *q = w->sym >= 0 ? p->sym[w->sym].name : "q";
        if (info->cls == K_WHERE && a == 0)
            continue; /* type_inst says the condition must be bool */
        if (info->cls == K_WHERE) {
            /* torch.where selects fp8 values: two of the same fp8 dtype, or
             * one beside a number, which it rounds to that dtype. fusec takes
             * a number that is an fp8 value already (0, 1, -448) or a scalar
             * cast to the dtype (f8e4m3(0.3), f8e4m3(k)), so that every value
             * the where gives is one of the dtype's; beside any other tensor
             * PyTorch would have to promote, which it refuses */
            const Inst *o = &p->inst[in->arg[3 - a]];
            const Inst *ow = &p->inst[use[3 - a]];
            if (o->dtype == dt)
                continue;
            if (o->op == O_CONST && !FX_IS_FP8(o->dtype) && ref_round(o->value, dt) == o->value)
                continue;
            if (o->scalar && !FX_IS_FP8(o->dtype)) {
                const char *text = arena_printf(p->arena, "%.*s", (int)ow->len, diag(p)->src->text + ow->off);
                diag_error(diag(p), ow->off, ow->len,
                           "'%s' beside %s values in where must be one of %s's values: cast it, %s(%s), which "
                           "rounds it as torch.where does", text, fusec_dtype_name[dt], fusec_dtype_name[dt],
                           fusec_dtype_name[dt], text);
                return;
            }
            diag_error(diag(p), in->off, in->len,
                       "where of %s and %s: promotion for Float8 types is not supported (as in PyTorch): cast "
                       "one first, e.g. f32(%s)", fusec_dtype_name[dt], fusec_dtype_name[o->dtype], q);
            return;
        }
        const char *what = info->cls == K_CMP       ? "a comparison"
                           : op_is_builtin(in->op) ? arena_printf(p->arena, "'%s'", op_name((Op)in->op))
                                                    : "arithmetic";
        diag_error(diag(p), in->off, in->len,
                   "%s on %s is not supported (as in PyTorch): cast it first, e.g. f32(%s)", what,
                   fusec_dtype_name[dt], q);
    }
}

/* Types instruction i (its operands are typed) and folds it when every
 * operand is a literal. */
static void type_inst(Program *p, int i, const int *use)
{
    Inst *in = &p->inst[i];
    const OpInfo *info = &op_info[in->op];
    check_no_fp8(p, in, use);
    int tensor_dt = -1, scalar_dt = -1, lit_cat = -1, ntensor = 0;
    bool all_const = true;
    for (int a = 0; a < in->nargs; a++) {
        const Inst *x = &p->inst[in->arg[a]];
        bool cond = info->cls == K_WHERE && a == 0;
        if (x->scalar) {
            if (cond)
                ;
            else if (x->op != O_CONST)
                scalar_dt = scalar_dt < 0 ? x->dtype : dtype_promote(scalar_dt, x->dtype);
            else if (category(x->dtype) > lit_cat)
                lit_cat = category(x->dtype);
        } else {
            ntensor++;
            if (!cond)
                tensor_dt = tensor_dt < 0 ? x->dtype : dtype_promote(tensor_dt, x->dtype);
        }
        all_const &= x->op == O_CONST;
    }
    in->scalar = ntensor == 0;
    /* PyTorch's result_type: scalars (literals, params) never widen a tensor
     * of their category or a higher one (q * 2 stays i32, h * 2.5 stays
     * f16); one of a higher category gives its default dtype (q * 2.5 is
     * f32, m * 2 is i64 for a bool m). Among scalars, params set the dtype;
     * bare literals are Python ints (i64) and floats (f64). */
    int scat = scalar_dt >= 0 && category(scalar_dt) > lit_cat ? category(scalar_dt) : lit_cat;
    int base = tensor_dt >= 0 ? tensor_dt : scalar_dt;
    int dt;
    if (base >= 0)
        dt = scat > category(base) ? (scat == CAT_INT ? FX_I64 : tensor_dt >= 0 ? FX_F32 : FX_F64) : base;
    else
        dt = lit_cat == CAT_INT ? FX_I64 : FX_F64;
    if (in->scalar && info->cls == K_WHERE && base < 0 && lit_cat != CAT_INT)
        dt = FX_F64;
    /* what the op does with integers (ops.def's ints column); literals fold
     * as Python does (2 ** 3 is 8, 2 ** -1 is 0.5, gelu(2) a float) */
    if (is_int(dt) && info->ints == I_NONE && in->scalar && all_const) {
        const Inst *e = in->op == O_POW ? &p->inst[in->arg[1]] : NULL;
        if (!e || !is_int(e->dtype) || e->ival < 0 || !is_int(p->inst[in->arg[0]].dtype))
            dt = FX_F64;
    }
    else if (info->ints == I_NONE && is_int(in->op == O_POW || tensor_dt < 0 ? dt : tensor_dt))
        diag_error(diag(p), in->off, in->len,
                   in->op == O_POW ? "'%s' on integers is not supported yet; cast to a float first, as in "
                                     "%s(f32(q), 2)"
                                   : "'%s' is not defined on integers (PyTorch has no integer kernel for it); cast to "
                                     "a float first, as in %s(f32(q)%s)",
                   op_name((Op)in->op), in->op == O_POW ? "pow" : op_name((Op)in->op),
                   in->op == O_POW ? "" : in->nargs > 1 ? ", ..." : "");
    if (info->ints == I_FLOAT && fusec_dtype[dt].kind != FX_KIND_FLOAT)
        dt = in->scalar ? FX_F64 : FX_F32; /* torch.exp(q), q / 2: the default float dtype */
    /* where, min, max and clamp with an integer tensor take a number as
     * torch.where and torch.clamp do: converted to the tensor's dtype, which
     * PyTorch refuses when it does not fit ("value cannot be converted to
     * type uint8_t without overflow"), where arithmetic wraps it (b + 300) */
    bool takes_checked = info->cls == K_WHERE || in->op == O_MIN || in->op == O_MAX || in->op == O_CLAMP;
    for (int a = 0; takes_checked && !in->scalar && is_int(dt) && a < in->nargs; a++) {
        const Inst *x = &p->inst[in->arg[a]];
        if (x->op == O_CONST && is_int(x->dtype) && ref_wrap((unsigned long long)x->ival, dt) != x->ival)
            diag_error(diag(p), p->inst[use[a]].off, p->inst[use[a]].len,
                       "%lld does not fit %s, the dtype of this %s: PyTorch refuses it (torch.%s: \"value cannot be "
                       "converted without overflow\"); write a number in %s's range, or cast the tensor first",
                       (long long)x->ival, fusec_dtype_name[dt], op_name((Op)in->op),
                       info->cls == K_WHERE ? "where" : "clamp", fusec_dtype_name[dt]);
    }
    int ct = -1; /* the compute type, when it is not the result's */
    switch (info->cls) {
    case K_ARITH:
        if ((in->op == O_NEGATE || in->op == O_NEG) && dt == FX_BOOL)
            diag_error(diag(p), in->off, in->len, "negation is not defined on bool (use where or a comparison)");
        if (dt == FX_BOOL)
            dt = FX_F32; /* arithmetic on bool computes in the default float dtype */
        break;
    case K_CMP:
        /* As eager: the operands' result type is the compute type, a scalar
         * of the same category never widens it; scalars only compare on the
         * host, in double (or exactly, as integers). */
        ct = tensor_dt < 0 && !is_int(dt) ? FX_F64 : dtype_compute(dt);
        /* a bool tensor against a number compares as f32 (eager: as i64 for
         * an integer, the same answer for values 0 and 1) */
        if (tensor_dt == FX_BOOL && dt != FX_BOOL)
            ct = FX_F32;
        dt = FX_BOOL;
        break;
    case K_WHERE: {
        const Inst *c = &p->inst[in->arg[0]];
        if (c->dtype != FX_BOOL)
            diag_error(diag(p), p->inst[use[0]].off, p->inst[use[0]].len,
                       "where's condition must be bool (a comparison or a bool input), not %s",
                       fusec_dtype_name[c->dtype]);
        if (tensor_dt < 0 && !in->scalar && !is_int(dt))
            dt = FX_F32; /* where(mask, 1.0, 2.0): the default float dtype */
        if (dt == FX_BOOL)
            dt = FX_F32;
        break;
    }
    case K_SLOPE: {
        const Inst *s = &p->inst[in->arg[1]];
        if (!s->scalar)
            diag_error(diag(p), p->inst[use[1]].off, p->inst[use[1]].len,
                       "leaky_relu's slope must be a number or a param, not a tensor");
        if (dt == FX_BOOL)
            dt = FX_F32;
        break;
    }
    case K_CAST: {
        dt = in->op - O_CAST_BOOL;
        /* in the operand's compute type; a bool becomes 0 or 1 in the target's */
        int from = p->inst[in->arg[0]].dtype;
        ct = dtype_compute(from == FX_BOOL && dt != FX_BOOL ? dt : from);
        break;
    }
    case K_LOGIC: /* logical on bools, bitwise on integers */
        for (int a = 0; a < in->nargs; a++) {
            const Inst *x = &p->inst[in->arg[a]];
            if (fusec_dtype[x->dtype].kind == FX_KIND_FLOAT)
                diag_error(diag(p), in->off, in->len,
                           "'%s' needs bool or integer operands (comparisons, bool or integer inputs, casts), not "
                           "%s%s",
                           op_name((Op)in->op), x->op == O_CONST ? "a float number" : fusec_dtype_name[x->dtype],
                           in->op == O_XOR    ? " ('^' is exclusive or, as in Python; a power is x ** 2)"
                           : x->op == O_CONST || in->op == O_NOT
                               ? ""
                               : "; as in Python it binds tighter than a comparison: m & (x > 0)");
        }
        if (!is_int(dt))
            dt = FX_BOOL;
        break;
    case K_SHIFT:
        for (int a = 0; a < in->nargs; a++) {
            const Inst *x = &p->inst[in->arg[a]];
            if (!is_int(x->dtype) && (x->dtype != FX_BOOL || !is_int(dt)))
                diag_error(diag(p), in->off, in->len, "'%s' shifts integers, not %s", op_name((Op)in->op),
                           x->op == O_CONST ? "a float number" : fusec_dtype_name[x->dtype]);
        }
        break;
    default:
        diag_internal(diag(p), "instruction %d has no type rule", i);
    }
    in->dtype = (uint8_t)dt;
    in->ct = (uint8_t)(ct >= 0 ? ct : dtype_compute(dt));
    if (in->scalar && all_const)
        fold(p, in, dt);
}

static void resolve_name(Program *p, int i, int *remap)
{
    Inst *in = &p->inst[i];
    Sym *s = &p->sym[in->sym];
    switch (s->kind) {
    case S_VAR:
        if (s->assign_stmt == in->stmt)
            diag_error(diag(p), in->off, in->len, "'%s' is used in its own definition", s->name);
        if (s->assign_stmt > in->stmt) {
            diag_note(diag(p), s->assign_off, s->len, "'%s' is assigned here, later", s->name);
            diag_error(diag(p), in->off, in->len, "'%s' is used before it is assigned", s->name);
        }
        remap[i] = remap[s->value];
        return;
    case S_PARAM:
    case S_INPUT:
    case S_UNKNOWN:
        if (s->kind == S_UNKNOWN) { /* used, never assigned or declared: an input */
            s->kind = S_INPUT;
            s->dtype = p->default_dtype;
        }
        if (s->value >= 0) {
            remap[i] = s->value;
            return;
        }
        s->value = i;
        in->op = s->kind == S_PARAM ? O_PARAM : O_INPUT;
        in->dtype = (uint8_t)s->dtype;
        in->ct = (uint8_t)dtype_compute(s->dtype);
        in->scalar = s->kind == S_PARAM;
        if (s->kind == S_INPUT)
            in->shape = s->shape.rank > 0 ? s->shape : p->full;
        return;
    }
}

/* Adds a copy instruction for output s whose value is not its own. */
static int add_copy(Program *p, Sym *s, int v)
{
    Inst c;
    memset(&c, 0, sizeof c);
    c.op = O_COPY;
    c.dtype = p->inst[v].dtype;
    c.ct = (uint8_t)dtype_compute(c.dtype);
    c.nargs = 1;
    c.arg[0] = v;
    c.sym = -1;
    c.stmt = s->assign_stmt;
    c.off = s->assign_off;
    c.len = s->len;
    c.shape = p->inst[v].shape;
    return ir_add(p, c);
}

static int by_first_seen(Program *p, SymKind kind, int **out)
{
    int n = 0;
    *out = arena_alloc(p->arena, sizeof(int) * (size_t)(p->nsym + 1));
    for (int i = 0; i < p->nsym; i++)
        if (p->sym[i].kind == kind)
            (*out)[n++] = i;
    return n;
}

/* The fused kernel takes every input, output and param as an argument:
 * CUDA's kernel argument space (32,764 bytes) and nvcc's time bound them.
 * The error is at the first appearance of the one over the limit. */
static void check_tensor_limit(Program *p)
{
    if (p->n_in + p->n_out + p->n_par <= LIMIT_TENSORS)
        return;
    int n = 0;
    for (int i = 0; i < p->nsym; i++) {
        const Sym *s = &p->sym[i];
        if ((s->kind == S_INPUT || s->kind == S_PARAM || s->is_output) && ++n > LIMIT_TENSORS)
            diag_error(diag(p), s->decl_off, s->decl_len,
                       "'%s' makes %d inputs, outputs and params; the limit is %d (the fused kernel takes each "
                       "as an argument)", s->name, n, LIMIT_TENSORS);
    }
    diag_internal(diag(p), "%d tensors counted, none over the limit", p->n_in + p->n_out + p->n_par);
}

static void find_outputs(Program *p)
{
    Arena *a = p->arena;
    p->outputs = arena_alloc(a, sizeof(int) * (size_t)(p->nsym + 1));
    p->n_out = 0;
    if (p->any_out_decl) {
        for (int k = 0; k < p->noutdecl; k++) {
            Sym *s = &p->sym[p->outdecl[k]];
            if (s->kind != S_VAR)
                diag_error(diag(p), s->out_off, s->out_len, "output '%s' is never assigned%s", s->name,
                           s->kind == S_INPUT ? " (it is an input)" : s->kind == S_PARAM ? " (it is a param)" : "");
            s->is_output = true;
            p->outputs[p->n_out++] = p->outdecl[k];
        }
    } else {
        for (int k = 0; k < p->nstmt; k++) {
            Sym *s = &p->sym[p->stmt[k].sym];
            if (!s->used) {
                s->is_output = true;
                p->outputs[p->n_out++] = p->stmt[k].sym;
            }
        }
    }
    /* Each output needs a value of its own to write: an input, or a value
     * that another output already writes, is copied. */
    char *claimed = arena_alloc(a, (size_t)p->ninst + (size_t)p->n_out + 1);
    for (int k = 0; k < p->n_out; k++) {
        Sym *s = &p->sym[p->outputs[k]];
        int v = s->value;
        if (p->inst[v].scalar)
            diag_error(diag(p), s->assign_off, s->len,
                       "output '%s' does not depend on any tensor input (only on literals and params)", s->name);
        const Shape *sh = &p->inst[v].shape;
        if (p->shaped && (sh->rank != p->full.rank || memcmp(sh->dim, p->full.dim, sizeof sh->dim) != 0))
            diag_error(diag(p), s->assign_off, s->len,
                       "output '%s' is %s, smaller than the chain's shape %s: every output has the full shape "
                       "(the broadcast of every input's)",
                       s->name, shape_text(p, sh), shape_text(p, &p->full));
        if (p->inst[v].op == O_INPUT || claimed[v])
            v = s->value = add_copy(p, s, v);
        claimed[v] = 1;
    }
    /* Each output's value is its own: name lookups stay O(1). */
    p->out_sym = arena_alloc(a, sizeof(int) * (size_t)(p->ninst + 1));
    for (int i = 0; i < p->ninst; i++)
        p->out_sym[i] = -1;
    for (int k = 0; k < p->n_out; k++)
        p->out_sym[p->sym[p->outputs[k]].value] = p->outputs[k];
}

/* Hash-consing key of an instruction over canonical operands. */
static uint64_t inst_hash(const Program *p, const Inst *in)
{
    uint64_t h = 1469598103934665603ull ^ in->op ^ ((uint64_t)in->dtype << 8);
    for (int a = 0; a < in->nargs; a++)
        h = (h ^ (uint64_t)(uint32_t)p->inst[in->arg[a]].canon) * 1099511628211ull;
    uint64_t bits;
    memcpy(&bits, &in->value, sizeof bits);
    h = (h ^ bits ^ (uint64_t)(uint32_t)in->sym) * 1099511628211ull;
    /* A multiply carries high bits only upwards, and integer-valued doubles
     * differ only in high bits: fold them into the low bits the table reads
     * (MurmurHash3's finaliser). */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

static bool same_inst(const Program *p, const Inst *x, const Inst *y)
{
    if (x->op != y->op || x->dtype != y->dtype || x->nargs != y->nargs || x->sym != y->sym ||
        memcmp(&x->value, &y->value, sizeof x->value) != 0)
        return false;
    for (int a = 0; a < x->nargs; a++)
        if (p->inst[x->arg[a]].canon != p->inst[y->arg[a]].canon)
            return false;
    return true;
}

/* Common subexpressions: inst[i].canon is the first live instruction equal
 * to i (itself when none), by hash-consing over canonical operands. */
static void share(Program *p)
{
    int cap = 16;
    while (cap < p->ninst * 2)
        cap *= 2;
    int *table = arena_alloc(p->arena, sizeof(int) * (size_t)cap);
    memset(table, -1, sizeof(int) * (size_t)cap);
    for (int i = 0; i < p->ninst; i++) {
        Inst *in = &p->inst[i];
        in->canon = i;
        if (!in->live || in->op == O_COPY)
            continue;
        uint32_t j = (uint32_t)inst_hash(p, in) & (uint32_t)(cap - 1);
        for (; table[j] >= 0; j = (j + 1) & (uint32_t)(cap - 1))
            if (same_inst(p, &p->inst[table[j]], in)) {
                in->canon = table[j];
                break;
            }
        if (table[j] < 0)
            table[j] = i;
    }
}

void ir_build(Program *p)
{
    if (p->nstmt == 0)
        diag_error(diag(p), p->diag->src->len, 0, "empty program: nothing is assigned");
    full_shape(p);
    int *remap = arena_alloc(p->arena, sizeof(int) * (size_t)p->ninst);
    for (int i = 0; i < p->ninst; i++) {
        Inst *in = &p->inst[i];
        int use[3] = {0, 0, 0}; /* the operands where they are written, for messages */
        for (int a = 0; a < in->nargs; a++) {
            use[a] = in->arg[a];
            in->arg[a] = remap[in->arg[a]];
        }
        remap[i] = i;
        if (in->op == O_NAME)
            resolve_name(p, i, remap);
        else if (in->op != O_CONST) {
            type_inst(p, i, use);
            if (p->shaped && !in->scalar)
                shape_inst(p, in);
            const Inst *c = in->op == O_POW && !in->scalar ? &p->inst[in->arg[1]] : NULL;
            if (c && c->scalar && c->op != O_CONST)
                in->form = in->uform = POW_SCALAR;
            else if (c && c->scalar) {
                in->form = (uint8_t)op_pow_form(c->value, c->value);
                in->uform = (uint8_t)op_pow_form(c->value, ref_round(c->value, in->dtype));
            }
            if ((in->op == O_FLOORDIV || in->op == O_DIV) && !in->scalar)
                in->uform = p->inst[in->arg[1]].scalar && !is_int(in->ct);
            if (in->op == O_DIV && !in->scalar && p->inst[in->arg[0]].scalar)
                in->uform = 2; /* a number over a tensor: eager's reciprocal times the number */
            /* floor, round, ... of an integer is the integer (eager copies it) */
            if (op_info[in->op].ints == I_NOOP && !in->scalar && is_int(p->inst[in->arg[0]].dtype))
                remap[i] = in->arg[0];
            /* A cast to the dtype a value already has is a no-op (.to()
             * returns the tensor itself): no kernel. */
            if (op_info[in->op].cls == K_CAST && !in->scalar && p->inst[in->arg[0]].dtype == in->dtype)
                remap[i] = in->arg[0];
        }
    }
    for (int k = 0; k < p->nstmt; k++) {
        p->stmt[k].value = remap[p->stmt[k].value];
        p->sym[p->stmt[k].sym].value = p->stmt[k].value;
    }
    ir_warn_near_names(p);
    find_outputs(p);
    p->n_in = by_first_seen(p, S_INPUT, &p->inputs);
    p->n_par = by_first_seen(p, S_PARAM, &p->params);
    check_tensor_limit(p);
    if (p->n_in == 0)
        diag_error(diag(p), p->stmt[0].off, p->stmt[0].len,
                   "the program has no tensor input: every value is a constant or a param");

    /* Liveness: outputs backwards. Operands precede users, so one pass. */
    for (int k = 0; k < p->n_out; k++)
        p->inst[p->sym[p->outputs[k]].value].live = 1;
    for (int i = p->ninst - 1; i >= 0; i--)
        if (p->inst[i].live)
            for (int a = 0; a < p->inst[i].nargs; a++)
                p->inst[p->inst[i].arg[a]].live = 1;
    for (int k = 0; k < p->nstmt; k++) {
        Sym *s = &p->sym[p->stmt[k].sym];
        if (!s->is_output && !p->inst[s->value].live)
            diag_warning(diag(p), s->assign_off, s->len,
                         "'%s' reaches no output; both versions leave it out", s->name);
    }
    for (int k = 0; k < p->n_in; k++) {
        Sym *s = &p->sym[p->inputs[k]];
        if (s->value < 0 || !p->inst[s->value].live)
            diag_warning(diag(p), s->decl_off, s->decl_len,
                         "input '%s' is never used by an output; it stays in the API but is not read", s->name);
    }    share(p);
}

const char *ir_value_name(const Program *p, int inst)
{
    if (p->out_sym[inst] >= 0)
        return p->sym[p->out_sym[inst]].name;
    const Inst *in = &p->inst[inst];
    if (in->op == O_INPUT || in->op == O_PARAM)
        return p->sym[in->sym].name;
    return NULL;
}

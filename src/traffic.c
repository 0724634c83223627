/*
 * traffic.c: what each version of the chain moves and computes.
 *
 * Unfused is what PyTorch eager launches: one kernel per operator or builtin
 * application with a tensor operand, as written (no sharing). Each kernel
 * reads each distinct tensor operand once and writes its result once, in
 * the result's storage dtype. Fused is one kernel that reads each input
 * once, writes each output once and computes each common subexpression once
 * (Inst.canon, found by ir_build).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fusec.h"
#include "fusec_ref.h"

static bool is_kernel(const Inst *in)
{
    return in->live && !in->scalar && in->op != O_CONST && in->op != O_INPUT && in->op != O_PARAM;
}

static void add_cost(FusecKernelCost *k, const Inst *in)
{
    int flops, trans;
    op_cost(in, &flops, &trans);
    k->flops += flops;
    k->trans += trans;
    /* A kernel computes in double when any operand or its result is f64. */
    if (in->dtype == FX_F64)
        k->fp64 = 1;
}

/* The issue slots of instruction in (with pow in form), in the compute
 * type it runs in: a cast to f16 or bf16 from double is a double op. A pow
 * by a param picks its form at run time (fx_pow_scalar): counted as the
 * form the param's declared value picks, the value the harness and
 * --predict run at. */
static void add_slots(const Program *p, FusecKernelCost *k, const Inst *in, int form, bool fp64, bool fused,
                      double scale)
{
    if (in->op == O_POW && form == POW_SCALAR && p->inst[in->arg[1]].op == O_PARAM) {
        double c = p->sym[p->inst[in->arg[1]].sym].pvalue;
        form = (int)op_pow_form(c, ref_round(c, in->dtype));
    }
    bool by_number = in->nargs == 2 && p->inst[in->arg[1]].scalar;
    const Inst *literal = by_number && p->inst[in->arg[1]].op == O_CONST ? &p->inst[in->arg[1]] : NULL;
    double s = scale * op_slots_of(in, form, fp64, by_number, literal, fused, p->slots);
    if (fp64)
        k->slots64 += s;
    else
        k->slots32 += s;
}

/* What nvcc leaves of the fused kernel's values (fusec's IR keeps them all:
 * eager runs each op, and the unfused version as eager does). FOLD_CONST: a
 * value nvcc knows when it compiles: a literal, an integer shifted by a
 * literal count outside [0, width) (<<: 0; >> of an unsigned type: 0), an
 * integer times or & a literal 0, an unsigned // or % by 0, x ^ x and x - x
 * of integers, x % x and x // x of i32 and i64, a compare whose answer nvcc
 * knows (known_bool), and any op of constants only. FOLD_FREE: an operand's
 * value (x & x, x | x, min(x, x), max(x, x), a where whose condition nvcc
 * knows: its taken side). FOLD_DEAD: no use left but folded ones. Each costs
 * no issue slots (a transcendental of constants a share of them:
 * folds_whole): random programs with shifts out of range ran 18-35% under
 * the slots that counted them (tests/randgen.py --seed 4242 programs 3, 13,
 * 44; session 24's call 3, docs/model.md). */
enum { FOLD_NONE, FOLD_FREE, FOLD_CONST, FOLD_DEAD };

/* Whether instruction a is an integer literal whose value, as a kernel of
 * compute type ct sees it (wrapped to ct's bits), is v. */
static bool int_literal(const Program *p, int a, int ct, int64_t v)
{
    const Inst *x = &p->inst[a];
    return x->op == O_CONST && fusec_dtype[x->dtype].kind == FX_KIND_INT && ref_wrap((uint64_t)x->ival, ct) == v;
}

static int fold_of(const Program *p, const Inst *in, const uint8_t *fold)
{
    if (in->op == O_CONST)
        return FOLD_CONST;
    if (in->op == O_INPUT || in->op == O_PARAM || in->nargs == 0)
        return FOLD_NONE;
    bool all = true;
    for (int k = 0; k < in->nargs; k++) {
        const Inst *x = &p->inst[in->arg[k]];
        all = all && (x->op == O_CONST || fold[x->canon] == FOLD_CONST);
    }
    if (all)
        return FOLD_CONST;
    if (in->op == O_COPY)
        return FOLD_NONE;
    int a = in->nargs == 2 ? p->inst[in->arg[0]].canon : -1, b = in->nargs == 2 ? p->inst[in->arg[1]].canon : -2;
    if (a == b && (in->op == O_AND || in->op == O_OR || in->op == O_MIN || in->op == O_MAX))
        return FOLD_FREE;
    if (fusec_dtype[in->ct].kind != FX_KIND_INT || in->nargs != 2)
        return FOLD_NONE;
    const FusecDtype *d = &fusec_dtype[in->ct];
    if (a == b && (in->op == O_XOR || in->op == O_SUB))
        return FOLD_CONST;
    /* x % x and x // x of i32 and i64 too: nvcc folds the division of a value
     * by itself and what only it feeds, leaving the test of x against 0 that
     * fusec's by-zero rule adds, priced at nothing (f32(i64(q % q) % 7) +
     * f32(q // q) + f32(q): 16.5 SASS instructions an element, nvcc 13, sm_90);
     * not of u8, i8 and i16, which divide in float (a reciprocal) */
    if (a == b && (in->op == O_REM || in->op == O_FLOORDIV) && d->size >= 4)
        return FOLD_CONST;
    bool is_unsigned = d->prec == 8 * d->size;
    if ((in->op == O_MUL || in->op == O_AND) &&
        (int_literal(p, in->arg[0], in->ct, 0) || int_literal(p, in->arg[1], in->ct, 0)))
        return FOLD_CONST;
    /* an unsigned // or % by 0: all ones, whatever the dividend (fx_int_div0) */
    if ((in->op == O_FLOORDIV || in->op == O_REM) && is_unsigned && int_literal(p, in->arg[1], in->ct, 0))
        return FOLD_CONST;
    const Inst *c = &p->inst[in->arg[1]];
    if ((in->op == O_SHL || in->op == O_SHR) && c->op == O_CONST && fusec_dtype[c->dtype].kind == FX_KIND_INT) {
        long long count = ref_wrap((uint64_t)c->ival, in->ct); /* as the kernel sees the literal */
        bool out = count < 0 || count >= 8 * d->size;
        if (out && (in->op == O_SHL || is_unsigned)) /* >> of a signed type: its sign */
            return FOLD_CONST;
    }
    return FOLD_NONE;
}

/* Whether nvcc folds a constant op of this kind whole: integer and bool
 * ops, and float ones without a library call (casts, compares, + - *,
 * min, where...). A transcendental of constants stays a call of the math
 * library's inline code, which nvcc computes once a thread, for all its E
 * elements (y = x + pow(sigmoid(f32(q << 40)) + 0.25, -2.254): 28.5 SASS
 * instructions an element more than y = x + f32(q << 40), E = 4: the pow's
 * and sigmoid's once a thread; cos(1) folded whole), priced at its slots
 * over the fewest elements a thread the kernel takes. */
static bool folds_whole(const Inst *in)
{
    return fusec_dtype[in->ct].kind != FX_KIND_FLOAT || (op_info[in->op].trans == 0 && in->op != O_DIV);
}

/* Whether s is an f32 or f64 value that nvcc knows to be an integer: a
 * sign() (fusec's is (float)((0 < x) - (x < 0))) or an i32 or i64 converted
 * (f32(q); a u8, i8, i16 or bool converted is not seen through). */
static bool integer_valued(const Program *p, const Inst *s)
{
    if (s->dtype != FX_F32 && s->dtype != FX_F64)
        return false;
    if (s->op == O_SIGN)
        return true;
    const FusecDtype *from = &fusec_dtype[p->inst[s->arg[0]].dtype];
    return op_info[s->op].cls == K_CAST && from->kind == FX_KIND_INT && from->size >= 4;
}

/* The value a bool that nvcc knows has (0 or 1), or -1: a literal, or == and
 * != of an integer-valued float (integer_valued) and a literal that is no
 * integer in its dtype: == false, != true, as nvcc 13 folds them (ordered
 * compares such as 0.5 < sign(x) it does not). */
static int known_bool(const Program *p, const Inst *in, const uint8_t *fold)
{
    if (in->op == O_CONST)
        return in->value != 0;
    if ((in->op != O_EQ && in->op != O_NE) || in->nargs != 2)
        return -1;
    for (int k = 0; k < 2; k++) {
        const Inst *s = &p->inst[p->inst[in->arg[k]].canon], *c = &p->inst[in->arg[1 - k]];
        if (!integer_valued(p, s) || fold[s - p->inst] != FOLD_NONE || c->op != O_CONST)
            continue;
        double v = ref_round(c->value, s->dtype);
        if (v != v || v != floor(v))
            return in->op == O_NE;
    }
    return -1;
}

/* fold[i] for every canonical live instruction of the fused kernel */
static void fused_folds(const Program *p, const char *is_out, uint8_t *fold)
{
    /* a where whose condition nvcc knows takes one side: free, and only that side is needed */
    signed char *known = arena_alloc(p->arena, (size_t)p->ninst + 1);
    for (int i = 0; i < p->ninst; i++) {
        known[i] = -1;
        if (!p->inst[i].live || p->inst[i].canon != i) {
            fold[i] = FOLD_NONE;
            continue;
        }
        const Inst *in = &p->inst[i];
        fold[i] = (uint8_t)fold_of(p, in, fold);
        known[i] = (signed char)known_bool(p, in, fold);
        if (known[i] >= 0 && fold[i] == FOLD_NONE)
            fold[i] = FOLD_CONST;
        if (in->op == O_WHERE && fold[i] == FOLD_NONE && known[p->inst[in->arg[0]].canon] >= 0)
            fold[i] = FOLD_FREE;
    }
    /* backwards: a value is needed by an output, or by a needed value that is not a constant */
    char *needed = arena_alloc(p->arena, (size_t)p->ninst + 1);
    for (int i = p->ninst - 1; i >= 0; i--) {
        const Inst *in = &p->inst[i];
        if (is_out[i])
            needed[in->canon] = 1;
        if (!in->live || in->canon != i || !needed[i] || fold[i] == FOLD_CONST)
            continue;
        if (in->op == O_WHERE && fold[i] == FOLD_FREE) { /* only the side its known condition takes */
            int taken = known[p->inst[in->arg[0]].canon] ? in->arg[1] : in->arg[2];
            needed[p->inst[taken].canon] = 1;
            continue;
        }
        for (int k = 0; k < in->nargs; k++)
            needed[p->inst[in->arg[k]].canon] = 1;
    }
    for (int i = 0; i < p->ninst; i++)
        if (fold[i] == FOLD_NONE && !needed[i] && p->inst[i].op != O_INPUT)
            fold[i] = FOLD_DEAD;
}

/* A tensor operand in f64 makes the op compute in double; a literal (a
 * Python float) or a param never does. */
static bool operand_is_f64(const Program *p, const Inst *in)
{
    for (int a = 0; a < in->nargs; a++)
        if (!p->inst[in->arg[a]].scalar && p->inst[in->arg[a]].dtype == FX_F64)
            return true;
    return false;
}

/* Adds a term of a shaped program: coef per element of shape sh. */
static void add_term(Program *p, FusecTerm **terms, int *n, int *cap, int kernel, int field, double coef,
                     const Shape *sh)
{
    if (!p->shaped || coef == 0)
        return;
    arena_grow(p->arena, (void **)terms, cap, *n + 1, sizeof(FusecTerm));
    Numel e = shape_numel(sh);
    FusecTerm *t = &(*terms)[(*n)++];
    t->kernel = kernel;
    t->field = field;
    t->coef = coef;
    memcpy(t->exp, e.exp, sizeof t->exp);
}

/* The passes a kernel over shape rs makes over an operand of shape as: one
 * for each step of a broadcast dim with a dim the operand varies along
 * inside it (a [S, D] table of a [B, S, D] result: B passes; a [C] bias of
 * [R, C] one, read again each row, a row apart), the innermost such dim's
 * inner elements apart. Adds the reads beyond the operand's own bytes (size
 * a element) and that distance as terms of kernel: FUSEC_REREAD and
 * FUSEC_REREAD_DIST, or where the passes lie one row apart FUSEC_REREAD_ROW
 * and, once a kernel, FUSEC_ROW_DIST (every such operand of a kernel is a row
 * apart, so the model prices them by one distance, where the others' sum
 * would stand for the farthest); none without such a dim. */
static void add_reread_terms(Program *p, FusecTerm **terms, int *n, int *cap, int kernel, double size,
                             const Shape *as, const Shape *rs)
{
    int last = -1, pass = -1; /* the innermost dim the operand varies along; the innermost broadcast one outside it */
    for (int j = rs->rank - 1; j >= 0; j--) {
        bool varies = shape_varies(p, as, j + p->full.rank - rs->rank); /* rs aligns with the chain's shape's end */
        if (varies && last < 0)
            last = j;
        else if (!varies && last >= 0 && pass < 0 && rs->dim[j] != DIM_ONE)
            pass = j;
    }
    if (pass < 0)
        return;
    Shape reads = {last + 1, {0}}, apart = {rs->rank - 1 - pass, {0}};
    memcpy(reads.dim, rs->dim, sizeof(int) * (size_t)(last + 1));
    memcpy(apart.dim, rs->dim + pass + 1, sizeof(int) * (size_t)apart.rank);
    bool row = apart.rank == 1;
    add_term(p, terms, n, cap, kernel, row ? FUSEC_REREAD_ROW : FUSEC_REREAD, size, &reads);
    add_term(p, terms, n, cap, kernel, row ? FUSEC_REREAD_ROW : FUSEC_REREAD, -size, as);
    for (int i = 0; row && i < *n; i++)
        if ((*terms)[i].kernel == kernel && (*terms)[i].field == FUSEC_ROW_DIST)
            return;
    add_term(p, terms, n, cap, kernel, row ? FUSEC_ROW_DIST : FUSEC_REREAD_DIST, 1, &apart);
}

/* A kernel's compute as terms: per element of shape sh. */
static void add_compute_terms(Program *p, Traffic *t, bool fused, int kernel, const FusecKernelCost *c,
                              const Shape *sh)
{
    FusecTerm **terms = fused ? &t->fterm : &t->uterm;
    int *n = fused ? &t->nfterm : &t->nuterm, *cap = fused ? &t->cap_fterm : &t->cap_uterm;
    add_term(p, terms, n, cap, kernel, FUSEC_FLOPS, c->flops, sh);
    add_term(p, terms, n, cap, kernel, FUSEC_TRANS, c->trans, sh);
    add_term(p, terms, n, cap, kernel, FUSEC_SLOTS32, c->slots32, sh);
    add_term(p, terms, n, cap, kernel, FUSEC_SLOTS64, c->slots64, sh);
}

/* True when shapes a and b have the same elements (the same dims, ones aside). */
static bool same_numel(const Shape *a, const Shape *b)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < a->rank && a->dim[i] == DIM_ONE)
            i++;
        while (j < b->rank && b->dim[j] == DIM_ONE)
            j++;
        if (i == a->rank || j == b->rank)
            return i == a->rank && j == b->rank;
        if (a->dim[i++] != b->dim[j++])
            return false;
    }
}

/* The free scratch slots of one element count and dtype size: a binary
 * min-heap of slot numbers, so the lowest comes first. */
typedef struct SlotPool {
    const Shape *shape;
    int size;
    int *heap, n, cap;
} SlotPool;

static void pool_push(Arena *a, SlotPool *p, int s)
{
    arena_grow(a, (void **)&p->heap, &p->cap, p->n + 1, sizeof(int));
    int i = p->n++;
    for (; i > 0 && p->heap[(i - 1) / 2] > s; i = (i - 1) / 2)
        p->heap[i] = p->heap[(i - 1) / 2];
    p->heap[i] = s;
}

static int pool_pop(SlotPool *p)
{
    int top = p->heap[0], last = p->heap[--p->n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= p->n)
            break;
        if (c + 1 < p->n && p->heap[c + 1] < p->heap[c])
            c++;
        if (last <= p->heap[c])
            break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (p->n > 0)
        p->heap[i] = last;
    return top;
}

/* The unfused intermediates' places in the scratch buffer, handed out as
 * eager's caching allocator hands out blocks: a temporary is free once the
 * last kernel that reads it has run, and the next intermediate takes the
 * free slot that fits best (of its element count, the smallest dtype size
 * at least its own, then the lowest address), else a new slot. A chain of
 * one-input ops so ping-pongs between two slots, as eager does; its
 * intermediates then stay in L2 and overwrite each other's dirty lines
 * there instead of each reaching HBM (docs/model.md, "Bytes"). Linear in
 * the kernels but for the heaps (a pool per element count and size). */
static void traffic_slots(Program *p, Traffic *t, const char *is_out)
{
    int nk = t->nkernels;
    int *last = arena_alloc(p->arena, sizeof(int) * (size_t)(nk + 1)); /* kernel -> its last reader */
    int *freed = arena_alloc(p->arena, sizeof(int) * (size_t)(nk + 1)); /* kernel -> first kernel its last reader frees */
    int *next = arena_alloc(p->arena, sizeof(int) * (size_t)(nk + 1)); /* the next in that list */
    t->slot = arena_alloc(p->arena, sizeof(int) * (size_t)(nk + 1));
    t->slot_first = arena_alloc(p->arena, sizeof(int) * (size_t)(nk + 1));
    t->nslots = 0;
    for (int k = 0; k < nk; k++) {
        last[k] = k;
        freed[k] = -1;
        for (int r = 0; r < t->kernels[k].nread; r++) {
            int w = t->kernel_of[t->kernels[k].read[r]];
            if (w >= 0 && last[w] < k)
                last[w] = k;
        }
    }
    SlotPool *pools = NULL;
    int npools = 0, cap = 0;
    for (int k = 0; k < nk; k++) {
        /* the slots whose intermediates were last read by kernel k - 1 are free now */
        for (int j = k > 0 ? freed[k - 1] : -1; j >= 0; j = next[j]) {
            int pi = 0, s = t->slot[j];
            const Inst *si = &p->inst[t->kernels[t->slot_first[s]].inst];
            while (pi < npools && (pools[pi].size != fusec_dtype_size[si->dtype] || !same_numel(pools[pi].shape, &si->shape)))
                pi++;
            if (pi == npools) {
                arena_grow(p->arena, (void **)&pools, &cap, npools + 1, sizeof *pools);
                pools[npools++] = (SlotPool){&si->shape, fusec_dtype_size[si->dtype], NULL, 0, 0};
            }
            pool_push(p->arena, &pools[pi], s);
        }
        const Inst *in = &p->inst[t->kernels[k].inst];
        t->slot[k] = -1;
        if (is_out[t->kernels[k].inst])
            continue;
        int best = -1, need = fusec_dtype_size[in->dtype];
        for (int pi = 0; pi < npools; pi++)
            if (pools[pi].n > 0 && pools[pi].size >= need && same_numel(pools[pi].shape, &in->shape) &&
                (best < 0 || pools[pi].size < pools[best].size))
                best = pi;
        if (best >= 0) {
            t->slot[k] = pool_pop(&pools[best]);
        } else {
            t->slot_first[t->nslots] = k;
            t->slot[k] = t->nslots++;
        }
        /* freed once its last reader has run */
        next[k] = freed[last[k]];
        freed[last[k]] = k;
    }
}

/* How far back each kernel reads its intermediates: for each intermediate it
 * reads, the bytes per element that go through L2 from the write of that
 * intermediate to this read (the intermediate itself, and every kernel's
 * reads and writes in between); the kernel's mid_dist is the largest, and
 * its again_dist the largest of its inputs read before, each from its last
 * read. A
 * chain whose kernels read what the one before wrote has each intermediate's
 * own bytes; a read ten kernels later, those of ten kernels more, which the
 * L2 may have evicted by then (fusec_model_time). Arrays of a shape smaller
 * than the chain's count as none between the two (a [C] bias beside [R, C]
 * data); the intermediate itself counts its dtype's bytes whatever its shape
 * (a little pessimistic for an [R, 1] one). Linear in the kernels: prefix
 * sums. */
static void traffic_dist(const Program *p, Traffic *t)
{
    int nk = t->nkernels;
    double *before = arena_alloc(p->arena, sizeof(double) * (size_t)(nk + 1)); /* bytes of kernels 0..k-1 */
    before[0] = 0;
    for (int k = 0; k < nk; k++) {
        const Kernel *kr = &t->kernels[k];
        const Inst *in = &p->inst[kr->inst];
        double b = 0;
        for (int r = 0; r < kr->nread; r++) {
            const Inst *a = &p->inst[kr->read[r]];
            if (same_numel(&a->shape, &p->full))
                b += fusec_dtype_size[a->dtype];
        }
        if (same_numel(&in->shape, &p->full))
            b += fusec_dtype_size[in->dtype];
        before[k + 1] = before[k] + b;
    }
    int *last_read = arena_alloc(p->arena, sizeof(int) * (size_t)(p->ninst + 1)); /* an input's, -1 */
    for (int i = 0; i < p->ninst; i++)
        last_read[i] = -1;
    for (int k = 0; k < nk; k++) {
        double d = 0, da = 0; /* intermediates', inputs read again */
        for (int r = 0; r < t->kernels[k].nread; r++) {
            int x = t->kernels[k].read[r];
            bool input = p->inst[x].op == O_INPUT;
            int w = input ? last_read[x] : t->kernel_of[x];
            double own = fusec_dtype_size[p->inst[x].dtype];
            double far = w >= 0 ? own + before[k] - before[w + 1] : 0;
            double *to = input ? &da : &d;
            if (far > *to)
                *to = far;
        }
        for (int r = 0; r < t->kernels[k].nread; r++)
            if (p->inst[t->kernels[k].read[r]].op == O_INPUT)
                last_read[t->kernels[k].read[r]] = k;
        t->kernels[k].cost.mid_dist = t->ucost[k].mid_dist = d;
        t->kernels[k].cost.again_dist = t->ucost[k].again_dist = da;
    }
}

/* The unfused version's footprint: its inputs, outputs and scratch slots (each
 * the size of the intermediate that first takes it), from kernel costs uk. */
static double unfused_footprint(const Traffic *t, const FusecKernelCost *uk, double inputs)
{
    double f = inputs;
    for (int k = 0; k < t->nkernels; k++)
        f += uk[k].out_bytes;
    for (int s = 0; s < t->nslots; s++)
        f += uk[t->slot_first[s]].mid_write;
    return f;
}

void traffic_build(Program *p, Traffic *t)
{
    memset(t, 0, sizeof *t);
    char *is_out = arena_alloc(p->arena, (size_t)p->ninst + 1);
    char *read_before = arena_alloc(p->arena, (size_t)p->ninst + 1); /* an input an earlier kernel read */
    for (int k = 0; k < p->n_out; k++)
        is_out[p->sym[p->outputs[k]].value] = 1;

    int n = 0;
    for (int i = 0; i < p->ninst; i++)
        n += is_kernel(&p->inst[i]);
    t->kernels = arena_alloc(p->arena, sizeof(Kernel) * (size_t)(n + 1));
    t->kernel_of = arena_alloc(p->arena, sizeof(int) * (size_t)(p->ninst + 1));
    for (int i = 0; i < p->ninst; i++)
        t->kernel_of[i] = -1;
    t->ucost = arena_alloc(p->arena, sizeof(FusecKernelCost) * (size_t)(n + 1));
    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (!is_kernel(in))
            continue;
        Kernel *k = &t->kernels[t->nkernels];
        k->inst = i;
        t->kernel_of[i] = t->nkernels;
        for (int a = 0; a < in->nargs; a++) {
            int x = in->arg[a];
            const Inst *arg = &p->inst[x];
            bool seen = false;
            for (int r = 0; r < k->nread; r++)
                seen |= k->read[r] == x;
            if (arg->scalar || seen)
                continue;
            k->read[k->nread++] = x;
            double b = fusec_dtype_size[arg->dtype];
            /* an input an earlier kernel read is in L2 as an intermediate is
             * (eager's x * sigmoid(x) reads x twice: the second from L2 at 2^20) */
            bool input = arg->op == O_INPUT, again = input && read_before[x];
            k->read_bytes += b;
            if (again)
                k->cost.in_again += b;
            else if (input)
                k->cost.in_bytes += b;
            else
                k->cost.mid_read += b;
            add_term(p, &t->uterm, &t->nuterm, &t->cap_uterm, t->nkernels,
                     again ? FUSEC_IN_AGAIN : input ? FUSEC_IN : FUSEC_MID_READ, b, &arg->shape);
            add_reread_terms(p, &t->uterm, &t->nuterm, &t->cap_uterm, t->nkernels, b, &arg->shape, &in->shape);
        }
        for (int r = 0; r < k->nread; r++)
            read_before[k->read[r]] = 1;
        double w = fusec_dtype_size[in->dtype];
        k->write_bytes = w;
        if (is_out[i])
            k->cost.out_bytes = w;
        else
            k->cost.mid_write = w;
        add_term(p, &t->uterm, &t->nuterm, &t->cap_uterm, t->nkernels, is_out[i] ? FUSEC_OUT : FUSEC_MID_WRITE, w,
                 &in->shape);
        add_cost(&k->cost, in);
        /* an operand broadcast to the result: eager's per-element form, each element gathered */
        bool gather = false;
        for (int r = 0; p->shaped && r < k->nread; r++)
            gather |= !shape_same_layout(p, &p->inst[k->read[r]].shape, &in->shape);
        k->broadcasts = gather;
        if (gather) {
            k->cost.gather = 1;
            add_term(p, &t->uterm, &t->nuterm, &t->cap_uterm, t->nkernels, FUSEC_GATHER, 1, &in->shape);
        }
        if (operand_is_f64(p, in))
            k->cost.fp64 = 1;
        add_slots(p, &k->cost, in, in->uform, k->cost.fp64, false, 1);
        for (int r = 0; r < k->nread; r++)
            k->cost.slots32 += op_convert_slots(p->inst[k->read[r]].dtype, false);
        k->cost.slots32 += op_convert_slots(in->dtype, true);
        t->u_read += k->read_bytes;
        t->u_write += w;
        t->u_flops += k->cost.flops;
        t->u_trans += k->cost.trans;
        add_compute_terms(p, t, false, t->nkernels, &k->cost, &in->shape);
        t->ucost[t->nkernels++] = k->cost;
    }
    traffic_slots(p, t, is_out);
    traffic_dist(p, t);
    for (int k = 0; k < t->nkernels; k++) /* a write into a slot an earlier intermediate held */
        t->kernels[k].cost.reuse = t->ucost[k].reuse = t->slot[k] >= 0 && t->slot_first[t->slot[k]] != k;
    if (t->nkernels > 0) /* the call's last kernel, whose writes may end it in L2 (write_tail_bytes) */
        t->kernels[t->nkernels - 1].cost.last = t->ucost[t->nkernels - 1].last = 1;
    uint8_t *fold = arena_alloc(p->arena, (size_t)p->ninst + 1);
    fused_folds(p, is_out, fold);
    int widest = 1; /* the fused kernel's elements a thread are at least 16 bytes of its widest array */
    for (int i = 0; i < p->ninst; i++)
        if ((p->inst[i].live && p->inst[i].op == O_INPUT) || is_out[i])
            widest = fusec_dtype_size[p->inst[i].dtype] > widest ? fusec_dtype_size[p->inst[i].dtype] : widest;
    double e_min = 16.0 / widest;
    FusecKernelCost fcompute; /* the fused kernel's compute alone, for its terms */
    memset(&fcompute, 0, sizeof fcompute);

    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (!in->live)
            continue;
        if (in->op == O_INPUT) {
            t->f_read += fusec_dtype_size[in->dtype];
            t->fcost.in_bytes += fusec_dtype_size[in->dtype];
            t->fcost.slots32 += op_convert_slots(in->dtype, false);
            fcompute.slots32 += op_convert_slots(in->dtype, false);
            add_term(p, &t->fterm, &t->nfterm, &t->cap_fterm, 0, FUSEC_IN, fusec_dtype_size[in->dtype], &in->shape);
            add_reread_terms(p, &t->fterm, &t->nfterm, &t->cap_fterm, 0, fusec_dtype_size[in->dtype], &in->shape,
                             &p->full);
        } else if (is_kernel(in) && in->canon == i) {
            add_cost(&t->fcost, in);
            add_cost(&fcompute, in);
            bool f64 = in->dtype == FX_F64 || operand_is_f64(p, in);
            if (f64)
                t->fcost.fp64 = 1;
            double scale = fold[i] == FOLD_NONE ? 1 : fold[i] == FOLD_CONST && !folds_whole(in) ? 1.0 / e_min : 0;
            add_slots(p, &t->fcost, in, in->form, f64, true, scale);
            add_slots(p, &fcompute, in, in->form, f64, true, scale);
            t->nfused_ops++;
        }
        if (is_out[i]) {
            t->f_write += fusec_dtype_size[in->dtype];
            t->fcost.out_bytes += fusec_dtype_size[in->dtype];
            /* an output that is a cast to its dtype is stored as the cast
             * rounds it: one conversion, the cast's (ir_stored_value) */
            double conv = ir_stored_value(p, i) != in->canon ? 0 : op_convert_slots(in->dtype, true);
            t->fcost.slots32 += conv;
            fcompute.slots32 += conv;
            add_term(p, &t->fterm, &t->nfterm, &t->cap_fterm, 0, FUSEC_OUT, fusec_dtype_size[in->dtype], &in->shape);
        }
    }
    /* the fused kernel computes every value once per element of the chain's shape */
    add_compute_terms(p, t, true, 0, &fcompute, &p->full);
    t->f_flops = t->fcost.flops;
    t->f_trans = t->fcost.trans;
    /* The model needs each distinct cost once, with its count: a long chain
     * repeats a few kernel shapes many times. */
    int cap = 16, ng = 0;
    while (cap < 2 * t->nkernels)
        cap *= 2;
    int *slot = arena_alloc(p->arena, sizeof(int) * (size_t)cap);
    memset(slot, -1, sizeof(int) * (size_t)cap);
    FusecKernelCost *g = arena_alloc(p->arena, sizeof *g * (size_t)(t->nkernels + 1));
    for (int k = 0; k < t->nkernels; k++) {
        FusecKernelCost c = t->ucost[k];
        c.count = 0;
        uint64_t h = 1469598103934665603ull;
        const unsigned char *b = (const unsigned char *)&c;
        for (size_t i = 0; i < sizeof c; i++)
            h = (h ^ b[i]) * 1099511628211ull;
        uint32_t j = (uint32_t)h & (uint32_t)(cap - 1);
        while (slot[j] >= 0) {
            FusecKernelCost d = g[slot[j]];
            d.count = 0;
            if (memcmp(&d, &c, sizeof c) == 0)
                break;
            j = (j + 1) & (uint32_t)(cap - 1);
        }
        if (slot[j] < 0) {
            slot[j] = ng;
            g[ng++] = c;
        }
        g[slot[j]].count++;
    }
    t->ngroups = ng;
    t->ucost_grouped = g;
    t->unfused = (FusecVersion){ng, g, unfused_footprint(t, t->ucost, t->fcost.in_bytes), 0, 0, 0, 0};
    t->fcost.count = 1;
    t->fcost.last = 1;
    /* its chunks: driver.c sets them (emit_cuda_fused_launches) */
    t->fused = (FusecVersion){1, &t->fcost, t->f_read + t->f_write, 0, 0, 0, 0};
    t->ratio = (t->u_read + t->u_write) / (t->f_read + t->f_write);
    if (p->shaped)
        traffic_set(p, t, NULL);
}

static bool is_full_count(const Program *p, const FusecTerm *term)
{
    Numel e = shape_numel(&p->full);
    return memcmp(e.exp, term->exp, sizeof e.exp) == 0;
}

/* The terms that stay when every dim is large: those of the full shape's count. */
static const FusecTerm *limit_terms(const Program *p, const FusecTerm *terms, int n, int *kept)
{
    FusecTerm *out = arena_alloc(p->arena, sizeof(FusecTerm) * (size_t)(n + 1));
    *kept = 0;
    for (int i = 0; i < n; i++)
        if (is_full_count(p, &terms[i]))
            out[(*kept)++] = terms[i];
    return out;
}

void traffic_at(const Program *p, const Traffic *t, const double *dims, FusecKernelCost *uk, FusecKernelCost *fk,
                FusecVersion *u, FusecVersion *f, double *n)
{
    double ones[LIMIT_DIMS] = {1, 1, 1, 1};
    int nu = t->nuterm, nf = t->nfterm;
    const FusecTerm *ut = t->uterm, *ft = t->fterm;
    if (!dims) {
        ut = limit_terms(p, t->uterm, t->nuterm, &nu);
        ft = limit_terms(p, t->fterm, t->nfterm, &nf);
        dims = ones;
    }
    Numel e = shape_numel(&p->full);
    *n = fusec_numel(e.exp, dims, p->ndim);
    for (int k = 0; k < t->nkernels; k++)
        uk[k] = t->ucost[k];
    fk[0] = t->fcost;
    fusec_costs_at(uk, t->nkernels, ut, nu, dims, p->ndim, *n);
    fusec_costs_at(fk, 1, ft, nf, dims, p->ndim, *n);
    /* the distinct bytes of every buffer touched: the inputs, the outputs
     * and the scratch slots (the fused kernel: its inputs and outputs) */
    *u = (FusecVersion){t->nkernels, uk, unfused_footprint(t, uk, fk[0].in_bytes), 0, 0, 0, 0};
    *f = t->fused;
    f->kernels = fk;
    f->footprint = fusec_footprint(fk, 1, fk[0].in_bytes);
    int last = p->full.rank > 0 ? p->full.dim[p->full.rank - 1] : -1;
    fusec_version_rows(f, last >= 0 ? dims[last] : 1);
}

void traffic_set(const Program *p, Traffic *t, const double *dims)
{
    FusecKernelCost *uk = arena_alloc(p->arena, sizeof(FusecKernelCost) * (size_t)(t->nkernels + 1));
    FusecKernelCost *fk = arena_alloc(p->arena, sizeof(FusecKernelCost));
    double n;
    FusecVersion fused = t->fused; /* the rows' chunk is the point's (traffic_at), not the chain's */
    traffic_at(p, t, dims, uk, fk, &t->unfused, &fused, &n);
    t->fused.kernels = fused.kernels;
    t->fused.footprint = fused.footprint;
    t->u_read = t->u_write = t->u_flops = t->u_trans = 0;
    for (int k = 0; k < t->nkernels; k++) {
        Kernel *kr = &t->kernels[k];
        kr->cost = uk[k];
        kr->read_bytes = uk[k].in_bytes + uk[k].in_again + uk[k].mid_read;
        kr->write_bytes = uk[k].mid_write + uk[k].out_bytes;
        t->ucost[k] = uk[k];
        t->u_read += kr->read_bytes;
        t->u_write += kr->write_bytes;
        t->u_flops += uk[k].flops;
        t->u_trans += uk[k].trans;
    }
    t->fcost = fk[0];
    t->f_read = fk[0].in_bytes;
    t->f_write = fk[0].out_bytes;
    t->f_flops = fk[0].flops;
    t->f_trans = fk[0].trans;
    t->ratio = (t->u_read + t->u_write) / (t->f_read + t->f_write);
    t->ucost_grouped = t->ucost;
    t->ngroups = t->nkernels;
    t->unfused.kernels = t->ucost;
    t->fused.kernels = &t->fcost;
}

/* Monomials of a formula, largest count first, then by the dims' order. */
static int by_count(const void *x, const void *y)
{
    const FusecTerm *a = x, *b = y;
    int da = 0, db = 0;
    for (int d = 0; d < LIMIT_DIMS; d++)
        da += a->exp[d], db += b->exp[d];
    if (da != db)
        return db - da;
    for (int d = 0; d < LIMIT_DIMS; d++)
        if (a->exp[d] != b->exp[d])
            return b->exp[d] - a->exp[d];
    return 0;
}

const char *traffic_formula(const Program *p, const FusecTerm *terms, int n, int kernel, int field_lo, int field_hi)
{
    /* One kernel's terms: a run of the array, which traffic_build fills in
     * kernel order. Scanning (and sizing the sums by) all n terms for each
     * of a long chain's kernels took time and memory quadratic in it. */
    int lo = 0, hi = n;
    if (kernel >= 0) {
        int a = 0, b = n;
        while (a < b) { /* the first term of a kernel >= kernel */
            int mid = a + (b - a) / 2;
            if (terms[mid].kernel < kernel)
                a = mid + 1;
            else
                b = mid;
        }
        lo = hi = a;
        while (hi < n && terms[hi].kernel == kernel)
            hi++;
    }
    FusecTerm *sum = arena_alloc(p->arena, sizeof(FusecTerm) * (size_t)(hi - lo + 1));
    int m = 0;
    for (int i = lo; i < hi; i++) {
        const FusecTerm *t = &terms[i];
        if (t->field < field_lo || t->field > field_hi)
            continue;
        int j = 0;
        while (j < m && memcmp(sum[j].exp, t->exp, sizeof t->exp) != 0)
            j++;
        if (j == m) {
            sum[m] = *t;
            sum[m++].coef = 0;
        }
        sum[j].coef += t->coef;
    }
    if (m == 0)
        return "0";
    qsort(sum, (size_t)m, sizeof *sum, by_count);
    char *s = arena_printf(p->arena, "%s", "");
    for (int j = 0; j < m; j++) {
        char c[32];
        out_num(c, sizeof c, sum[j].coef);
        s = arena_printf(p->arena, "%s%s%s", s, j ? " + " : "", c);
        for (int d = 0; d < p->ndim; d++)
            for (int k = 0; k < sum[j].exp[d]; k++)
                s = arena_printf(p->arena, "%s*%s", s, p->dim[d].name);
    }
    return s;
}

static void value_text(const Program *p, const Traffic *t, int i, char *const *scalar_name, char *buf, size_t len)
{
    const Inst *in = &p->inst[i];
    const char *name = ir_value_name(p, i);
    if (name)
        snprintf(buf, len, "%s", name);
    else if (in->op == O_CONST && fusec_dtype[in->dtype].kind == FX_KIND_INT)
        snprintf(buf, len, "%lld", (long long)in->ival); /* exact */
    else if (in->op == O_CONST)
        out_num(buf, len, in->value);
    else if (t->kernel_of[i] >= 0)
        snprintf(buf, len, "t%d", t->kernel_of[i] + 1);
    else
        snprintf(buf, len, "%s", scalar_name && scalar_name[i] ? scalar_name[i] : "(scalar)");
}

void traffic_kernel_text(const Program *p, const Traffic *t, int k, char *const *scalar_name, char *buf,
                         size_t len)
{
    int i = t->kernels[k].inst;
    const Inst *in = &p->inst[i];
    char res[300], a[3][300];
    value_text(p, t, i, scalar_name, res, sizeof res);
    for (int j = 0; j < in->nargs; j++)
        value_text(p, t, in->arg[j], scalar_name, a[j], sizeof a[j]);
    const char *op = op_name((Op)in->op);
    if (in->op == O_NEGATE || in->op == O_NOT)
        snprintf(buf, len, "%s = %s%s", res, op, a[0]);
    else if (in->nargs == 2 && op_info[in->op].name[0] == 0)
        snprintf(buf, len, "%s = %s %s %s", res, a[0], op, a[1]);
    else if (in->nargs == 1)
        snprintf(buf, len, "%s = %s(%s)", res, op, a[0]);
    else if (in->nargs == 2)
        snprintf(buf, len, "%s = %s(%s, %s)", res, op, a[0], a[1]);
    else
        snprintf(buf, len, "%s = %s(%s, %s, %s)", res, op, a[0], a[1], a[2]);
}

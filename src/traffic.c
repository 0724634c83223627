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
#include <string.h>

#include "fusec.h"

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
 * type it runs in: a cast to f16 or bf16 from double is a double op. */
static void add_slots(FusecKernelCost *k, const Inst *in, int form, bool fp64)
{
    double s = op_slots_of(in, form, fp64);
    if (fp64)
        k->slots64 += s;
    else
        k->slots32 += s;
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

void traffic_build(Program *p, Traffic *t)
{
    memset(t, 0, sizeof *t);
    char *is_out = arena_alloc(p->arena, (size_t)p->ninst + 1);
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
    double footprint = 0;
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
            k->read_bytes += b;
            if (arg->op == O_INPUT)
                k->cost.in_bytes += b;
            else
                k->cost.mid_read += b;
        }
        double w = fusec_dtype_size[in->dtype];
        k->write_bytes = w;
        if (is_out[i])
            k->cost.out_bytes = w;
        else
            k->cost.mid_write = w;
        add_cost(&k->cost, in);
        if (operand_is_f64(p, in))
            k->cost.fp64 = 1;
        add_slots(&k->cost, in, in->uform, k->cost.fp64);
        for (int r = 0; r < k->nread; r++)
            k->cost.slots32 += op_convert_slots(p->inst[k->read[r]].dtype, false);
        k->cost.slots32 += op_convert_slots(in->dtype, true);
        footprint += w;
        t->u_read += k->read_bytes;
        t->u_write += w;
        t->u_flops += k->cost.flops;
        t->u_trans += k->cost.trans;
        t->ucost[t->nkernels++] = k->cost;
    }

    for (int i = 0; i < p->ninst; i++) {
        const Inst *in = &p->inst[i];
        if (!in->live)
            continue;
        if (in->op == O_INPUT) {
            t->f_read += fusec_dtype_size[in->dtype];
            t->fcost.in_bytes += fusec_dtype_size[in->dtype];
            t->fcost.slots32 += op_convert_slots(in->dtype, false);
        } else if (is_kernel(in) && in->canon == i) {
            add_cost(&t->fcost, in);
            bool f64 = in->dtype == FX_F64 || operand_is_f64(p, in);
            if (f64)
                t->fcost.fp64 = 1;
            add_slots(&t->fcost, in, in->form, f64);
            t->nfused_ops++;
        }
        if (is_out[i]) {
            t->f_write += fusec_dtype_size[in->dtype];
            t->fcost.out_bytes += fusec_dtype_size[in->dtype];
            t->fcost.slots32 += op_convert_slots(in->dtype, true);
        }
    }
    t->f_flops = t->fcost.flops;
    t->f_trans = t->fcost.trans;
    footprint += t->fcost.in_bytes;
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
    t->unfused = (FusecVersion){ng, g, footprint};
    t->fcost.count = 1;
    t->fused = (FusecVersion){1, &t->fcost, t->f_read + t->f_write};
    t->ratio = (t->u_read + t->u_write) / (t->f_read + t->f_write);
}

static void value_text(const Program *p, const Traffic *t, int i, char *const *scalar_name, char *buf, size_t len)
{
    const Inst *in = &p->inst[i];
    const char *name = ir_value_name(p, i);
    if (name)
        snprintf(buf, len, "%s", name);
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

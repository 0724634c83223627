/* Unit tests of the front end and the traffic model: programs in, kernels,
 * dtypes and bytes out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fusec.h"

typedef struct Compiled {
    Arena *arena;
    Program *p;
    Traffic t;
    int rc;
    char err[2048];
} Compiled;

/* Parses, builds and models src; rc 1 and the message in err on error. */
static void compile(Compiled *c, const char *src, int dtype)
{
    static jmp_buf bail;
    static Source s;
    static Diag d;
    memset(c, 0, sizeof *c);
    s = (Source){"t.fuse", src, strlen(src)};
    FILE *errf = fmemopen(c->err, sizeof c->err - 1, "w");
    c->arena = arena_new();
    d = (Diag){.src = &s, .out = errf, .bail = &bail, .arena = c->arena};
    if (setjmp(bail) == 0) {
        c->p = arena_alloc(c->arena, sizeof *c->p);
        c->p->arena = c->arena;
        c->p->diag = &d;
        c->p->default_dtype = dtype;
        parse_program(c->p);
        ir_build(c->p);
        traffic_build(c->p, &c->t);
    } else {
        c->rc = 1;
    }
    fclose(errf);
}

static void done(Compiled *c) { arena_free(c->arena); }

static void expect(const char *src, int dtype, int kernels, double ubytes, double fbytes)
{
    Compiled c;
    compile(&c, src, dtype);
    if (c.rc != 0)
        fail_msg("%s: %s", src, c.err);
    assert_int_equal(c.t.nkernels, kernels);
    assert_true(c.t.u_read + c.t.u_write == ubytes);
    assert_true(c.t.f_read + c.t.f_write == fbytes);
    done(&c);
}

static void expect_error(const char *src, const char *msg)
{
    Compiled c;
    compile(&c, src, FX_F32);
    assert_int_equal(c.rc, 1);
    if (!strstr(c.err, msg))
        fail_msg("expected '%s' in: %s", msg, c.err);
    assert_non_null(strstr(c.err, "t.fuse:"));
    done(&c);
}

static void seed_chain(void **state)
{
    (void)state;
    expect("y = relu(x*2+1)*0.5", FX_F32, 4, 32, 8);
    expect("y = relu(x*2+1)*0.5", FX_F16, 4, 16, 4);
    expect("y = relu(x*2+1)*0.5\n", FX_BF16, 4, 16, 4);
}

static void literal_folding(void **state)
{
    (void)state;
    expect("y = x * (2 * 3 + 1)", FX_F32, 1, 8, 8);   /* (2*3+1) is one literal */
    expect("y = x * 2 * 3", FX_F32, 2, 16, 8);        /* left to right: two kernels */
    expect("y = x * -2", FX_F32, 1, 8, 8);            /* -2 is a literal */
    expect("y = -x", FX_F32, 1, 8, 8);
    expect("y = x * exp(1)", FX_F32, 1, 8, 8);
}

/* pow with a literal exponent of 2, 3, -1, -2, 0.5 or -0.5 costs what PyTorch
 * runs instead (multiplies, a reciprocal, sqrt or rsqrt); any other exponent,
 * or a param, costs pow's 1 flop and 2 transcendentals. */
static void pow_forms(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        int flops, trans;
    } cases[] = {
        {"y = pow(x, 2)", 1, 0},    {"y = pow(x, 1 + 2)", 2, 0}, {"y = pow(x, -1)", 1, 0},
        {"y = pow(x, -2)", 2, 0},   {"y = pow(x, 0.5)", 0, 1},   {"y = pow(x, -0.5)", 0, 1},
        {"y = pow(x, 2.5)", 1, 2},  {"y = pow(x, 1)", 1, 2},     {"param e = 2\ny = pow(x, e)", 1, 2},
        {"y = pow(2, x)", 1, 2},    {"y = pow(x, x)", 1, 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Compiled c;
        compile(&c, cases[k].src, FX_F32);
        if (c.rc != 0)
            fail_msg("%s: %s", cases[k].src, c.err);
        assert_int_equal(c.t.nkernels, 1);
        if (c.t.fcost.flops != cases[k].flops || c.t.fcost.trans != cases[k].trans)
            fail_msg("%s: %d flops %d transcendentals, want %d and %d", cases[k].src, (int)c.t.fcost.flops,
                     (int)c.t.fcost.trans, cases[k].flops, cases[k].trans);
        done(&c);
    }
    /* The unfused kernel follows eager, which tests 2, 3 and -2 on the
     * exponent rounded to the tensor's dtype; the fused kernel needs the
     * exact value. */
    static const struct {
        const char *src;
        int dtype;
        PowForm form, uform;
    } forms[] = {
        {"y = pow(x, 2.005)", FX_BF16, POW_NUMBER, POW_SQUARE},
        {"y = pow(x, 2.0004)", FX_F16, POW_NUMBER, POW_SQUARE},
        {"y = pow(x, 2.0004)", FX_F32, POW_NUMBER, POW_NUMBER},
        {"y = pow(x, 3.00000001)", FX_F32, POW_NUMBER, POW_CUBE},
        {"y = pow(x, 0.50001)", FX_BF16, POW_NUMBER, POW_NUMBER}, /* 0.5 is tested before rounding */
        {"y = pow(x, -2)", FX_F16, POW_RECIP_SQUARE, POW_RECIP_SQUARE},
        {"param e = 2\ny = pow(x, e)", FX_F16, POW_SCALAR, POW_SCALAR},
        {"y = pow(x, x)", FX_F16, POW_GENERAL, POW_GENERAL},
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        Compiled c;
        compile(&c, forms[k].src, forms[k].dtype);
        if (c.rc != 0)
            fail_msg("%s: %s", forms[k].src, c.err);
        const Inst *pw = NULL;
        for (int i = 0; i < c.p->ninst; i++)
            if (c.p->inst[i].op == O_POW)
                pw = &c.p->inst[i];
        assert_non_null(pw);
        if (pw->form != forms[k].form || pw->uform != forms[k].uform)
            fail_msg("%s (dtype %d): forms %d / %d, want %d / %d", forms[k].src, forms[k].dtype, pw->form, pw->uform,
                     forms[k].form, forms[k].uform);
        done(&c);
    }
}

static void promotion(void **state)
{
    (void)state;
    Compiled c;
    compile(&c, "in a: f16\nin b: bf16\ny = a * b", FX_F32);
    assert_int_equal(c.rc, 0);
    assert_int_equal(c.p->inst[c.p->sym[c.p->outputs[0]].value].dtype, FX_F32);
    assert_true(c.t.u_read == 4 && c.t.u_write == 4); /* reads 2 + 2, writes f32 */
    done(&c);
    compile(&c, "in a: f16\ny = a * 2.0 + 1", FX_F32); /* literals never widen */
    assert_int_equal(c.p->inst[c.p->sym[c.p->outputs[0]].value].dtype, FX_F16);
    done(&c);
    compile(&c, "in a: f16; in b: f32; y = a + b", FX_F32);
    assert_int_equal(c.p->inst[c.p->sym[c.p->outputs[0]].value].dtype, FX_F32);
    done(&c);
    compile(&c, "in a: f16; y = a < 1", FX_F32); /* comparisons are bool, 1 byte */
    assert_int_equal(c.p->inst[c.p->sym[c.p->outputs[0]].value].dtype, FX_BOOL);
    assert_true(c.t.u_write == 1);
    done(&c);
    compile(&c, "in a: f64; param s: f32 = 2; y = a * s", FX_F32);
    assert_int_equal(c.p->inst[c.p->sym[c.p->outputs[0]].value].dtype, FX_F64);
    done(&c);
}

static void sharing_and_outputs(void **state)
{
    (void)state;
    /* eager runs exp twice; the fused kernel shares it */
    Compiled c;
    compile(&c, "y = exp(x) + exp(x)", FX_F32);
    assert_int_equal(c.t.nkernels, 3);
    assert_int_equal(c.t.nfused_ops, 2);
    done(&c);
    /* two outputs, one used by the other */
    expect("out y, z\ny = sigmoid(x) * x\nz = y * y + x", FX_F32, 4, 40, 12);
    /* without out: the unused names are the outputs */
    compile(&c, "a = x * 2\nb = a + 1\nc = a - 1", FX_F32);
    assert_int_equal(c.p->n_out, 2);
    done(&c);
    /* an output that is an input is copied */
    expect("out y\ny = x", FX_F32, 1, 8, 8);
    /* where with a bool input, params move no bytes */
    expect("in m: bool\nparam s = 0.5\ny = where(m, x * s, x)", FX_F32, 2, 21, 9);
    /* a cast to the dtype a value has is no kernel */
    expect("y = f32(x) * 2", FX_F32, 1, 8, 8);
    expect("in h: f16\ny = f32(h) * 2", FX_F32, 2, 6 + 8, 6);
}

/* The instruction that assigns name (through a copy, its operand). */
static const Inst *value_of(const Compiled *c, const char *name)
{
    for (int i = 0; i < c->p->nsym; i++)
        if (strcmp(c->p->sym[i].name, name) == 0)
            return &c->p->inst[c->p->sym[i].value];
    fail_msg("no symbol %s", name);
    return NULL;
}

/* ir_build leaves each instruction's compute type and common-subexpression
 * leader on it, for every later stage to read. */
static void compute_types_and_sharing(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        int ct; /* the compute type of c, a comparison or a cast */
    } cases[] = {
        {"in h: f16\nc = h < 1\ny = where(c, h, 0)", FX_F32},
        {"in d: f64\nc = d < 1\ny = where(c, d, 0)", FX_F64},
        {"in d: f64\nin h: f16\nc = d < h\ny = where(c, d, 0)", FX_F64},
        {"in m: bool\nc = m == 1\ny = where(c, x, 0)", FX_F32}, /* a bool against a number: f32 */
        {"in m, n: bool\nc = m == n\ny = where(c, x, 0)", FX_BOOL},
        {"in m: bool\nc = f64(m)\ny = c * x", FX_F64}, /* a bool cast: the target's */
        {"in h: f16\nc = f64(h)\ny = c * x", FX_F32},  /* else the operand's */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Compiled c;
        compile(&c, cases[k].src, FX_F32);
        if (c.rc != 0)
            fail_msg("%s: %s", cases[k].src, c.err);
        if (value_of(&c, "c")->ct != cases[k].ct)
            fail_msg("%s: compute type %d, want %d", cases[k].src, value_of(&c, "c")->ct, cases[k].ct);
        done(&c);
    }
    Compiled c;
    compile(&c, "a = exp(x)\nb = exp(x)\ny = a * b + exp(x * 1)", FX_F32);
    const Inst *a = value_of(&c, "a"), *b = value_of(&c, "b");
    assert_int_equal(a->canon, a - c.p->inst);
    assert_int_equal(b->canon, a - c.p->inst);
    done(&c);
}

static void literals_do_not_make_double(void **state)
{
    (void)state;
    /* a literal is a Python float, but eager computes x * 2.0 in x's dtype */
    Compiled c;
    compile(&c, "y = gelu_tanh(x * 1.5 + 0.25)", FX_F32);
    assert_int_equal(c.rc, 0);
    for (int k = 0; k < c.t.nkernels; k++)
        assert_int_equal(c.t.ucost[k].fp64, 0);
    assert_int_equal(c.t.fcost.fp64, 0);
    done(&c);
    compile(&c, "in a: f64\ny = a * 2", FX_F32);
    assert_int_equal(c.t.fcost.fp64, 1);
    done(&c);
}

static void declarations_anywhere(void **state)
{
    (void)state;
    Compiled c;
    compile(&c, "y = a * b\nin b: f16\nin a: f16", FX_F32);
    assert_int_equal(c.rc, 0);
    assert_int_equal(c.p->n_in, 2);
    /* API order: first appearance in the file */
    assert_string_equal(c.p->sym[c.p->inputs[0]].name, "a");
    assert_int_equal(c.p->inst[c.p->sym[c.p->outputs[0]].value].dtype, FX_F16);
    done(&c);
}

static void diagnostics(void **state)
{
    (void)state;
    expect_error("y = relu(x", "'(' is never closed");
    expect_error("y = x)", "')' has no matching '('");
    expect_error("y = x *", "missing operand after '*'");
    expect_error("y = rleu(x)", "did you mean 'relu'?");
    expect_error("y = relu(x, x)", "'relu' takes 1 argument, not 2");
    expect_error("y = x\ny = x * 2", "'y' is assigned twice");
    expect_error("in x\nx = 2 * y", "cannot assign to input 'x'");
    expect_error("y = t * 2\nt = exp(x)", "'t' is used before it is assigned");
    expect_error("t = t + x", "'t' is used in its own definition");
    expect_error("out z\ny = x * 2", "output 'z' is never assigned");
    expect_error("y = 2 * 3", "does not depend on any tensor input");
    expect_error("", "empty program");
    expect_error("y = x * 1e999", "number out of range");
    expect_error("in x: f17\ny = x", "unknown dtype 'f17'; did you mean 'f16'?");
    expect_error("y = x $ 2", "character '$' is not part of the language");
    expect_error("y = x * 2 # caf\xc3\xa9 ok\nz = \xff", "invalid UTF-8 byte 0xFF");
    expect_error("y = 2x", "malformed number '2x'");
    expect_error("y = where(x, x, x)", "where's condition must be bool");
    expect_error("y = leaky_relu(x, x)", "slope must be a number or a param");
    expect_error("y = a < b < c", "comparisons do not chain");
    expect_error("param s: f16 = 70000\ny = x * s", "out of range for f16");
    expect_error("y = x * (1 / 0)", "division by zero");
    expect_error("relu = x * 2", "'relu' is a builtin function");
}

static void deep_nesting_is_an_error_not_a_crash(void **state)
{
    (void)state;
    enum { DEPTH = 100000 };
    char *src = malloc(2 * DEPTH + 16);
    strcpy(src, "y = ");
    memset(src + 4, '(', DEPTH);
    src[4 + DEPTH] = 'x';
    memset(src + 5 + DEPTH, ')', DEPTH);
    src[5 + 2 * DEPTH] = 0;
    expect_error(src, "parentheses nested more than 256 deep");
    memset(src + 4, '-', DEPTH);
    src[4 + DEPTH] = 'x';
    src[5 + DEPTH] = 0;
    expect_error(src, "nested too deeply");
    free(src);
}

static void long_chain_is_linear(void **state)
{
    (void)state;
    enum { N = 20000 };
    char *src = malloc((size_t)N * 32);
    char *p = src;
    p += sprintf(p, "v0 = x\n");
    for (int i = 1; i < N; i++)
        p += sprintf(p, "v%d = v%d * 1.0001 + 0.5\n", i, i - 1);
    Compiled c;
    compile(&c, src, FX_F32);
    assert_int_equal(c.rc, 0);
    assert_int_equal(c.t.nkernels, 2 * (N - 1));
    done(&c);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_chain),          cmocka_unit_test(literal_folding),
        cmocka_unit_test(promotion),           cmocka_unit_test(pow_forms),           cmocka_unit_test(sharing_and_outputs), cmocka_unit_test(compute_types_and_sharing),
        cmocka_unit_test(declarations_anywhere), cmocka_unit_test(literals_do_not_make_double), cmocka_unit_test(diagnostics),
        cmocka_unit_test(deep_nesting_is_an_error_not_a_crash), cmocka_unit_test(long_chain_is_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#!/usr/bin/env python3
"""randgen.py: random VALID .fuse programs, for differential testing.

    tests/randgen.py --seed S --count N --out DIR [--ops-def src/ops.def]

writes DIR/rand_S_0000.fuse ... (N files); the same seed gives the same files.
Every program compiles with exit status 0. Across a batch of 8 or more files,
every builtin of src/ops.def, every infix operator and every dtype appears
(the generator hands each program a share of the operations it must use;
--ops-def checks that this table still matches src/ops.def).

What a program can hold: inputs of every dtype (f16, bf16, f32, f64 declared
with "in a: f16", undeclared ones take the default f32, bool masks with
"in m: bool", fp8 inputs "in p: f8e4m3" that the chain casts to a float
before using: fp8 has no arithmetic), fp8 casts of float subexpressions
(cast back to a float, or a statement's fp8 value, an output), params of every float dtype ("param s: f32 = 0.3"), several
statements and outputs (implicit, or an "out" declaration), casts, where,
comparisons, literal-only subexpressions (folded by fusec), param-only
subexpressions (computed on the host), repeated subexpressions (shared by
the fused kernel), aliases of inputs and of other outputs (copies), dead
statements, declarations after their use, ';' and newlines inside
parentheses, comments, and names that are C keywords or emitter names.

About one program in three has shapes (docs/language.md, "Shapes and
broadcasting"): a chain shape of 2 or 3 named dims ([R, C], [B, R, C]), each
declared input and mask a shape that broadcasts into it ([C], [R, 1], [1, C],
[B, 1, C], ...; undeclared inputs have the chain's shape), and a first line
"# fusec-args: --dims=..." with every dim's size (small and odd, so that
rows are not multiples of a vector). A statement whose inputs do not cover
the chain's shape gets "+ 0 * X" with an input X of the full shape, so
that every output has the chain's shape.

Values are kept numerically tame so that a GPU harness can compare against a
double reference with dtype tolerances: every value is tracked as an interval
over the harness's inputs (uniform in [-4, 4)); logs, roots and divisors get
operands bounded away from 0, exponentials get bounded operands, pow gets a
base in [0.25, 8] and an exponent in [-3, 3], and any operand of magnitude
over 64 is squashed (tanh, sigmoid, clamp, ...) before it meets another,
so no intermediate leaves the f16 range. Rounding ops and sign see exact
values (inputs times powers of two), comparisons see shallow operands.
Python 3 standard library only.
"""
import argparse
import math
import os
import random
import re
import sys

INPUT_RANGE = (-4.0, 4.0)
BIG = 64.0  # operands above this magnitude are squashed before use

DTYPES = ["f16", "bf16", "f32", "f64"]
INT_DTYPES = ["u8", "i8", "i16", "i32", "i64"]
FP8_DTYPES = ["f8e4m3", "f8e5m2"]
FP8_MAX = {"f8e4m3": 448.0, "f8e5m2": 57344.0}

# builtin -> arity (must match src/ops.def; --ops-def checks it)
BUILTINS = {
    "abs": 1, "neg": 1, "relu": 1, "sigmoid": 1, "tanh": 1, "exp": 1, "exp2": 1, "expm1": 1,
    "log": 1, "log2": 1, "log1p": 1, "sqrt": 1, "rsqrt": 1, "reciprocal": 1, "sin": 1, "cos": 1,
    "erf": 1, "floor": 1, "ceil": 1, "round": 1, "trunc": 1, "sign": 1, "gelu": 1, "gelu_tanh": 1,
    "silu": 1, "softplus": 1, "mish": 1, "leaky_relu": 2, "hardsigmoid": 1, "hardswish": 1, "min": 2,
    "max": 2, "pow": 2, "clamp": 3, "where": 3, "bool": 1, "f16": 1, "bf16": 1, "f32": 1, "f64": 1,
    "u8": 1, "i8": 1, "i16": 1, "i32": 1, "i64": 1, "f8e4m3": 1, "f8e5m2": 1,
}
INFIX = ["+", "-", "*", "/", "neg_infix", "<", "<=", ">", ">=", "==", "!=", "**", "%", "//", "&", "|", "^", "~",
         "<<", ">>"]
SHIFT = ["<<", ">>"]
LOGIC = ["&", "|", "^", "~"]
ALL_OPS = sorted(BUILTINS) + INFIX
CMP = ["<", "<=", ">", ">=", "==", "!="]

# Names a C/CUDA emitter must rename: keywords, its own locals and helpers.
HOSTILE_NAMES = ["n", "i", "e", "E", "I", "vec", "full", "stream", "need", "err", "par", "fused",
                 "main", "int", "float", "double", "half", "auto", "char", "NULL", "size_t",
                 "threadIdx", "blockDim", "warpSize", "t1", "v0", "c2", "a0_v", "r", "x_at",
                 "fx_abs", "FX_THREADS", "ref_exp", "_tmp", "__x", "x_u", "INFINITY", "template",
                 "class", "new", "delete", "this", "bool_", "y_v", "k1"]


def sig(x):
    if x < -700:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def softplus(x):
    return x if x > 20 else math.log1p(math.exp(x))


class E:
    """An expression: its text, kind ('num', 'bool' or 'int'), interval, whether it
    depends on a tensor input, whether it is a literal-only constant, and
    whether its text is atomic (needs no parentheses as an operand)."""

    def __init__(self, text, kind, lo, hi, tensor, const=False, atom=False, depth=0, exact=False):
        self.text, self.kind, self.lo, self.hi = text, kind, float(lo), float(hi)
        self.tensor, self.const, self.atom, self.depth = tensor, const, atom, depth
        self.exact = exact  # a value on the input grid (rounding ops see it exactly)
        self.idt = None  # kind 'int': its dtype (None: a Python int literal)

    @property
    def mag(self):
        return max(abs(self.lo), abs(self.hi))

    def op(self):
        """The text as an operand of an infix operator."""
        return self.text if self.atom else "(" + self.text + ")"


def fmt_num(rng, v):
    """A literal for v (a short decimal), in one of the accepted spellings."""
    s = repr(float(v))
    if s.endswith(".0") and rng.random() < 0.5:
        s = s[:-1]  # "2.": still a float ("2" is an integer, as in Python)
    if rng.random() < 0.1 and "e" not in s and "." in s and s.startswith("0.") and len(s) > 2:
        s = s[1:]  # .5
    if rng.random() < 0.08 and "e" not in s and v != 0:
        m, ex = ("%.6e" % v).split("e")
        m = m.rstrip("0").rstrip(".")
        s = "%s%s%d" % (m, rng.choice(["e", "E"]), int(ex))
        if float(s) != v:
            s = repr(float(v))
    return s


# Shaped programs: the chain's dims, outermost first, and the shapes an input
# may have (each broadcasts into the chain's; the first is the full shape).
SHAPE_TEMPLATES = [
    (("R", "C"), [("R", "C"), ("C",), ("R", "1"), ("1", "C")]),
    (("B", "R", "C"), [("B", "R", "C"), ("C",), ("R", "C"), ("R", "1"), ("B", "1", "C"), ("B", "1", "1")]),
]


def covers(full, shapes):
    """Whether shapes broadcast to full: every named dim of full is in one of them at its place."""
    got = set()
    for sh in shapes:
        for k, d in enumerate(reversed(sh)):
            if d != "1":
                got.add((k, d))
    return all((k, d) in got for k, d in enumerate(reversed(full)))


class Program:
    def __init__(self, rng, must_use):
        self.rng = rng
        self.full = None    # a shaped program: the chain's dims
        self.shape_of = {}  # input or mask name -> its shape (a tuple of dims)
        self.must = list(must_use)  # operations this program has to use
        self.used_ops = set()
        self.lines = []     # statements (without declarations placed later)
        self.late = []      # declarations placed at the end of the file
        self.names = set()
        self.inputs = []    # (name, dtype or None for the default, E)
        self.masks = []     # bool inputs
        self.ints = []      # integer inputs: (name, dtype, E)
        self.params = []    # (name, E)
        self.temps = []     # tensor statement values usable later: E with atom text
        self.scalars = []   # param-only statements
        self.used_names = set()
        self.pool = []      # subexpressions to repeat
        self.outputs = []
        self.scalar_rhs = []  # texts of the param-only statements

    # ---- names ----
    def fresh(self, prefix):
        r = self.rng
        if r.random() < 0.06:
            cand = [h for h in HOSTILE_NAMES if h not in self.names]
            if cand:
                nm = r.choice(cand)
                self.names.add(nm)
                return nm
        k = 0
        while "%s%d" % (prefix, k) in self.names:
            k += 1
        nm = "%s%d" % (prefix, k)
        self.names.add(nm)
        return nm

    # ---- leaves ----
    def literal(self, lo=-3.0, hi=3.0):
        r = self.rng
        v = r.choice([0.5, 2.0, 1.0, 0.25, 1.5, 3.0, 0.1, 0.75, 0.125, 1.25, 2.5])
        if r.random() < 0.3:
            v = round(r.uniform(lo, hi), r.choice([1, 2, 3]))
        v = min(max(v, lo), hi)
        if r.random() < 0.3 and lo < 0:
            v = -abs(v)
        return E(fmt_num(r, v), "num", v, v, False, const=True, atom=v >= 0, exact=True)

    def tensor_leaf(self, prefer_unused=True):
        r = self.rng
        unused = [x for x in self.inputs if x[0] not in self.used_names]
        if prefer_unused and unused and r.random() < 0.7:
            nm, dt, e = r.choice(unused)
        elif self.temps and r.random() < 0.45:
            e = r.choice(self.temps)
            self.used_names.add(e.text)
            if e.kind == "fp8":
                return self.fp8_to_num(e)
            return self.int_to_num(e) if e.kind == "int" else e
        else:
            nm, dt, e = r.choice(self.inputs)
        self.used_names.add(nm)
        return e

    def scalar_leaf(self, lo=-3.0, hi=3.0):
        r = self.rng
        opts = [p for p in self.params if lo <= p[1].lo and p[1].hi <= hi]
        sc = [s for s in self.scalars if lo <= s.lo and s.hi <= hi]
        x = r.random()
        if opts and x < 0.35:
            nm, e = r.choice(opts)
            self.used_names.add(nm)
            return e
        if sc and x < 0.55:
            e = r.choice(sc)
            self.used_names.add(e.text)
            return e
        if x < 0.7:
            return self.const_expr(lo, hi)
        return self.literal(lo, hi)

    def const_expr(self, lo=-3.0, hi=3.0):
        """A literal-only subexpression that fusec folds."""
        r = self.rng
        choices = [
            ("(2 * 3 + 1) / 7", 1.0), ("exp(0.5)", math.exp(0.5)), ("sqrt(2)", math.sqrt(2)),
            ("-(1.5)", -1.5), ("f16(0.1)", 0.0999755859375), ("log(2)", math.log(2)),
            ("tanh(1) * 2", math.tanh(1) * 2), ("max(0.5, 0.25)", 0.5), ("clamp(5, 0, 1.0)", 1.0),
            ("pow(2, -1)", 0.5), ("1 / 3", 1 / 3), ("sigmoid(0)", 0.5), ("abs(-0.75)", 0.75),
            ("where(1 < 2, 0.5, 2)", 0.5), ("round(2.5)", 2.0), ("bf16(1.7)", 1.703125),
            ("2 - 3 * 0.5", 0.5), ("- -1.0", 1.0), ("erf(0.5)", math.erf(0.5)), ("cos(0)", 1.0),
        ]
        ok = [c for c in choices if lo <= c[1] <= hi]
        if not ok:
            return self.literal(lo, hi)
        t, v = r.choice(ok)  # (its ops are folded: they do not count as used)
        return E(t, "num", v, v, False, const=True, atom=False)

    # ---- squashing and domain guards ----
    def squash(self, e, limit=BIG):
        """e, or e wrapped so that its magnitude is at most limit."""
        if e.kind == "int":
            e = self.int_to_num(e)
        if e.kind == "num" and e.mag <= limit:
            return e
        r = self.rng
        k = r.randrange(6)
        if e.kind == "bool":
            return self.arith_of_bool(e)
        if k == 0:
            return self.call("tanh", [e], -1, 1)
        if k == 1:
            return self.call("sigmoid", [e], 0, 1)
        if k == 2:
            return self.call("erf", [e], -1, 1)
        if k == 3:
            return self.call("hardsigmoid", [e], 0, 1)
        if k == 4:
            c = min(limit, 8.0)
            lo_e, hi_e = self.literal(-c, -c), self.literal(c, c)
            return self.call("clamp", [e, lo_e, hi_e], max(e.lo, -c) if e.lo < c else -c,
                             min(e.hi, c) if e.hi > -c else c)
        s = 1.0 / 1024.0
        lit = E(fmt_num(r, s), "num", s, s, False, const=True, atom=True)
        return self.binop("*", e, lit, force=True) if e.mag * s <= limit else self.call("tanh", [e], -1, 1)

    def positive(self, e, floor=0.25):
        """An operand >= floor (> 0)."""
        e = self.squash(e)
        if e.kind == "num" and e.lo >= floor:
            return e
        r = self.rng
        c = max(floor, r.choice([0.5, 1.0, 0.25, 2.0]))
        if r.random() < 0.5:
            a = self.call("abs", [e], 0, e.mag)
        else:
            a = self.call("sigmoid", [e], 0, 1)
        lit = E(fmt_num(r, c), "num", c, c, False, const=True, atom=True)
        return self.binop("+", a, lit, force=True)

    def bounded(self, e, m):
        """An operand of magnitude <= m."""
        e = self.squash(e)
        if e.kind == "num" and e.mag <= m:
            return e
        r = self.rng
        if r.random() < 0.5:
            t = self.call("tanh", [e], -1, 1)
            lit = E(fmt_num(r, m), "num", m, m, False, const=True, atom=True)
            return self.binop("*", t, lit, force=True)
        return self.call("clamp", [e, self.literal(-m, -m), self.literal(m, m)], -m, m)

    def arith_of_bool(self, b):
        """A number made from a bool: where, a cast or arithmetic."""
        r = self.rng
        k = r.randrange(3)
        if k == 0:
            a, c = self.literal(-2, 2), self.literal(-2, 2)
            return self.call("where", [b, a, c], min(a.lo, c.lo), max(a.hi, c.hi), force_tensor=b.tensor)
        if k == 1:
            dt = r.choice(DTYPES)
            return self.call(dt, [b], 0, 1)
        lit = self.literal(0.5, 2)
        return E("%s * %s" % (b.op(), lit.op()), "num", 0, lit.hi, b.tensor or lit.tensor,
                 const=b.const and lit.const)

    # ---- integers: exact everywhere (wrapping, // and % by zero, shifts by
    # any count are all defined), so no interval is kept; they meet the
    # float world through bounded conversions ----
    def int_literal(self):
        r = self.rng
        v = r.choice([0, 1, 2, 3, 5, 7, -1, -3, 15, 100, 255, -128, 31, 64, 2147483647, -2147483648,
                      1099511627776, 9223372036854775807])
        if r.random() < 0.6:
            v = r.randint(-9, 9)
        e = E(str(v), "int", v, v, False, const=True, atom=v >= 0)
        return e

    def fitting(self, e):
        """e, or for a constant a number of every integer dtype's range: where,
        min, max and clamp convert a number to the integer tensor's dtype, and
        PyTorch (and fusec) refuse one that does not fit."""
        if not e.const:
            return e
        v = self.rng.randint(0, 127)
        return E(str(v), "int", v, v, False, const=True, atom=True)

    def int_leaf(self, need_tensor):
        r = self.rng
        temps = [t for t in self.temps if t.kind == "int"]
        x = r.random()
        if self.ints and (x < 0.6 or not temps) and (need_tensor or x < 0.45):
            nm, dt, e = r.choice(self.ints)
            self.used_names.add(nm)
            return e
        if temps and (need_tensor or x < 0.7):
            e = r.choice(temps)
            self.used_names.add(e.text)
            return e
        if need_tensor:
            return self.num_to_int(self.num(1, True))
        return self.int_literal()

    def num_to_int(self, e, dt=None):
        """A float (or bool) made an integer by a cast: toward zero, as eager."""
        r = self.rng
        dt = dt or r.choice(INT_DTYPES)
        self.used_ops.add(dt)
        if e.kind == "bool":
            return self.int_call(dt, [e])
        e = self.squash(e)
        if r.random() < 0.5:
            s = r.choice([4.0, 16.0, 100.0])
            e = self.call("round", [self.binop("*", e, E(fmt_num(r, s), "num", s, s, False, const=True, atom=True),
                                               force=True)], e.lo * s, e.hi * s)
        return self.int_call(dt, [e])

    def int_to_num(self, ie):
        """An integer made a bounded float: by a cast of a clamped value, a
        mask of its low bits, or a remainder times a float."""
        r = self.rng
        k = r.randrange(3)
        if k == 0:
            dt = r.choice(DTYPES)
            self.used_ops.add(dt)
            # through i32, whose range holds -20 and 20 (a u8 tensor's does not)
            self.used_ops.add("i32")
            wide = E("i32(%s)" % ie.text, "int", 0, 0, ie.tensor, const=ie.const, atom=True, depth=ie.depth + 1)
            c = self.int_call("clamp", [wide, E("-20", "int", -20, -20, False, const=True),
                                        E("20", "int", 20, 20, False, const=True)])
            return E("%s(%s)" % (dt, c.text), "num", -20, 20, ie.tensor, atom=True, depth=ie.depth + 2)
        if k == 1:
            dt = r.choice(DTYPES)
            self.used_ops.add(dt)
            self.used_ops.add("&")
            return E("%s(%s & 15)" % (dt, ie.op()), "num", 0, 15, ie.tensor, atom=True, depth=ie.depth + 2)
        self.used_ops.add("%")
        return E("(%s %% 7) * 0.5" % ie.op(), "num", 0, 3, ie.tensor, depth=ie.depth + 2)

    # ---- fp8: casts only (no arithmetic on fp8, as in PyTorch) ----
    def fp8_to_num(self, e):
        """An fp8 value (an input or a statement) cast to a float dtype: exact."""
        dt = self.rng.choice(DTYPES)
        self.used_ops.add(dt)
        return E("%s(%s)" % (dt, e.text), "num", e.lo, e.hi, e.tensor, atom=True, depth=e.depth + 1, exact=e.exact)

    def to_fp8(self, f, a):
        """An fp8 cast of float subexpression a (squashed: far from fp8's
        overflow), of kind fp8; its interval allows fp8's rounding (an eighth,
        and a flush to 0 below e4m3's normals)."""
        self.used_ops.add(f)
        widen = lambda v: min(v * 0.875, v * 1.125, 0.0 if abs(v) < 0.02 else v * 0.875)  # noqa: E731
        lo, hi = widen(a.lo), -widen(-a.hi)
        return E("%s(%s)" % (f, a.text), "fp8", lo, hi, a.tensor, const=a.const, atom=True, depth=a.depth + 1,
                 exact=a.exact)

    def int_call(self, f, args):
        self.used_ops.add(f)
        e = E("%s(%s)" % (f, ", ".join(a.text for a in args)), "int", 0, 0, any(a.tensor for a in args),
              const=all(a.const for a in args), atom=True, depth=1 + max(a.depth for a in args))
        return e

    def int_expr(self, depth, need_tensor, top=None):
        """An integer expression; top: the operation at its root."""
        r = self.rng
        if depth <= 0 and top is None:
            return self.int_leaf(need_tensor)
        op = top or r.choice(["+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>", "~", "neg_infix", "abs", "neg",
                              "sign", "relu", "min", "max", "clamp", "where", "cast", "from_float", "from_bool"])
        sub = lambda nt: self.int_expr(depth - 1, nt)
        if op in ("+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>"):
            a, b = sub(need_tensor), sub(False)
            if r.random() < 0.3 and op not in SHIFT:
                a, b = b, a
            if a.const and b.const and op not in ("&", "|", "^"):
                # literals fold as Python's ints, where a negative shift, an
                # overflow of 64 bits or a zero divisor is an error
                op = r.choice(["&", "|", "^"])
            self.used_ops.add(op)
            e = E("%s %s %s" % (a.op(), op, b.op()), "int", 0, 0, a.tensor or b.tensor, const=a.const and b.const,
                  depth=1 + max(a.depth, b.depth))
        elif op in ("~", "neg_infix"):
            a = sub(need_tensor)
            if a.const:
                op = "~"  # -(-2^63) would overflow
            self.used_ops.add(op)
            e = E(("~" if op == "~" else "-") + a.op(), "int", 0, 0, a.tensor, const=a.const, depth=a.depth + 1)
        elif op in ("abs", "neg", "sign", "relu"):
            a = sub(need_tensor)
            e = self.int_call(op if not a.const or op in ("sign", "relu") else "relu", [a])
        elif op in ("min", "max"):
            e = self.int_call(op, [self.fitting(sub(need_tensor)), self.fitting(sub(False))])
        elif op == "clamp":
            lo = r.randint(0, 50)
            e = self.int_call(op, [sub(need_tensor), E(str(lo), "int", lo, lo, False, const=True),
                                   E(str(lo + r.randint(0, 77)), "int", 0, 0, False, const=True)])
        elif op == "where":
            c = self.boolean(depth - 1, need_tensor=False)
            e = self.int_call(op, [c, self.fitting(sub(need_tensor)), self.fitting(sub(False))])
            e.tensor = e.tensor or c.tensor
        elif op == "cast":
            e = self.int_call(r.choice(INT_DTYPES), [sub(need_tensor)])
        elif op == "from_bool":
            e = self.num_to_int(self.boolean(depth - 1))
        else:
            e = self.num_to_int(self.num(min(depth - 1, 1), need_tensor))
        if need_tensor and not e.tensor:
            a = self.int_leaf(True)
            self.used_ops.add("+")
            e = E("%s + %s" % (e.op(), a.op()), "int", 0, 0, True, depth=1 + max(e.depth, a.depth))
        return e

    # ---- builders ----
    def call(self, f, args, lo, hi, force_tensor=None):
        self.used_ops.add(f)
        tensor = any(a.tensor for a in args) if force_tensor is None else force_tensor
        tensor = tensor or any(a.tensor for a in args)
        text = "%s(%s)" % (f, ", ".join(a.text for a in args))
        if self.rng.random() < 0.04 and len(args) > 1:
            text = "%s(\n      %s)" % (f, ",\n      ".join(a.text for a in args))  # newlines inside ()
        kind = "num"
        return E(text, kind, lo, hi, tensor, const=all(a.const for a in args), atom=True,
                 depth=1 + max(a.depth for a in args))

    def binop(self, o, a, b, force=False):
        if not force:
            a, b = self.squash(a), self.squash(b)
        self.used_ops.add(o)
        if o == "+":
            lo, hi = a.lo + b.lo, a.hi + b.hi
        elif o == "-":
            lo, hi = a.lo - b.hi, a.hi - b.lo
        elif o == "*":
            ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
            lo, hi = min(ps), max(ps)
        elif o == "/":
            assert b.lo > 0 or b.hi < 0
            ps = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi]
            lo, hi = min(ps), max(ps)
        else:
            raise ValueError(o)
        return E("%s %s %s" % (a.op(), o, b.op()), "num", lo, hi, a.tensor or b.tensor,
                 const=a.const and b.const, depth=1 + max(a.depth, b.depth))

    def compare(self, depth, o=None):
        r = self.rng
        o = o or r.choice(CMP)
        self.used_ops.add(o)
        a = self.tensor_leaf() if r.random() < 0.7 else self.num(min(depth, 1), True)
        if r.random() < 0.6:
            b = self.literal(-3, 3)
        elif r.random() < 0.5:
            b = self.tensor_leaf(False)
        else:
            b = self.scalar_leaf(-3, 3)
        a, b = self.squash(a), self.squash(b)
        if r.random() < 0.5:
            a, b = b, a
        return E("%s %s %s" % (a.op(), o, b.op()), "bool", 0, 1, a.tensor or b.tensor,
                 const=a.const and b.const)

    def boolean(self, depth, need_tensor=True):
        r = self.rng
        if self.masks and r.random() < 0.4:
            nm, e = r.choice(self.masks)
            self.used_names.add(nm)
            return e
        if not need_tensor and r.random() < 0.3:
            if self.params and r.random() < 0.5:
                nm, p = r.choice(self.params)
                self.used_names.add(nm)
                o = r.choice(CMP)
                self.used_ops.add(o)
                return E("%s %s 0" % (p.op(), o), "bool", 0, 1, False)
            return E("(1 < 2)", "bool", 0, 1, False, const=True, atom=True)
        return self.compare(depth)

    def logic(self, depth, o):
        """Bools combined by & | ^ (logical), or negated by ~."""
        self.used_ops.add(o)
        a = self.boolean(depth)
        if o == "~":
            return E("~" + a.op(), "bool", 0, 1, a.tensor, const=a.const)
        b = self.boolean(depth, need_tensor=False)
        if self.rng.random() < 0.5:
            a, b = b, a
        return E("%s %s %s" % (a.op(), o, b.op()), "bool", 0, 1, a.tensor or b.tensor, const=a.const and b.const)

    def exact_operand(self):
        """An input on the harness's grid, maybe times a power of two: exact
        in every dtype, so floor, round, sign, ... never sit on an edge
        that the two versions compute differently."""
        r = self.rng
        e = self.tensor_leaf()
        if not e.exact:
            nm, dt, e = r.choice(self.inputs)
            self.used_names.add(nm)
        if r.random() < 0.5:
            s = r.choice([2.0, 4.0, 0.5, 0.25])
            lit = E(fmt_num(r, s), "num", s, s, False, const=True, atom=True)
            e = self.binop("*", e, lit, force=True)
            e.exact = True
        return e

    def apply(self, f, depth, need_tensor):
        """A call of builtin f with operands made safe for it."""
        r = self.rng
        sub = lambda: self.num(depth - 1, need_tensor)
        if f in ("abs",):
            a = sub()
            return self.call(f, [a], 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi)), a.mag)
        if f == "neg":
            a = self.squash(sub())
            return self.call(f, [a], -a.hi, -a.lo)
        if f == "relu":
            a = self.squash(sub())
            return self.call(f, [a], max(a.lo, 0), max(a.hi, 0))
        if f == "sigmoid":
            a = sub()
            return self.call(f, [a], sig(a.lo), sig(a.hi))
        if f in ("tanh", "erf"):
            a = sub()
            return self.call(f, [a], math.tanh(a.lo) if f == "tanh" else math.erf(a.lo),
                             math.tanh(a.hi) if f == "tanh" else math.erf(a.hi))
        if f in ("exp", "exp2", "expm1"):
            a = self.bounded(sub(), 4.0)
            g = {"exp": math.exp, "exp2": lambda x: 2.0 ** x, "expm1": math.expm1}[f]
            return self.call(f, [a], g(a.lo), g(a.hi))
        if f in ("log", "log2"):
            a = self.positive(sub())
            g = math.log if f == "log" else math.log2
            return self.call(f, [a], g(a.lo), g(a.hi))
        if f == "log1p":
            a = self.positive(sub(), 0.0) if r.random() < 0.5 else self.positive(sub())
            return self.call(f, [a], math.log1p(a.lo), math.log1p(a.hi))
        if f == "sqrt":
            a = self.positive(sub())
            return self.call(f, [a], math.sqrt(a.lo), math.sqrt(a.hi))
        if f == "rsqrt":
            a = self.positive(sub())
            return self.call(f, [a], 1 / math.sqrt(a.hi), 1 / math.sqrt(a.lo))
        if f == "reciprocal":
            a = self.positive(sub())
            if r.random() < 0.3:
                a = E("-" + a.op(), "num", -a.hi, -a.lo, a.tensor, const=a.const, depth=a.depth)
                self.used_ops.add("neg_infix")
                return self.call(f, [a], 1 / a.lo, 1 / a.hi)
            return self.call(f, [a], 1 / a.hi, 1 / a.lo)
        if f in ("sin", "cos"):
            a = self.bounded(sub(), 8.0)
            return self.call(f, [a], -1, 1)
        if f in ("floor", "ceil", "round", "trunc"):
            a = self.exact_operand()
            return self.call(f, [a], math.floor(a.lo), math.ceil(a.hi))
        if f == "sign":
            a = self.exact_operand()
            return self.call(f, [a], -1, 1)
        if f in ("gelu", "gelu_tanh"):
            a = self.squash(sub())
            return self.call(f, [a], -0.2, max(a.hi, 0))
        if f == "silu":
            a = self.squash(sub())
            return self.call(f, [a], -0.3, max(a.hi, 0))
        if f == "mish":  # its minimum is -0.309 (at x = -1.19); below x for x > 0
            a = self.squash(sub())
            return self.call(f, [a], -0.31, max(a.hi, 0))
        if f == "softplus":
            a = self.squash(sub())
            return self.call(f, [a], softplus(a.lo), softplus(a.hi))
        if f == "hardsigmoid":
            return self.call(f, [sub()], 0, 1)
        if f == "hardswish":
            a = self.squash(sub())
            return self.call(f, [a], -0.4, max(a.hi, 0))
        if f == "leaky_relu":
            a = self.squash(sub())
            s = self.scalar_leaf(0.0, 1.0)
            if s.lo < 0 or s.hi > 1:
                s = self.literal(0.01, 0.3)
            ps = [a.lo, a.hi, a.lo * s.lo, a.lo * s.hi]
            return self.call(f, [a, s], min(ps), max(a.hi, 0))
        if f in ("min", "max"):
            a, b = self.squash(sub()), self.squash(self.num(depth - 1, False))
            if r.random() < 0.5:
                a, b = b, a
            g = min if f == "min" else max
            return self.call(f, [a, b], g(a.lo, b.lo), g(a.hi, b.hi))
        if f == "pow":
            base = self.positive(sub())
            if base.hi > 8:
                base = self.positive(self.call("tanh", [base], -1, 1))
            if r.random() < 0.6:
                ex = self.literal(-3, 3) if r.random() < 0.5 else E(r.choice(["2", "3", "0.5", "-1"]), "num", 0, 0,
                                                                   False, const=True, atom=True)
                ex.lo = ex.hi = float(ex.text)
            else:
                ex = self.bounded(self.num(depth - 1, False), 3.0)
            ps = [base.lo ** ex.lo, base.lo ** ex.hi, base.hi ** ex.lo, base.hi ** ex.hi]
            return self.call(f, [base, ex], min(ps), max(ps))
        if f == "clamp":
            a = self.squash(sub())
            lo_v = round(r.uniform(-3, 0), 2)
            hi_v = round(r.uniform(0, 3), 2)
            lo_e = self.literal(lo_v, lo_v) if r.random() < 0.7 else self.scalar_leaf(-3, 0)
            hi_e = self.literal(hi_v, hi_v) if r.random() < 0.7 else self.scalar_leaf(0, 3)
            if r.random() < 0.15:  # a tensor bound
                hi_e = self.call("sigmoid", [self.tensor_leaf()], 0, 1)
                hi_e = self.binop("+", hi_e, self.literal(1, 1), force=True)
            return self.call(f, [a, lo_e, hi_e], min(lo_e.lo, hi_e.lo), max(hi_e.hi, lo_e.hi))
        if f == "where":
            c = self.boolean(depth - 1, need_tensor=False)
            a = self.squash(sub())
            b = self.squash(self.num(depth - 1, False))
            if r.random() < 0.5:
                a, b = b, a
            return self.call(f, [c, a, b], min(a.lo, b.lo), max(a.hi, b.hi))
        if f == "bool":  # x != 0: on exact values, never a rounding away from 0
            b = self.call(f, [self.exact_operand()], 0, 1)
            b.kind = "bool"
            return self.arith_of_bool(b)
        if f in INT_DTYPES:
            if r.random() < 0.5:
                return self.int_to_num(self.num_to_int(sub(), f))
            return self.int_to_num(self.int_call(f, [self.int_expr(depth - 1, need_tensor)]))
        if f in FP8_DTYPES:  # a float through fp8 and back
            return self.fp8_to_num(self.to_fp8(f, self.squash(sub())))
        if f in DTYPES:
            a = self.squash(sub())
            if r.random() < 0.3:
                a = self.boolean(depth - 1)
                return self.call(f, [a], 0, 1)
            return self.call(f, [a], a.lo, a.hi)
        raise ValueError(f)

    def num(self, depth, need_tensor):
        """A number expression; with need_tensor, it depends on a tensor input."""
        r = self.rng
        if depth <= 0 or r.random() < 0.15:
            if need_tensor or r.random() < 0.6:
                e = self.tensor_leaf()
                if e.kind == "bool":
                    return self.arith_of_bool(e)
                if e.kind == "int":
                    return self.int_to_num(e)
                return e
            return self.scalar_leaf()
        if self.pool and r.random() < 0.08:
            e = r.choice(self.pool)
            if e.tensor or not need_tensor:
                return e
        if self.must and r.random() < 0.5:
            op = self.must.pop()
        else:
            op = r.choice(ALL_OPS + ["+", "-", "*", "+", "*"] * 3)
        if op in CMP:
            e = self.arith_of_bool(self.compare(depth - 1, op))
        elif op in ("+", "-", "*"):
            a = self.num(depth - 1, need_tensor)
            b = self.num(depth - 1, False)
            if r.random() < 0.5:
                a, b = b, a
            e = self.binop(op, a, b)
        elif op == "/":
            a = self.num(depth - 1, need_tensor)
            b = self.positive(self.num(depth - 1, False))
            e = self.binop("/", a, b)
        elif op in ("%", "//"):
            a = self.squash(self.num(depth - 1, need_tensor))
            b = self.positive(self.num(depth - 1, False))
            self.used_ops.add(op)
            if op == "%":  # the divisor's sign: [0, b)
                lo, hi = 0.0, b.hi
            else:
                lo, hi = math.floor(min(a.lo / b.lo, a.lo / b.hi)), math.floor(max(a.hi / b.lo, a.hi / b.hi))
            e = E("%s %s %s" % (a.op(), op, b.op()), "num", lo, hi, a.tensor or b.tensor,
                  const=a.const and b.const, depth=1 + max(a.depth, b.depth))
        elif op == "**":  # pow's operands: a base in [0.25, 8], an exponent in [-3, 3]
            base = self.positive(self.num(depth - 1, need_tensor))
            if base.hi > 8:
                base = self.positive(self.call("tanh", [base], -1, 1))
            ex = self.literal(-3, 3) if r.random() < 0.6 else self.bounded(self.num(depth - 1, False), 3.0)
            self.used_ops.add(op)
            ps = [base.lo ** ex.lo, base.lo ** ex.hi, base.hi ** ex.lo, base.hi ** ex.hi]
            e = E("%s ** %s" % (base.op(), ex.op()), "num", min(ps), max(ps), base.tensor or ex.tensor,
                  const=base.const and ex.const, depth=1 + max(base.depth, ex.depth))
        elif op in SHIFT or (op in LOGIC and r.random() < 0.3):
            e = self.int_to_num(self.int_expr(depth - 1, need_tensor, op))
        elif op in LOGIC:
            e = self.arith_of_bool(self.logic(depth - 1, op))
        elif op == "neg_infix":
            a = self.squash(self.num(depth - 1, need_tensor))
            self.used_ops.add(op)
            e = E("-" + a.op(), "num", -a.hi, -a.lo, a.tensor, const=a.const, depth=a.depth + 1)
        else:
            e = self.apply(op, depth, need_tensor)
        if need_tensor and not e.tensor:
            e = self.binop(r.choice(["+", "*"]), e, self.tensor_leaf())
        if e.tensor and not e.atom and r.random() < 0.3:
            self.pool.append(e)
        return e

    # ---- the program ----
    def build(self):
        r = self.rng
        out = []
        # inputs: float inputs of every dtype (some undeclared: the default f32)
        for _ in range(r.randint(1, 4)):
            dt = r.choice(DTYPES + [None])
            nm = self.fresh("a")
            e = E(nm, "num", INPUT_RANGE[0], INPUT_RANGE[1], True, atom=True, exact=True)
            self.inputs.append((nm, dt, e))
        for _ in range(r.choice([0, 0, 1, 1, 2])):
            nm = self.fresh("q")
            dt = r.choice(INT_DTYPES)
            e = E(nm, "int", 0, 0, True, atom=True)
            e.idt = dt
            self.ints.append((nm, dt, e))
        for _ in range(r.choice([0, 0, 0, 1])):  # fp8 inputs: every code, NaN and the largest included
            nm = self.fresh("p")
            dt = r.choice(FP8_DTYPES)
            e = E(nm, "fp8", -FP8_MAX[dt], FP8_MAX[dt], True, atom=True, exact=True)
            self.inputs.append((nm, dt, self.fp8_to_num(e)))
        for _ in range(r.choice([0, 0, 1, 2])):
            nm = self.fresh("m")
            e = E(nm, "bool", 0, 1, True, atom=True)
            self.masks.append((nm, e))
        if r.random() < 0.35:
            self.full, choices = r.choice(SHAPE_TEMPLATES)
            # the first input is declared with the full shape: the chain's shape is
            # the broadcast of the declared ones, so it is the template's
            nm, dt, e = self.inputs[0]
            self.inputs[0] = (nm, dt or "f32", e)
            for k, (nm, dt, _) in enumerate(self.inputs):
                # the first input, and every undeclared one, has the chain's shape
                full = k == 0 or dt is None or r.random() < 0.4
                self.shape_of[nm] = choices[0] if full else r.choice(choices[1:])
            for nm, _ in self.masks:
                self.shape_of[nm] = r.choice(choices)
            for nm, _, _ in self.ints:
                self.shape_of[nm] = r.choice(choices)
        for _ in range(r.choice([0, 1, 1, 2])):
            nm = self.fresh("s")
            dt = r.choice(DTYPES)
            v = r.choice([0.3, 0.5, -1.25, 2.0, 0.125, 1.0, -0.5, 0.75])
            e = E(nm, "num", v, v, False, atom=True)
            self.params.append((nm, e))
            sign = "-" if v < 0 else ""
            text = "param %s: %s = %s%s" % (nm, dt, sign, fmt_num(r, abs(v))) if r.random() < 0.9 else \
                   "param %s = %s%s" % (nm, sign, fmt_num(r, abs(v)))
            (self.late if r.random() < 0.2 else out).append(text)
        decls = []
        by_dt = {}
        for nm, dt, _ in self.inputs + self.ints:
            if dt is not None:
                by_dt.setdefault(dt, []).append(nm)
        for dt, names in sorted(by_dt.items()):
            if self.full:  # one declaration each: each has its own shape
                decls.extend("in %s: %s%s" % (nm, dt, self.shape_text(nm)) for nm in names)
            elif len(names) > 1 and r.random() < 0.5:
                decls.append("in %s: %s" % (", ".join(names), dt))
            else:
                decls.extend("in %s: %s" % (nm, dt) for nm in names)
        if self.masks and self.full:
            decls.extend("in %s: bool%s" % (nm, self.shape_text(nm)) for nm, _ in self.masks)
        elif self.masks:
            decls.append("in %s: bool" % ", ".join(nm for nm, _ in self.masks))
        for d in decls:
            (self.late if r.random() < 0.2 else out).append(d)

        # a param-only statement, used later
        if self.params and r.random() < 0.4:
            nm = self.fresh("k")
            pn, p = r.choice(self.params)
            self.used_names.add(pn)
            lit = self.literal(0.5, 2)
            e = self.binop(r.choice(["*", "+"]), p, lit, force=True)
            out.append("%s = %s" % (nm, e.text))
            self.scalar_rhs.append(e.text)
            self.scalars.append(E(nm, "num", e.lo, e.hi, False, atom=True))

        nstmt = r.randint(1, 6)
        stmts = []
        for k in range(nstmt):
            nm = self.fresh("t" if k < nstmt - 1 else "y")
            x = r.random()
            if x < 0.06 and k > 0:
                src = self.tensor_leaf(False)  # an alias: the output is a copy
                e = E(src.text, src.kind, src.lo, src.hi, True, atom=True)
            elif x < 0.14:
                e = self.compare(2)  # a bool value
            elif x < 0.3:
                e = self.int_expr(r.randint(1, 2), True)  # an integer value
            elif x < 0.36:  # an fp8 value
                e = self.to_fp8(r.choice(FP8_DTYPES), self.squash(self.full_shaped(self.num(r.randint(1, 3), True))))
            else:
                e = self.num(r.randint(2, 4), True)
            e = self.full_shaped(e)
            stmts.append((nm, e))
            out.append("%s = %s" % (nm, e.text))
            self.shape_of[nm] = self.full
            self.temps.append(E(nm, e.kind, e.lo, e.hi, True, atom=True, exact=e.exact))

        # whatever the program has to use and has not: one more output
        left = [o for o in self.must if o not in self.used_ops]
        self.must = left
        extra = []
        while self.must:
            extra.append(self.num(2, True))
        # every input, mask, param and param-only statement is used (what
        # the texts mention, not what the generator meant to use)
        said = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join([e.text for _, e in stmts] +
                                                                   [e.text for e in extra])))
        for nm, dt, e in self.inputs:
            if nm not in said:
                extra.append(self.call("tanh", [e], -1, 1))
        for nm, e in self.masks:
            if nm not in said:
                extra.append(self.arith_of_bool(e))
        for nm, dt, e in self.ints:
            if nm not in said:
                extra.append(self.int_to_num(e))
        for s in self.scalars:
            if s.text not in said:
                extra.append(self.binop("*", s, self.tensor_leaf(), force=True))
        said |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(self.scalar_rhs)))
        for nm, p in self.params:
            if nm not in said:
                extra.append(self.binop("*", p, self.tensor_leaf(), force=True))
        if extra:
            acc = self.squash(extra[0])
            for e in extra[1:]:
                acc = self.binop("+", acc, self.squash(e))
            acc = self.full_shaped(acc)
            nm = self.fresh("z")
            stmts.append((nm, acc))
            out.append("%s = %s" % (nm, acc.text))

        # outputs: implicit (every unused statement), or an out declaration
        if r.random() < 0.45:
            names = [nm for nm, e in stmts if e.tensor]
            last = names[-1]
            chosen = [nm for nm in names[:-1] if r.random() < 0.4] + [last]
            if len(chosen) > 1 and r.random() < 0.5:
                r.shuffle(chosen)
            decl = "out %s" % ", ".join(chosen)
            pos = r.randrange(len(out) + 1)
            out.insert(pos, decl)
        out.extend(self.late)
        return out

    # ---- shapes ----
    def shape_text(self, nm):
        return "[%s]" % ", ".join(self.shape_of[nm])

    def full_shaped(self, e):
        """e, made to have the chain's shape when the inputs it names do not
        cover it: + 0 * an input of the full shape (a bool: & with a full mask
        is not always at hand, so a comparison of that sum)."""
        if not self.full or not e.tensor:
            return e
        names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", e.text))
        shapes = [self.shape_of[nm] for nm in names if nm in self.shape_of]
        if covers(self.full, shapes):
            return e
        x = self.inputs[0][2]  # the first input has the full shape
        self.used_names.add(x.text)
        if e.kind == "bool":
            return E("(%s) | (0 * %s > 1)" % (e.text, x.text), "bool", 0, 1, True)
        return E("%s + 0 * %s" % (e.op(), x.text), "num", e.lo, e.hi, True, exact=e.exact)

    def args_line(self):
        """A shaped program's first line: every dim's size."""
        sizes = {"R": self.rng.choice([37, 61, 130]), "C": self.rng.choice([33, 64, 257]), "B": 3}
        return "# fusec-args: --dims=%s" % ",".join("%s=%d" % (d, sizes[d]) for d in self.full)

    def text(self, lines, header):
        r = self.rng
        s = [self.args_line(), header] if self.full else [header]
        for ln in lines:
            if r.random() < 0.05:
                s.append("# " + r.choice(["a comment", "naïve comment ✓", "the next line", ""]))
            if r.random() < 0.05:
                s.append("")
            if r.random() < 0.1 and s[-1] and not s[-1].startswith("#"):
                s[-1] += "; " + ln  # two statements on one line
            else:
                s.append(ln)
        return "\n".join(s) + "\n"


def check_ops_def(path):
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'OP\(\w+, "(\w*)", (\d+),', line)
            if m and m.group(1):
                names[m.group(1)] = int(m.group(2))
    # the casts: one per row of the dtype table (ops.def generates them)
    table = os.path.join(os.path.dirname(path), "..", "runtime", "fusec_dtype.h")
    with open(table, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\s*X\(\w+,\s*(\w+),', line)
            if m:
                names[m.group(1)] = 1
    if names != BUILTINS:
        missing = sorted(set(names) - set(BUILTINS))
        extra = sorted(set(BUILTINS) - set(names))
        arity = sorted(n for n in names if n in BUILTINS and names[n] != BUILTINS[n])
        sys.exit("randgen.py: BUILTINS does not match %s: new %s, gone %s, arity %s"
                 % (path, missing, extra, arity))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ops-def", help="check the builtin table against src/ops.def")
    a = ap.parse_args()
    if a.ops_def:
        check_ops_def(a.ops_def)
    os.makedirs(a.out, exist_ok=True)
    master = random.Random(a.seed)
    queue = []
    seen = set()
    share = -(-len(ALL_OPS) // 8)  # each program's share: 8 programs cover every operation
    for i in range(a.count):
        if len(queue) < share:
            more = list(ALL_OPS)
            master.shuffle(more)
            queue.extend(more)
        must, queue = queue[:share], queue[share:]
        rng = random.Random("%d/%d" % (a.seed, i))
        p = Program(rng, must)
        lines = p.build()
        seen |= p.used_ops
        name = os.path.join(a.out, "rand_%d_%04d.fuse" % (a.seed, i))
        with open(name, "w", encoding="utf-8") as f:
            f.write(p.text(lines, "# randgen.py --seed %d, program %d" % (a.seed, i)))
    missing = sorted(set(ALL_OPS) - seen)
    if missing and a.count >= 8:
        sys.exit("randgen.py: operations not covered: %s" % missing)


if __name__ == "__main__":
    main()

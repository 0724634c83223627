#!/usr/bin/env python3
"""gpu_check.py: fusec's PyTorch ops (fusec --emit=torch, docs/torch.md) on a GPU.

    python3 tests/torch/gpu_check.py [--fusec build/fusec] [--out DIR] [--random 50]
                                     [--random-capi N] [--only-capi] [--jobs J]
                                     [--files F.fuse ...]

from the repository root, on a machine with an NVIDIA GPU, PyTorch with CUDA and
nvcc; no network. Results go to --out (default $OUT): gpu_check.log (everything),
gpu_check.json (one record per check). The last line of the output is
"gpu_check: P passed, F failed"; the exit status is 0 when F is 0.

What it checks, for every examples/*.fuse and --random programs of tests/randgen.py
(--seed 2026):
  * build: fusec --emit=torch, the module's own build (torch.utils.cpp_extension, in
    parallel processes) and the C API as a shared library (nvcc -O3 -DFUSEC_NO_HARNESS
    -Xcompiler -fPIC -shared);
  * capi: P.fused and P.unfused from Python equal, bit for bit, what the C API (through
    ctypes, on the same inputs and stream) writes, with the params' defaults and with
    other values passed by keyword;
  * eager: both match torch eager running the same .fuse program (an interpreter below
    maps each statement to the torch op eager would run, integers, fp8 and shapes
    included), with eager's dtype and shape, within the tolerances of docs/torch.md
    (compare_eager): on every element for the examples (bool outputs: all but 1e-3 of
    the elements), on all but 1e-3 (unfused) and 1e-2 (fused) of the elements for
    random programs, whose deep f16 chains and comparisons next to their thresholds
    round differently when intermediates stay in f32; integer and fp8 outputs exactly
    (fused: within 1, or one fp8 code);
--random-capi N more programs, those after --random's (the same generator
continued: --random 0 --random-capi 250 are programs 0 to 249, bench/device.sh
random's first 250), through their C API alone (no torch extension: fusec, then
nvcc of the library, --jobs at a time), both versions against the interpreter
(check_capi), with integer inputs over their whole range and fp8 inputs cast from
floats of every magnitude; the summary line "random programs against eager: P of N
passed", and each failure's .fuse file in OUT/eager_failures. --only-capi runs that
alone (none of the checks of this list or the next); --files F.fuse ... checks those
programs the same way, alone;
and once: torch.compile(lambda x: seed.fused(x) * 2) without a graph break
(torch._dynamo.explain) and equal to the op, mixed under torch.compile with a param
by keyword; a CUDA-graph capture of seed.fused, seed.unfused and mixed.fused replays
with new inputs; the documented errors (wrong dtype, a CPU tensor, non-contiguous,
mismatched shapes, mixed devices, and a shaped chain's dims that disagree); any
shape and n = 0; the current stream; a hot
call at n = 4096 (seed.fused, eager, torch.compile: wall clock per call) against the
10 us target; the module's prebuilt-library and no-ninja routes; and the issue's
done-when one-liner, run as a newcomer would, printing 0.
"""
import argparse
import concurrent.futures
import ctypes
import importlib.util
import json
import operator
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
torch = None  # imported in main()

# output dtype -> (rtol, atol), as docs/torch.md and bench/torch_bench.py
TOL = {"float32": (1e-4, 1e-5), "float16": (1e-2, 1e-3), "bfloat16": (5e-2, 1e-2), "float64": (1e-9, 1e-12)}
BOOL_FLIPS = 1e-3
RANDOM_OUTLIERS = {"unfused": 1e-3, "fused": 1e-2}
N = 1000003  # odd: every kernel has a tail on the scalar path
SHAPED_ROWS = 257  # a shaped example's first dim (its --dims give the others): odd rows


class Log:
    def __init__(self, path):
        self.f = open(path, "w")
        self.records = []
        self.t0 = time.perf_counter()

    def say(self, msg):
        line = "[%6.1fs] %s" % (time.perf_counter() - self.t0, msg)
        print(line, flush=True)
        self.f.write(line + "\n")
        self.f.flush()

    def check(self, name, ok, detail=""):
        self.records.append(dict(check=name, ok=bool(ok), detail=detail))
        self.say("%s: %s%s" % ("ok" if ok else "FAIL", name, (": " + detail) if detail else ""))
        return ok


# --------------------------------------------------------------------------------------
# The .fuse program as torch eager runs it.
# --------------------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(#[^\n]*)|(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)"
                   r"|(\*\*|//|<<|>>|<=|>=|==|!=|[-+*/%&|^~<>(),=:;\[\]\n]))")
DTYPES = {"bool": "bool", "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
          "u8": "uint8", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
          "f8e4m3": "float8_e4m3fn", "f8e5m2": "float8_e5m2"}
INTS = ("u8", "i8", "i16", "i32", "i64")
FP8 = ("f8e4m3", "f8e5m2")


def tokens(text):
    out, pos, depth = [], 0, 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError("cannot read %r" % text[pos:pos + 20])
        pos = m.end()
        if m.group(1):
            continue
        if m.group(2):  # digits alone are a Python int, anything else a float (docs/language.md)
            t = m.group(2)
            out.append(("num", float(t) if re.search(r"[.eE]", t) else int(t)))
        elif m.group(3):
            out.append(("id", m.group(3)))
        else:
            t = m.group(4)
            depth += t == "("
            depth -= t == ")"
            if t == "\n" and depth > 0:
                continue
            out.append(("op", ";" if t == "\n" else t))
    return out


class Parser:
    """Statements of a .fuse file: ('in', names, dtype, shape or None), ('out', names),
    ('param', name, dtype, value), ('let', name, expr). An expression is a number (a Python int or float),
    ('name', n), ('neg', e), ('bin', op, a, b) or ('call', f, [args])."""

    def __init__(self, text):
        self.t = tokens(text) + [("op", ";")]
        self.i = 0
        self.order = []  # every identifier that is not a function name, in file order

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else ("eof", None)

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok[1] != want:
            raise ValueError("expected %r, got %r" % (want, tok))
        self.i += 1
        return tok

    def program(self):
        stmts = []
        while self.peek()[0] != "eof":
            if self.peek() == ("op", ";"):
                self.take()
                continue
            stmts.append(self.statement())
        return stmts

    def names(self):
        out = [self.take()[1]]
        while self.peek() == ("op", ","):
            self.take()
            out.append(self.take()[1])
        return out

    def statement(self):
        kind, v = self.peek()
        if kind == "id" and v == "in" and self.peek(1)[0] == "id":
            self.take()
            names = self.names()
            self.order += names
            dt, shape = None, None
            if self.peek() == ("op", ":"):
                self.take()
                dt = self.take()[1]
            if self.peek() == ("op", "["):  # a shape: names and 1s
                self.take()
                shape = []
                while self.peek() != ("op", "]"):
                    kind, d = self.take()
                    if (kind, d) != ("op", ","):
                        shape.append("1" if kind == "num" else d)
                self.take("]")
                shape = tuple(shape)
            return ("in", names, dt, shape)
        if kind == "id" and v == "out" and self.peek(1)[0] == "id":
            self.take()
            return ("out", self.names())
        if kind == "id" and v == "param" and self.peek(1)[0] == "id":
            self.take()
            name = self.take()[1]
            self.order.append(name)
            dt = None
            if self.peek() == ("op", ":"):
                self.take()
                dt = self.take()[1]
            self.take("=")
            sign = 1.0
            if self.peek() == ("op", "-"):
                self.take()
                sign = -1.0
            return ("param", name, dt, sign * float(self.take()[1]))  # a param is a float
        name = self.take()[1]
        self.take("=")
        e = self.expr()
        self.order.append(("def", name))
        return ("let", name, e)

    CMP = ("<", "<=", ">", ">=", "==", "!=")
    # binary operators from the loosest to the tightest, as Python (and fusec) bind them
    LEVELS = (("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "//", "%"))

    def expr(self):
        a = self.binary(0)
        if self.peek()[0] == "op" and self.peek()[1] in self.CMP:
            op = self.take()[1]
            a = ("bin", op, a, self.binary(0))
        return a

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        a = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in self.LEVELS[level]:
            op = self.take()[1]
            a = ("bin", op, a, self.binary(level + 1))
        return a

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            return ("neg", self.unary())
        if self.peek() == ("op", "~"):
            self.take()
            return ("not", self.unary())
        a = self.primary()
        if self.peek() == ("op", "**"):  # right-associative, binds tighter than a unary minus on its left
            self.take()
            return ("bin", "**", a, self.unary())
        return a

    def primary(self):
        kind, v = self.take()
        if kind == "num":
            return v
        if (kind, v) == ("op", "("):
            e = self.expr()
            self.take(")")
            return e
        if self.peek() == ("op", "("):
            self.take()
            args = []
            if self.peek() != ("op", ")"):
                args.append(self.expr())
                while self.peek() == ("op", ","):
                    self.take()
                    args.append(self.expr())
            self.take(")")
            return ("call", v, args)
        self.order.append(v)
        return ("name", v)


def f32(v):
    """v rounded to float32, as the C API receives an f32 (or f16, bf16) param."""
    return struct.unpack("f", struct.pack("f", v))[0]


# Python's operators: on two Python scalars they compute as Python does, on a
# tensor they are the torch op eager runs (Tensor.__add__, __rfloordiv__,
# __rlshift__, ...), with torch's type promotion (a Python scalar never widens
# a tensor of its category: q * 2 stays i32, q * 2.5 is f32, h * 2.5 stays f16).
BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
          "%": operator.mod, "**": operator.pow, "&": operator.and_, "|": operator.or_, "^": operator.xor,
          "<<": operator.lshift, ">>": operator.rshift, "<": operator.lt, "<=": operator.le, ">": operator.gt,
          ">=": operator.ge, "==": operator.eq, "!=": operator.ne}
ARITH = ("+", "-", "*", "/", "//", "%", "**")
# the builtins that keep an integer an integer (the rest make it the default float)
INT_KEEPING = ("abs", "neg", "relu", "sign", "floor", "ceil", "round", "trunc", "min", "max", "clamp")


class Eager:
    """Runs the program with torch eager: tensor values are torch tensors (on the
    inputs' device); scalars (literals, params and their expressions) are Python
    ints, floats and bools, computed as Python computes them before eager sees
    them (integers exactly, floats in double). Each operation on a tensor is the
    torch op eager runs for it, and torch's own type promotion gives its dtype:
    nothing here copies fusec's rules, except where docs/language.md documents
    that fusec differs from eager ("documented difference" below)."""

    def __init__(self, text, default_dtype="f32"):
        p = Parser(text)
        self.stmts = p.program()
        assigned = {s[1] for s in self.stmts if s[0] == "let"}
        self.params = {s[1]: (s[2] or "f32", s[3]) for s in self.stmts if s[0] == "param"}
        declared, self.shapes, self.dims = {}, {}, []
        for s in self.stmts:
            if s[0] == "in":
                for nm in s[1]:
                    declared[nm] = s[2] or default_dtype
                    if s[3]:
                        self.shapes[nm] = s[3]
                        self.dims += [d for d in s[3] if d != "1" and d not in self.dims]
        # the chain's shape: the broadcast of the declared ones (aligned on the last dim)
        self.full = ()
        for sh in self.shapes.values():
            n = max(len(sh), len(self.full))
            a, b = ("1",) * (n - len(self.full)) + self.full, ("1",) * (n - len(sh)) + sh
            self.full = tuple(y if x == "1" else x for x, y in zip(a, b))
        self.inputs, self.param_order, seen = [], [], set()
        for item in p.order:
            if isinstance(item, tuple):
                continue
            if item in seen:
                continue
            seen.add(item)
            if item in self.params:
                self.param_order.append(item)
            elif item not in assigned:
                self.inputs.append((item, declared.get(item, default_dtype)))

    def run(self, inputs, params, wide=False):
        """Every statement's value (a dict by name). wide: a cast to f16, bf16 or f32
        rounds the value but keeps it an f64 tensor (eager64)."""
        F = torch.nn.functional
        dev = inputs[0].device if inputs else "cpu"
        env = dict(zip([nm for nm, _ in self.inputs], inputs))
        for nm, (dt, _) in self.params.items():
            v = params[nm]
            env[nm] = f32(v) if dt != "f64" else v
        unary = dict(abs=torch.abs, neg=torch.neg, relu=torch.relu, sigmoid=torch.sigmoid, tanh=torch.tanh,
                     exp=torch.exp, exp2=torch.exp2, expm1=torch.expm1, log=torch.log, log2=torch.log2,
                     log1p=torch.log1p, sqrt=torch.sqrt, rsqrt=torch.rsqrt, reciprocal=torch.reciprocal,
                     sin=torch.sin, cos=torch.cos, erf=torch.erf, floor=torch.floor, ceil=torch.ceil,
                     round=torch.round, trunc=torch.trunc, sign=torch.sign, gelu=F.gelu,
                     gelu_tanh=lambda x: F.gelu(x, approximate="tanh"), silu=F.silu, softplus=F.softplus,
                     hardsigmoid=F.hardsigmoid, hardswish=F.hardswish, mish=F.mish)

        def is_t(x):
            return isinstance(x, torch.Tensor)

        def is_bool(x):
            return x.dtype == torch.bool if is_t(x) else isinstance(x, bool)

        def arith(*xs):
            """The operands of arithmetic: when every one is a bool, f32 ones. A
            documented difference (docs/language.md, "Types"): fusec computes
            arithmetic on bools in f32, where eager keeps bool for bool + bool
            and refuses abs or relu of a bool."""
            if not all(is_bool(x) for x in xs):
                return xs
            return [x.float() if is_t(x) else float(x) for x in xs]

        def weak(s, like):
            """A Python scalar as a 0-d CPU tensor that promotes with the tensor like as
            the scalar itself would (torch.result_type), for the ops that take tensors
            only: a CUDA kernel reads a CPU scalar in its compute type (an f16 or bf16
            result's is f32, so such a scalar is held in f32, not rounded to f16)."""
            dt = torch.result_type(like, s)
            held = torch.float32 if dt in (torch.float16, torch.bfloat16) else dt
            src = torch.float64 if isinstance(s, float) else torch.bool if isinstance(s, bool) else torch.int64
            return torch.tensor(s, dtype=src).to(held)

        def py(op, a, b):
            """op on two Python scalars, as Python computes it; in IEEE double where
            Python raises or gives a complex number (a param's 1 / 0, (-8.0) ** 0.5),
            as fusec's host code computes params in double."""
            try:
                v = BINOPS[op](a, b)
                if not isinstance(v, complex):
                    return v
            except (ZeroDivisionError, OverflowError, ValueError):
                pass
            return BINOPS[op](*[torch.tensor(float(x), dtype=torch.float64) for x in (a, b)]).item()

        def scalar_call(f, args):
            """A builtin of Python scalars only: a cast as eager casts a one-element
            tensor (on the inputs' device: float -> integer out of range is the
            device's), pow as Python's **, the others as torch on a double (an
            integer kept as an integer where the builtin keeps it), on the inputs'
            device: fusec computes them as eager's CUDA kernels do for an f64 tensor
            (hardsigmoid(-1.25) multiplies by (double)(1.0f / 6.0f), as ATen's CUDA
            kernel does, where its CPU kernel divides by 6)."""
            if f in DTYPES:
                src = torch.float64 if isinstance(args[0], float) else torch.bool if isinstance(args[0], bool) \
                    else torch.int64
                v = torch.tensor(args[0], dtype=src, device=dev).to(getattr(torch, DTYPES[f]))
                return bool(v.item()) if f == "bool" else int(v.item()) if f in INTS else v.double().item()
            if f == "where":
                v = args[1] if args[0] else args[2]
                return float(v) if any(isinstance(a, float) for a in args[1:]) else v
            if f == "pow":
                return py("**", args[0], args[1])
            ints = f in INT_KEEPING and all(isinstance(a, int) and not isinstance(a, bool) for a in args)
            ts = [torch.tensor(a, dtype=torch.int64 if ints else torch.float64, device=dev) for a in args]
            v = call(f, ts).item()
            return int(v) if ints else float(v)

        def call(f, args):
            if f in DTYPES:
                v = args[0].to(getattr(torch, DTYPES[f]))
                return v.double() if wide and f in ("f16", "bf16", "f32") else v
            if f in unary:
                return unary[f](*arith(args[0]))
            if f == "leaky_relu":
                return F.leaky_relu(arith(args[0])[0], float(args[1]))
            if f == "pow":
                return torch.pow(*arith(*args))
            if f in ("min", "max", "clamp"):
                xs = arith(*args)
                # with scalar bounds: torch.clamp, which promotes with them as with any
                # scalar (and, unlike arithmetic, refuses an integer one out of the
                # tensor's range, as torch.where does)
                if f == "clamp" and not is_t(xs[1]) and not is_t(xs[2]):
                    return torch.clamp(xs[0], xs[1], xs[2])
                if f != "clamp" and not all(is_t(x) for x in xs):
                    t, v = xs if is_t(xs[0]) else xs[::-1]
                    return torch.clamp(t, max=v) if f == "min" else torch.clamp(t, min=v)
                # a number promotes with the tensors' common dtype, not with the first
                # tensor's: clamp(f32 x, -2.32, f64 t) holds -2.32 in f64, as fusec does
                tens = [x for x in xs if is_t(x)]
                common = tens[0].dtype
                for x in tens[1:]:
                    common = torch.promote_types(common, x.dtype)
                like = torch.empty(1, dtype=common, device=tens[0].device)
                ts = [x if is_t(x) else weak(x, like) for x in xs]
                if f == "clamp":  # a tensor bound beside a number: clamp's Tensor form wants one device
                    ts = [t.to(like.device) for t in ts]
                    return torch.clamp(ts[0], min=ts[1], max=ts[2])
                return (torch.minimum if f == "min" else torch.maximum)(ts[0], ts[1])
            if f == "where":
                c, a, b = args
                if not is_t(c):
                    c = torch.tensor(bool(c), device=dev)
                if is_bool(a) and is_bool(b):  # documented difference: fusec's where of two bools is f32
                    a, b = arith(a, b)
                return torch.where(c, a, b)
            raise ValueError("unknown builtin %s" % f)

        def ev(e):
            if isinstance(e, (int, float)):
                return e
            k = e[0]
            if k == "name":
                return env[e[1]]
            if k == "neg":
                a = ev(e[1])
                return -arith(a)[0]
            if k == "not":  # logical on bools, bitwise on integers
                a = ev(e[1])
                if is_t(a):
                    return torch.bitwise_not(a)
                return (not a) if isinstance(a, bool) else ~a
            if k == "bin":
                op, a, b = e[1], ev(e[2]), ev(e[3])
                if not is_t(a) and not is_t(b):
                    return py(op, a, b)
                if op in ARITH:
                    a, b = arith(a, b)
                return BINOPS[op](a, b)
            f, args = e[1], [ev(x) for x in e[2]]
            if not any(is_t(a) for a in args):
                return scalar_call(f, args)
            return call(f, args)

        for s in self.stmts:
            if s[0] == "let":
                env[s[1]] = ev(s[2])
        return env


# --------------------------------------------------------------------------------------
# Building, in parallel.
# --------------------------------------------------------------------------------------

def run(cmd, log_path, env=None, cwd=None, timeout=900):
    with open(log_path, "a") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd, timeout=timeout)
    return r.returncode == 0


def find_nvcc():
    """nvcc from PATH, else where torch's cpp_extension finds CUDA."""
    from torch.utils import cpp_extension
    return shutil.which("nvcc") or os.path.join(cpp_extension.CUDA_HOME or "/usr/local/cuda", "bin", "nvcc")


def nvcc_library(nvcc, arch, cu, lib, log):
    """The C API of an emitted .cu as a shared library, without its harness."""
    return run([nvcc, "-O3", "-arch=" + arch, "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared", cu, "-o", lib],
               log)


def build_chain(src, work, fusec, arch, nvcc):
    """fusec --emit=torch, the C API library, and the module's own build (by importing
    it in a process of its own). Returns (name, ok, what failed)."""
    name = os.path.splitext(os.path.basename(src))[0]
    ext = os.path.join(work, "ext", name)
    log = os.path.join(work, "logs", name + ".log")
    env = dict(os.environ, FUSEC_TORCH_BUILD=os.path.join(work, "build"), MAX_JOBS="2")
    if not run([fusec, "-w", "--emit=torch", src, "-o", ext], log):
        return name, False, "fusec --emit=torch"
    if not nvcc_library(nvcc, arch, os.path.join(ext, name + ".cu"), os.path.join(work, "capi", "lib%s.so" % name),
                        log):
        return name, False, "nvcc of the C API library"
    if not run([sys.executable, "-c", "import sys; sys.path.insert(0, %r); import %s" % (ext, name)], log, env=env):
        return name, False, "building and importing the module"
    # The checks import the same library as a prebuilt one: loading it is then one
    # dlopen, where cpp_extension.load would check the build again for each chain.
    shutil.copy(os.path.join(work, "build", name, "fusec_%s.so" % name), os.path.join(ext, "%s_torch.so" % name))
    return name, True, ""


def fusec_args(text):
    """The options of a first line "# fusec-args: ..." (a shaped program's --dims)."""
    m = re.match(r"# fusec-args: (.*)", text)
    return m.group(1).split() if m else []


def build_capi(src, work, fusec, arch, nvcc):
    """A program's C API alone, without the torch extension: fusec's .cu, its API
    (fusec --predict --format=json) and the library. Returns (name, the JSON
    description or None, what failed)."""
    name = os.path.splitext(os.path.basename(src))[0]
    log = os.path.join(work, "logs", name + ".log")
    cu = os.path.join(work, "capi", name + ".cu")
    with open(src) as f:
        text = f.read()
    if not run([fusec, "-w", src, "-o", cu], log):
        return name, None, "fusec"
    r = subprocess.run([fusec, "-w", "--predict", "--format=json", src] + fusec_args(text), capture_output=True,
                       text=True, timeout=900)
    if r.returncode != 0:
        return name, None, "fusec --predict --format=json: " + r.stderr.strip()[-500:]
    if not nvcc_library(nvcc, arch, cu, os.path.join(work, "capi", "lib%s.so" % name), log):
        return name, None, "nvcc of the C API library"
    return name, json.loads(r.stdout), ""


def newcomer(work, fusec):
    """The issue's done-when line, as written, from a fresh folder with examples/ in it
    and fusec on PATH."""
    d = os.path.join(work, "newcomer")
    os.makedirs(d)
    os.symlink(os.path.join(ROOT, "examples"), os.path.join(d, "examples"))
    env = dict(os.environ, PATH=os.path.dirname(fusec) + os.pathsep + os.environ.get("PATH", ""))
    env.pop("FUSEC_TORCH_BUILD", None)
    line = ("fusec --emit=torch examples/seed.fuse -o seed_ext && python3 -c \"import torch, sys; "
            "sys.path.insert(0, 'seed_ext'); import seed; x = torch.randn(1 << 20, device='cuda'); "
            "print((seed.fused(x) - torch.relu(x*2+1)*0.5).abs().max())\"")
    r = subprocess.run(["sh", "-c", line], cwd=d, env=env, capture_output=True, text=True, timeout=900)
    return r.returncode, r.stdout.strip(), r.stderr[-2000:]


def route(work, name, how):
    """The module's other routes, in a process of their own: 'prebuilt' (a
    seed_torch.so beside seed.py) or 'noninja' (FUSEC_TORCH_NO_NINJA=1)."""
    d = os.path.join(work, how)
    shutil.copytree(os.path.join(work, "ext", name), d, ignore=shutil.ignore_patterns("build", "*.so"))
    env = dict(os.environ)
    env.pop("FUSEC_TORCH_BUILD", None)
    if how == "prebuilt":
        shutil.copy(os.path.join(work, "build", name, "fusec_%s.so" % name), os.path.join(d, "%s_torch.so" % name))
    else:
        env["FUSEC_TORCH_NO_NINJA"] = "1"
    code = ("import sys, torch; sys.path.insert(0, %r); import %s as m; x = torch.randn(4099, device='cuda'); "
            "y = m.fused(x); print(m.LIBRARY); print(int(torch.equal(y, torch.relu(x*2+1)*0.5)))" % (d, name))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    return r.returncode, r.stdout.split(), r.stderr[-2000:], d


# --------------------------------------------------------------------------------------
# The checks of one chain.
# --------------------------------------------------------------------------------------

def bits(t):
    """A tensor's bits, so that NaNs compare as the same value when their bits are."""
    view = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    return t.view(view) if t.dtype != torch.bool else t.view(torch.uint8)


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


class Shapes:
    """A shaped chain's sizes (docs/language.md): its dims from the first line
    "# fusec-args: --dims=..." (a dim it does not give, the first one of the
    examples: SHAPED_ROWS), each input's shape (an undeclared one: the chain's)."""

    def __init__(self, prog, text):
        m = re.match(r"# fusec-args:.*--dims=(\S+)", text)
        given = dict(kv.split("=") for kv in m.group(1).split(",")) if m else {}
        self.prog = prog
        self.size = {d: int(given.get(d, SHAPED_ROWS)) for d in prog.dims}
        self.order = prog.dims  # the C API's order: as the dims first appear

    def of(self, name):
        return tuple(1 if d == "1" else self.size[d] for d in self.prog.shapes.get(name, self.prog.full))

    def full(self):
        return tuple(1 if d == "1" else self.size[d] for d in self.prog.full)


def torch_check():
    """bench/torch_check.py, as a module (it imports torch)."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import torch_check as tc
    return tc


def make_inputs(module, n, seed, shapes=None, device="cuda"):
    """Each input: n elements, or its own shape in a shaped chain. Floats uniform
    in [-4, 4) (tests/randgen.py keeps its programs tame there) and bools half
    true, as ever; integers over their whole range, as bench/torch_check.py makes
    them (the range's edges first, then a quarter small: zero divisors, a
    quarter in [-70, 70]: shift counts past every width, half every bit random); fp8:
    floats of every magnitude from 2^-10 to 2^9, both signs, cast (so f8e4m3's
    NaN above 464 too)."""
    g = torch.Generator(device=device)
    out = []
    for i, (name, dt) in enumerate(module.INPUTS):
        g.manual_seed(seed * 1000 + i)
        size = shapes.of(name) if shapes else (n,)
        rand = lambda: torch.rand(size, generator=g, device=device, dtype=torch.float64)  # noqa: E731
        if dt == torch.bool:
            out.append(torch.rand(size, generator=g, device=device) < 0.5)
        elif dt.is_floating_point and dt.itemsize == 1:
            out.append((torch.exp2(rand() * 19 - 10) * torch.where(rand() < 0.5, -1.0, 1.0)).float().to(dt))
        elif dt.is_floating_point:
            out.append((rand() * 8 - 4).to(dt))
        else:  # bench/torch_check.py's integers
            out.append(torch_check().make_input(next(k for k, v in DTYPES.items() if v == str(dt)[6:]), size,
                                                seed * 1000 + i, device=device))
    return out


def capi_call(lib, module, version, inputs, params, n, shapes=None):
    fn = getattr(lib, "%s_%s" % (module.NAME, version))
    size = shapes.full() if shapes else (n,)
    dev = inputs[0].device if inputs else torch.device("cuda")  # (a host build of the C API: tests/torch/eager_cpu.py)
    outs = [torch.empty(size, dtype=dt, device=dev) for _, dt in module.OUTPUTS]
    types = [ctypes.c_void_p] * (len(inputs) + len(outs))
    types += [ctypes.c_double if pdt == "f64" else ctypes.c_float for _, pdt, _ in module.PARAMS]
    dims = [shapes.size[d] for d in shapes.order] if shapes else [n]  # a shaped chain: its dims for n
    fn.argtypes = types + [ctypes.c_size_t] * len(dims) + [ctypes.c_void_p]
    fn.restype = ctypes.c_int
    args = [t.data_ptr() for t in inputs] + [t.data_ptr() for t in outs] + list(params)
    rc = fn(*args, *dims, torch.cuda.current_stream().cuda_stream if dev.type == "cuda" else None)
    if rc != 0:
        raise RuntimeError("%s_%s returned CUDA error %d" % (module.NAME, version, rc))
    return outs


def loosest(text, dtype):
    """The tolerance of the narrowest float dtype that the program names (or of dtype,
    the output's): the fused kernel keeps f16 and bf16 values in f32 between the
    statements, so it differs from eager by their rounding whatever the output's
    dtype. None when the program names no float dtype."""
    named = set(re.findall(r"\b(bf16|f16|f32|f64)\b", text)) | {dtype}
    return max((TOL[DTYPES[d]] for d in named if DTYPES.get(d) in TOL), key=lambda t: t[0], default=None)


def is_fp8(t):
    return t.is_floating_point() and t.element_size() == 1


def value(t, i):
    """Element i of the flat tensor t as a Python number (an fp8 one: its float)."""
    return t[i].float().item() if is_fp8(t) else t[i].item()


def compare_eager(got, want, outliers, tol=None, flips=None, fused=False, want64=None):
    """('', None) when fusec's output got matches eager's want, else (what differs,
    the first element outside the rule, in row-major order). want must have got's
    dtype and shape. Floats: within tol (default: the dtype's) on all but a
    fraction outliers of the elements. Bools, integers and fp8: exactly, on all
    but a fraction flips (default: bools max(outliers, BOOL_FLIPS), integers
    and fp8 none unfused, outliers fused); for fused, an integer within 1 of
    eager's and an fp8 value within one code (of the same sign) is equal: a
    value made from floats that eager rounds to f16 or bf16 between ops and
    fused keeps in f32 may round to the neighbour (bench/torch_check.py's rule).
    want64: eager64's value, where fused, whose intermediates are not rounded as
    eager's are, is right when it is as close to it as eager is (floats) or
    equal to it (the others), as torch_check.py allows: round(h * 100) of an
    f16 h, by a rounding apart, gives another integer."""
    if not isinstance(want, torch.Tensor):
        want = torch.full_like(got, want)
    if want.dtype != got.dtype or want.shape != got.shape:
        return "eager's is %s %s, fusec's %s %s" % (str(want.dtype)[6:], list(want.shape), str(got.dtype)[6:],
                                                      list(got.shape)), None
    a, b = got.flatten(), want.flatten()
    if got.dtype == torch.bool or not got.is_floating_point() or is_fp8(got):
        if is_fp8(got):
            ca, cb = a.view(torch.uint8).long(), b.view(torch.uint8).long()
            same = (ca == cb) | (torch.isnan(a.float()) & torch.isnan(b.float()))
            near = same | (((ca - cb).abs() == 1) & ((ca ^ cb) & 0x80 == 0))
        else:  # (without a subtraction that wraps: 0 - INT64_MIN)
            ca, cb = a.long(), b.long()
            same = ca == cb
            near = same | ((ca > cb) & (ca - cb == 1)) | ((ca < cb) & (cb - ca == 1))
        near = near if fused and got.dtype != torch.bool else same
        bad = ~near
        if want64 is not None:
            w64 = want64.flatten()
            bad &= ~((a.float() == w64.float()) if is_fp8(got) else (a == w64.to(a.dtype)))
        if flips is None:
            flips = max(outliers, BOOL_FLIPS) if got.dtype == torch.bool else outliers if fused else 0.0
        frac, how = flips, "equal" if near is same else "within 1 (an fp8 value: one code)"
    else:
        rtol, atol = tol or TOL[str(got.dtype)[6:]]
        bad = ~torch.isclose(a.double(), b.double(), rtol=rtol, atol=atol, equal_nan=True)
        if want64 is not None:
            w64 = want64.double().flatten()
            bad &= ~((a.double() - w64).abs() <= (b.double() - w64).abs())
        frac, how = outliers, "within rtol %g atol %g" % (rtol, atol)
    nbad = int(bad.sum())
    if nbad <= got.numel() * frac:
        return "", None
    i = int(bad.nonzero()[0])
    return "%d of %d elements not %s (first at %d: %r against eager's %r)" % (
        nbad, got.numel(), how, i, value(a, i), value(b, i)), i


def eager64(prog, inputs, params):
    """The program run by eager in f64, as the fused kernel computes it in f32: its
    float inputs made f64 (fp8 ones kept), a cast to f16, bf16 or f32 rounding
    the value but keeping it f64 (the fused kernel rounds at casts and keeps
    the results of ops on f16 and bf16 values in f32, where eager rounds them:
    sigmoid(bf16(p)) == tanh(bf16(p)) holds in bf16 at p = 12 and not in f32),
    for compare_eager's want64; None where eager refuses that."""
    try:
        return prog.run([t.double() if t.is_floating_point() and not is_fp8(t) else t for t in inputs],
                        dict(zip(prog.param_order, params)), wide=True)
    except Exception:  # noqa: BLE001 - then eager's own values are the only yardstick
        return None


def mismatches(text, env, outputs, got, version, outliers, flips=None, host=False, env64=None):
    """[(output, what differs, its first bad element)] of fusec's outputs got (one
    per (name, dtype) of outputs) against eager's values in env (compare_eager;
    fused: in the loosest tolerance of the program's float dtypes; host, a host
    build of the C API against eager on the CPU, whose math functions differ in
    the last bits: both versions so, and at least f32's). env64: eager's values on
    the float inputs made f64 (fused only)."""
    bad = []
    for (out_name, _), g in zip(outputs, got):
        own = next(k for k, v in DTYPES.items() if v == str(g.dtype)[6:])
        tol = loosest(text, own) if version == "fused" or host else None
        if host:
            tol = max(tol or TOL["float32"], TOL["float32"], key=lambda t: t[0])
        w64 = env64.get(out_name) if env64 and version == "fused" else None
        msg, i = compare_eager(g, env[out_name], outliers, tol, flips, version == "fused",
                               w64 if isinstance(w64, torch.Tensor) and w64.shape == g.shape else None)
        if msg:
            bad.append((out_name, msg, i))
    return bad


def import_chain(work, name):
    """The module of a built chain, imported once (a second import would register its
    ops and fake implementations again)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(work, "ext", name, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return sys.modules[name]


def check_chain(log, work, name, src, is_example):
    module = import_chain(work, name)
    lib = ctypes.CDLL(os.path.join(work, "capi", "lib%s.so" % name))
    with open(src) as f:
        text = f.read()
    prog = Eager(text)
    shapes = Shapes(prog, text) if prog.shapes else None
    inputs = make_inputs(module, N, 7, shapes)
    defaults = [v for _, _, v in module.PARAMS]
    ok = True
    for version in ("fused", "unfused"):
        op = getattr(module, version)
        got = as_tuple(op(*inputs))
        want = capi_call(lib, module, version, inputs, defaults, N, shapes)
        torch.cuda.synchronize()
        same = all(torch.equal(bits(a), bits(b)) for a, b in zip(got, want)) and len(got) == len(want)
        ok &= log.check("%s %s = C API, bit for bit" % (name, version), same)
        if module.PARAMS:
            other = [v * 0.75 + 0.0625 for v in defaults]
            got = as_tuple(op(*inputs, **{nm: v for (nm, _, _), v in zip(module.PARAMS, other)}))
            want = capi_call(lib, module, version, inputs, other, N, shapes)
            torch.cuda.synchronize()
            same = all(torch.equal(bits(a), bits(b)) for a, b in zip(got, want))
            ok &= log.check("%s %s = C API with params by keyword %s" % (
                name, version, ", ".join("%s=%g" % (nm, v) for (nm, _, _), v in zip(module.PARAMS, other))), same)
    # eager
    if len(prog.inputs) != len(module.INPUTS) or len(prog.param_order) != len(module.PARAMS):
        return log.check("%s eager" % name, False, "the interpreter found %d inputs and %d params, the module %d and %d"
                         % (len(prog.inputs), len(prog.param_order), len(module.INPUTS), len(module.PARAMS))) and ok
    env = prog.run(inputs, dict(zip(prog.param_order, defaults)))
    env64 = eager64(prog, inputs, defaults)
    for version in ("fused", "unfused"):
        got = as_tuple(getattr(module, version)(*inputs))
        bad = mismatches(text, env, module.OUTPUTS, got, version, 0.0 if is_example else RANDOM_OUTLIERS[version],
                         env64=env64)
        ok &= log.check("%s %s matches eager" % (name, version), not bad, "; ".join("%s: %s" % b[:2] for b in bad))
    return ok


def api_of(desc):
    """fusec's JSON description of a chain as a module's NAME, INPUTS, OUTPUTS and
    PARAMS (what capi_call and make_inputs read), and DIMS: a shaped chain's dims
    in the C API's order."""
    dt = lambda d: getattr(torch, DTYPES[d])  # noqa: E731
    return types.SimpleNamespace(NAME=desc["name"], INPUTS=[(i["name"], dt(i["dtype"])) for i in desc["inputs"]],
                                 OUTPUTS=[(o["name"], dt(o["dtype"])) for o in desc["outputs"]],
                                 PARAMS=[(p["name"], p["dtype"], p["value"]) for p in desc["params"]],
                                 DIMS=list(desc["shape"]["dims"]) if "shape" in desc else [])


def at_element(prog, shapes, inputs, params, i):
    """Element i (row-major) of the chain's shape and every input there (a
    broadcast one: the value it gives that element), then the params."""
    full = shapes.full() if shapes else None
    idx = []
    for size in reversed(full or ()):
        idx.insert(0, i % size)
        i //= size
    vals = []
    for (nm, _), t in zip(prog.inputs, inputs):
        v = t.expand(full)[tuple(idx)] if full else t[i]
        vals.append("%s=%r" % (nm, v.float().item() if is_fp8(v) else v.item()))
    vals += ["%s=%r" % kv for kv in zip(prog.param_order, params)]
    return "%sinputs there: %s" % ("index %s of %s; " % (idx, list(full)) if full else "", ", ".join(vals))


def check_capi(log, work, name, src, api, failures, n=N, device="cuda"):
    """A random program through its C API alone, both versions against eager, as
    compare_eager says: floats as check_chain's random programs; bools, integers
    and fp8 exactly unfused, and fused on all but RANDOM_OUTLIERS["fused"] of the
    elements (integers within 1, fp8 within a code). A mismatch says the output,
    its first bad element, both values and the inputs there; the .fuse file is
    copied to failures. (n, device: tests/torch/eager_cpu.py runs it on a host
    build of the C API.)"""
    with open(src) as f:
        text = f.read()
    prog = Eager(text)
    shapes = Shapes(prog, text) if prog.shapes else None
    mine = ([(nm, DTYPES[dt]) for nm, dt in prog.inputs], prog.param_order, shapes.order if shapes else [])
    theirs = ([(nm, str(dt)[6:]) for nm, dt in api.INPUTS], [nm for nm, _, _ in api.PARAMS], api.DIMS)
    problems = []
    if mine != theirs:
        problems.append("the interpreter reads the inputs, params and dims %s, fusec %s" % (mine, theirs))
    else:
        lib = ctypes.CDLL(os.path.join(work, "capi", "lib%s.so" % name))
        inputs = make_inputs(api, n, 7, shapes, device)
        params = [v for _, _, v in api.PARAMS]
        try:
            env = prog.run(inputs, dict(zip(prog.param_order, params)))
        except Exception as e:  # noqa: BLE001 - eager refusing what fusec accepts is a difference too
            env = None
            problems.append("eager raised %s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1]))
        env64 = eager64(prog, inputs, params) if env else None
        for version in ("unfused", "fused") if env else ():
            got = capi_call(lib, api, version, inputs, params, n, shapes)
            if device == "cuda":
                torch.cuda.synchronize()
            flips = 0.0 if version == "unfused" else RANDOM_OUTLIERS["fused"]
            for out_name, msg, i in mismatches(text, env, api.OUTPUTS, got, version, RANDOM_OUTLIERS[version], flips,
                                               device != "cuda", env64):
                where = "" if i is None else "; " + at_element(prog, shapes, inputs, params, i)
                problems.append("%s %s: %s%s" % (version, out_name, msg, where))
        lib["%s_unfused_release" % api.NAME]()  # its scratch buffers: 250 libraries stay loaded
    if problems:
        os.makedirs(failures, exist_ok=True)
        shutil.copy(src, failures)
    return log.check("%s against eager" % name, not problems, "; ".join(problems))


def random_capi(log, args, work, fusec, arch, nvcc):
    """--random-capi N: the N programs of randgen.py --seed that follow --random's
    (the same generator continued), each built as its C API alone, --jobs at a
    time, and checked (check_capi) as its build finishes. The failures' .fuse
    files go to OUT/eager_failures."""
    if args.files:
        srcs = [os.path.abspath(f) for f in args.files]
        log.say("%d programs (--files) through their C API alone, %d built at a time" % (len(srcs), args.jobs))
    else:
        d = os.path.join(work, "rand_capi")
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "randgen.py"), "--seed", str(args.seed),
                        "--count", str(args.random + args.random_capi), "--out", d,
                        "--ops-def", os.path.join(ROOT, "src", "ops.def")], check=True)
        srcs = sorted(os.path.join(d, f) for f in os.listdir(d))[args.random:]
        log.say("random programs %d to %d of randgen.py --seed %d through their C API alone, %d built at a time"
                % (args.random, args.random + len(srcs) - 1, args.seed, args.jobs))
    failures = os.path.join(args.out, "eager_failures")
    passed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = {pool.submit(build_capi, src, work, fusec, arch, nvcc): src for src in srcs}
        for fut in concurrent.futures.as_completed(futs):
            src = futs[fut]
            name, desc, what = fut.result()
            if desc is None:
                log.check("%s builds" % name, False, what)
                with open(os.path.join(work, "logs", name + ".log")) as f:
                    log.say(f.read()[-3000:])
                os.makedirs(failures, exist_ok=True)
                shutil.copy(src, failures)
                continue
            try:
                passed += check_capi(log, work, name, src, api_of(desc), failures)
            except Exception:  # noqa: BLE001 - one program's crash is its failure, the others go on
                log.check("%s against eager" % name, False, traceback.format_exc()[-2000:])
    log.say("random programs against eager: %d of %d passed" % (passed, len(srcs)))


# --------------------------------------------------------------------------------------
# The checks that need one chain each.
# --------------------------------------------------------------------------------------

def expect_error(log, what, fn, exc, text):
    try:
        fn()
    except exc as e:
        return log.check(what, text in str(e), "%s: %s" % (type(e).__name__, str(e).splitlines()[0]))
    except Exception as e:  # noqa: BLE001 - the wrong kind is a failure, said so
        return log.check(what, False, "raised %s, not %s: %s" % (type(e).__name__, exc.__name__, e))
    return log.check(what, False, "no error")


def shaped_checks(log, ln):
    """examples/layernorm_affine.fuse as an op: the dims from the tensors, the
    documented shape errors (docs/torch.md), torch.compile without a graph
    break and the fake implementation's broadcast shape."""
    R, C = 257, 1000
    x = torch.randn(R, C, device="cuda").bfloat16()
    mean, rstd = torch.randn(R, 1, device="cuda"), torch.rand(R, 1, device="cuda") + 0.5
    w, b = torch.randn(C, device="cuda"), torch.randn(C, device="cuda")
    want = ((x - mean) * rstd * w + b).to(torch.bfloat16)
    y = ln.unfused(x, mean, rstd, w, b)
    log.check("layernorm_affine unfused: [R, C] from [R, C], [R, 1] and [C] tensors, bit for bit as eager",
              y.shape == (R, C) and torch.equal(bits(y), bits(want)))
    op = "fusec::layernorm_affine"
    expect_error(log, "shaped: another number of dims: ValueError", lambda: ln.fused(x, mean.flatten(), rstd, w, b),
                 ValueError, "%s: mean must have 2 dims (mean: [R, 1] in the .fuse file), but it has shape [%d]" % (op, R))
    expect_error(log, "shaped: not 1 where the shape says 1: ValueError",
                 lambda: ln.fused(x, mean.expand(R, 2).contiguous(), rstd, w, b), ValueError,
                 "%s: mean must have size 1 in dim 1 (mean: [R, 1] in the .fuse file), but it has shape [%d, 2]" % (op, R))
    expect_error(log, "shaped: a dim that disagrees: ValueError", lambda: ln.fused(x, mean, rstd, w[:C - 1], b),
                 ValueError, "%s: weight has C = %d (dim 0 of its shape [%d]) but x has C = %d" % (op, C - 1, C - 1, C))
    compiled = torch.compile(lambda *a: ln.fused(*a) * 2)
    explain = torch._dynamo.explain(lambda *a: ln.fused(*a) * 2)(x, mean, rstd, w, b)
    log.check("shaped: torch.compile of layernorm_affine.fused without a graph break",
              explain.graph_break_count == 0 and torch.equal(compiled(x, mean, rstd, w, b), ln.fused(x, mean, rstd, w, b) * 2),
              "%d graph breaks" % explain.graph_break_count)


def wall_us(fn, x, calls=2000, loops=7):
    for _ in range(200):
        fn(x)
    torch.cuda.synchronize()
    samples = []
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn(x)
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) / calls * 1e6)
    return sorted(samples)[len(samples) // 2]


def special_checks(log, mods):
    seed, swiglu, mixed = mods["seed"], mods["swiglu"], mods["mixed"]
    x = torch.randn(N, device="cuda")
    ref = torch.relu(x * 2 + 1) * 0.5

    # torch.compile
    fn = lambda t: seed.fused(t) * 2  # noqa: E731
    explain = torch._dynamo.explain(fn)(x)
    log.check("torch.compile(lambda x: seed.fused(x) * 2): no graph break (torch._dynamo.explain)",
              explain.graph_break_count == 0 and explain.graph_count == 1,
              "graphs %d, breaks %d" % (explain.graph_count, explain.graph_break_count))
    torch._dynamo.reset()
    y = torch.compile(fn, fullgraph=True)(x)
    log.check("torch.compile(..., fullgraph=True) of seed.fused(x) * 2 equals the op", torch.equal(y, seed.fused(x) * 2))
    u = torch.compile(lambda t: seed.unfused(t) + 1, fullgraph=True)(x)
    log.check("torch.compile of seed.unfused equals the op", torch.equal(u, seed.unfused(x) + 1))
    h = torch.randn(N, device="cuda").half()
    g = torch.randn(N, device="cuda").bfloat16()
    yc, kc = torch.compile(lambda a, b: mixed.fused(a, b, scale=0.25), fullgraph=True)(h, g)
    yd, kd = mixed.fused(h, g, scale=0.25)
    log.check("torch.compile of mixed.fused(h, g, scale=0.25): two outputs, equal to the op",
              torch.equal(bits(yc), bits(yd)) and torch.equal(kc, kd))

    # CUDA graphs
    for label, op, args_of in (("seed.fused", seed.fused, lambda: (x_static,)),
                               ("seed.unfused", seed.unfused, lambda: (x_static,)),
                               ("mixed.fused", lambda a, b: mixed.fused(a, b, scale=0.5), lambda: (h_static, g_static))):
        x_static = torch.randn(N, device="cuda")
        h_static, g_static = torch.randn(N, device="cuda").half(), torch.randn(N, device="cuda").bfloat16()
        args = args_of()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                op(*args)  # warm: the unfused scratch buffers are allocated here
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = op(*args)
        for a in args:
            a.copy_(torch.randn(a.shape, device="cuda").to(a.dtype))
        graph.replay()
        torch.cuda.synchronize()
        want = op(*args)
        same = all(torch.equal(bits(p), bits(q)) for p, q in zip(as_tuple(out), as_tuple(want)))
        log.check("CUDA graph of %s replays with new inputs" % label, same)

    # errors
    expect_error(log, "wrong dtype: TypeError naming the dtype wanted", lambda: seed.fused(x.half()), TypeError,
                 "fusec::seed: x must have dtype torch.float32 (f32 in the .fuse file), but it has dtype torch.float16")
    expect_error(log, "a CPU tensor: ValueError", lambda: seed.fused(x.cpu()), ValueError,
                 "fusec::seed: x must be a CUDA tensor, but it is on cpu")
    expect_error(log, "non-contiguous: ValueError", lambda: seed.fused(x[::2]), ValueError,
                 "fusec::seed: x must be contiguous")
    expect_error(log, "unfused, non-contiguous: ValueError", lambda: seed.unfused(x[::2]), ValueError,
                 "fusec::seed_unfused: x must be contiguous")
    a, b = torch.randn(4096, device="cuda"), torch.randn(4095, device="cuda")
    expect_error(log, "mismatched shapes: ValueError", lambda: swiglu.fused(a, b), ValueError,
                 "fusec::swiglu: b has shape [4095] but a has shape [4096]: every tensor of the chain must have the same shape")
    expect_error(log, "mixed devices: ValueError", lambda: swiglu.fused(a, a.cpu()), ValueError,
                 "fusec::swiglu: b must be a CUDA tensor, but it is on cpu")
    expect_error(log, "a wrong param type: torch's schema refuses it", lambda: mixed.fused(h, g, scale="x"),
                 Exception, "")
    if torch.cuda.device_count() > 1:
        expect_error(log, "tensors on two GPUs: ValueError", lambda: swiglu.fused(a, a.to("cuda:1")), ValueError,
                     "fusec::swiglu: b is on cuda:1 but a is on cuda:0: every tensor must be on one device")

    # shapes, n = 0, the current stream
    x2 = x[:1000000].view(1000, 1000)
    y2 = seed.fused(x2)
    log.check("a 2-D input: the output takes its shape", y2.shape == x2.shape and torch.equal(y2.flatten(), seed.fused(x[:1000000])))
    e = seed.fused(torch.empty(0, device="cuda"))
    log.check("n = 0: an empty output", e.shape == (0,))
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        ys = seed.fused(x)
    s.synchronize()
    log.check("on a side stream (torch.cuda.stream): the op runs there, in order", torch.equal(ys, seed.fused(x)))
    log.check("seed.fused equals eager exactly", torch.equal(seed.fused(x), ref))

    # the host cost of a hot call
    x4 = torch.randn(4096, device="cuda")
    eager = lambda t: torch.relu(t * 2.0 + 1.0) * 0.5  # noqa: E731
    torch._dynamo.reset()
    compiled = torch.compile(eager)
    costs = {k: wall_us(f, x4) for k, f in (("seed.fused", seed.fused), ("seed.unfused", seed.unfused),
                                            ("eager", eager), ("torch.compile", compiled))}
    log.check("hot call at n=4096 from Python: seed.fused <= 10 us", costs["seed.fused"] <= 10.0,
              ", ".join("%s %.2f us" % kv for kv in costs.items()))
    return costs


# --------------------------------------------------------------------------------------

def extension_checks(log, args, work, fusec, arch, nvcc):
    """Every example and --random programs built as torch extensions and checked
    (check_chain), the module's routes, the one-liner and the checks of one chain
    each (shaped_checks, special_checks)."""
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "randgen.py"), "--seed", str(args.seed),
                    "--count", str(args.random), "--out", os.path.join(work, "rand"),
                    "--ops-def", os.path.join(ROOT, "src", "ops.def")], check=True)
    examples = sorted(os.path.join(ROOT, "examples", f) for f in os.listdir(os.path.join(ROOT, "examples"))
                      if f.endswith(".fuse"))
    randoms = sorted(os.path.join(work, "rand", f) for f in os.listdir(os.path.join(work, "rand")))
    chains = examples + randoms
    log.say("building %d chains, %d at a time" % (len(chains), args.jobs))
    built = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs + 1) as pool:
        first = pool.submit(newcomer, work, fusec)
        futs = {pool.submit(build_chain, src, work, fusec, arch, nvcc): src for src in chains}
        for fut in concurrent.futures.as_completed(futs):
            name, ok, what = fut.result()
            built[name] = ok
            if not log.check("%s builds" % name, ok, what):
                with open(os.path.join(work, "logs", name + ".log")) as f:
                    log.say(f.read()[-3000:])
        rc, out, err = first.result()
        log.check("the issue's one-liner, as a newcomer runs it, prints 0", rc == 0 and
                  re.fullmatch(r"tensor\(0\., device='cuda:0'\)", out or ""), out or err)
    # the module's other routes, in processes of their own while the checks run
    routes = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    pending = {how: routes.submit(route, work, "seed", how) for how in ("prebuilt", "noninja")
               if built.get("seed")}
    for src in chains:
        name = os.path.splitext(os.path.basename(src))[0]
        if not built.get(name):
            continue
        try:
            check_chain(log, work, name, src, src in examples)
        except Exception:  # noqa: BLE001 - one chain's crash is its failure, the others go on
            log.check("%s checks" % name, False, traceback.format_exc()[-2000:])
    for how, fut in pending.items():
        rc, out, err, d = fut.result()
        want = os.path.join(d, "seed_torch.so") if how == "prebuilt" else os.path.join(d, "build")
        log.check("the module's %s route" % how, rc == 0 and out == [want, "1"], " ".join(out) or err)
    routes.shutdown()
    if built.get("layernorm_affine"):
        try:
            shaped_checks(log, import_chain(work, "layernorm_affine"))
        except Exception:  # noqa: BLE001
            log.check("shaped op checks", False, traceback.format_exc()[-3000:])
    if all(built.get(nm) for nm in ("seed", "swiglu", "mixed")):
        loaded = {nm: import_chain(work, nm) for nm in ("seed", "swiglu", "mixed")}
        try:
            costs = special_checks(log, loaded)
            log.records.append(dict(check="host cost per call, n=4096 (us)", ok=True, detail=costs))
        except Exception:  # noqa: BLE001
            log.check("torch.compile, CUDA graph, error and timing checks", False, traceback.format_exc()[-3000:])
    else:
        log.check("torch.compile, CUDA graph, error and timing checks", False, "seed, swiglu or mixed did not build")


def main():
    global torch
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fusec", default=os.path.join(ROOT, "build", "fusec"))
    ap.add_argument("--out", default=os.environ.get("OUT") or "gpu_check_out")
    ap.add_argument("--random", type=int, default=50, help="random programs (default 50)")
    ap.add_argument("--random-capi", type=int, default=0, metavar="N",
                    help="N more random programs, those after --random's, through their C API alone (default 0)")
    ap.add_argument("--only-capi", action="store_true",
                    help="--random-capi alone: no example, no --random program, no torch extension built")
    ap.add_argument("--files", nargs="+", metavar="F.fuse",
                    help="these programs instead of random ones, checked as --random-capi checks them (implies --only-capi)")
    ap.add_argument("--seed", type=int, default=2026, help="randgen.py's seed (default 2026)")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2),
                    help="builds at once (default: half the CPUs; each runs up to 2 compilers)")
    ap.add_argument("--keep", help="a folder for the builds (default: a temporary one, removed)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    log = Log(os.path.join(args.out, "gpu_check.log"))
    fusec = os.path.abspath(args.fusec)
    if not os.access(fusec, os.X_OK):
        log.check("fusec", False, "no executable %s (--fusec)" % fusec)
        return finish(log, args)
    import torch as t
    torch = t
    if not torch.cuda.is_available():
        log.check("a CUDA device", False, "torch sees none")
        return finish(log, args)
    nvcc = find_nvcc()
    os.environ["PATH"] = os.path.dirname(nvcc) + os.pathsep + os.environ.get("PATH", "")
    cap = torch.cuda.get_device_capability()
    arch = "sm_%d%d" % cap
    log.say("%s, torch %s (CUDA %s), %s, %d CPUs" % (torch.cuda.get_device_name(), torch.__version__,
                                                     torch.version.cuda, arch, os.cpu_count() or 0))
    work = args.keep or tempfile.mkdtemp(prefix="fusec_gpu_check_")
    for d in ("ext", "capi", "build", "logs", "rand"):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    try:
        if not args.only_capi and not args.files:
            extension_checks(log, args, work, fusec, arch, nvcc)
        if args.random_capi or args.files:
            random_capi(log, args, work, fusec, arch, nvcc)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return finish(log, args)


def finish(log, args):
    passed = sum(r["ok"] for r in log.records if r["check"] != "host cost per call, n=4096 (us)")
    failed = sum(not r["ok"] for r in log.records)
    with open(os.path.join(args.out, "gpu_check.json"), "w") as f:
        json.dump(dict(passed=passed, failed=failed, checks=log.records), f, indent=1)
    log.say("gpu_check: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

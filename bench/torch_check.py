#!/usr/bin/env python3
"""torch_check.py: fusec's two versions against PyTorch eager, on the same inputs.

    bench/torch_check.py FUSEC OUT [--n N] [--chain NAME,...] [--arch sm_90]

For each chain below (a .fuse program and the same chain written with torch),
fusec emits the library (the .cu without its harness), nvcc builds it as a
shared object, and ctypes calls NAME_unfused and NAME_fused on CUDA tensors
that torch made, with the params' default values. The unfused version must
equal eager bit for bit (each of its kernels is one of eager's, rounding to the
storage dtype as eager does; NaN matches NaN, zeros match in sign). The fused
version computes in f32 and rounds once, so it must be within the tolerance
bench/torch_bench.py uses between torch.compile and eager (that of the
narrowest float dtype the chain names: eager rounds an f16 intermediate of an
f32 chain, fused does not) or at least as close as eager to the same torch
function run on the inputs in float64 (a sum that cancels, where eager's
rounded intermediates are the larger error), except for a
fraction of elements (MAX_FLIP_FRAC) where a discontinuous op (a floor
division, a comparison) meets its jump. Writes OUT/torch_check.txt (the
builds go to a temporary folder); exits 1 on any mismatch. Needs a GPU, nvcc
and PyTorch. A chain with shapes (bias_gelu, layernorm_affine, rmsnorm_scale,
shapes_3d) runs at each dims of SHAPED_DIMS, its inputs each of its own shape
([C], [R, 1], ...), broadcast by eager as by fusec: rows of whole vectors, then
odd sizes that leave every row a scalar tail.
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile

import torch

MAX_FLIP_FRAC = 1e-4
TOL = {  # output dtype -> (rtol, atol) of fused against eager (torch_bench.py's)
    "f32": (1e-4, 1e-5), "f16": (1e-2, 1e-3), "bf16": (5e-2, 1e-2), "f64": (1e-9, 1e-12),
}
TORCH_DTYPE = {"bool": torch.bool, "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
               "f64": torch.float64, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
               "i64": torch.int64, "f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}
BITS = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32,
        torch.float64: torch.int64, torch.float8_e4m3fn: torch.uint8, torch.float8_e5m2: torch.uint8}
INTS = ("u8", "i8", "i16", "i32", "i64")
FP8 = ("f8e4m3", "f8e5m2")


def t_operators(x, h, m, k, s):
    p = -x ** 2 + 2 ** -1 * x + 2 ** 3 ** 2 + (7 % -3) * (-7 // 2)
    r = x % 3 + h % -2.5 + 2.5 % x
    q = x // s + h // 2 + 7 // x
    c = m & ~k | (x > 0) ^ m
    y = torch.where(c, p, q) + r
    return y, c


def t_mask_combine(x, valid, forced, pad, t):
    keep = valid & ((x > t) | forced) & ~pad
    return torch.where(keep, x, 0), keep


BF16_OPS = """# % // ** on bf16, each by a number and by a tensor
in a, b: bf16
y = a % 0.7 + b // -1.3 + (abs(a) + 1) ** 3 + a % b + 3.5 // b
"""


def t_bf16_ops(a, b):
    return a % 0.7 + b // -1.3 + (torch.abs(a) + 1) ** 3 + a % b + 3.5 // b


def t_bias_gelu(x, bias):
    return torch.nn.functional.gelu(x + bias).to(torch.bfloat16)


def t_layernorm_affine(x, mean, rstd, weight, bias):
    return ((x - mean) * rstd * weight + bias).to(torch.bfloat16)


def t_rmsnorm_scale(x, rstd, weight):
    return (x * rstd * weight).to(torch.bfloat16)


SHAPES_3D = """# three dims: per-(batch, column), per-column with an op of its own, per-row
in s: f32[B, 1, C]
in b: f32[C]
in r: f16[R, 1]
in x: f16
out y, z
b2 = b * 2
y = x * s + b2 * 0.5 - r
z = relu(y)
"""


def t_shapes_3d(s, b, r, x):
    y = x * s + b * 2 * 0.5 - r
    return y, torch.relu(y)


def t_ints(x, h, q, u, b, s, w, m, scale):
    """tests/golden/ints.fuse, as a PyTorch user writes it."""
    mix = u + b
    twice = q * 2 - s
    ratio = q * 2.5 + q / 2
    wrap = w * 3 + 9223372036854775807
    fd = q // b + q % 7 + (b // 0)
    wide = w // (q | 1) + w % 5
    bits = (u & 15 | ~b ^ s) + (m * 2) + (m & q)
    shifted = (q << 3) + (q >> b) + (u >> 9)
    keep = (torch.clamp(torch.abs(q - 1000), -5, 300) + torch.maximum(u, b) + torch.sign(s) + torch.relu(-w)
            + torch.where(m, q, -q))
    flo = torch.exp(u) + torch.sqrt(torch.abs(s)) + torch.floor(q)
    cmp = (q > b) & (w != 0) | (u <= 3.5)
    quant = torch.clamp(torch.round(x / scale), -128, 127).to(torch.int8)
    back = quant.float() * scale + w.to(torch.bfloat16) + q.half() + h
    u8_of_minus_1_5 = torch.tensor(-1.5, device=x.device).to(torch.uint8).item()  # fusec folds u8(-1.5) to 255
    cut = q.to(torch.uint8) + w.to(torch.int16) + (x * 1000).to(torch.int64) + u8_of_minus_1_5
    return mix, twice, ratio, wrap, fd, wide, bits, shifted, keep, flo, cmp, back, cut  # quant: not an output


# The corners of issue 16's integer rules, one output each, so that a mismatch
# names the rule: // and % by zero (and MIN by -1), shifts by negative counts and
# by the width or more, float -> integer of NaN, +-inf and out-of-range values
# (i8 through int16, u8 through int64), integer -> float rounding beyond 2^24 and
# 2^53, wrapping. The divisors and counts are small integers (zeros among them),
# the floats carry the special values (make_input, special=True).
INT_CORNERS = """# the corners of the integer rules (bench/torch_check.py)
in a, d: i32
in c, e: i64
in v, k: i8
in g, z: u8
in s, t: i16
in f: f32
in hf: f16
div_i32 = a // d
rem_i32 = a % d
div_i64 = c // e
rem_i64 = c % e
div_i8 = v // k
rem_i8 = v % k
div_u8 = g // z
rem_u8 = g % z
div_i16 = s // t
rem_i16 = s % t
shl_i32 = a << d
shr_i32 = a >> d
shl_i64 = c << e
shr_i64 = c >> e
shl_i8 = v << k
shr_i8 = v >> k
shl_u8 = g << z
shr_u8 = g >> z
shl_i16 = s << t
shr_i16 = s >> t
f_to_i8 = i8(f)
f_to_i16 = i16(f)
f_to_i32 = i32(f)
f_to_i64 = i64(f)
f_to_u8 = u8(f)
h_to_i8 = i8(hf)
h_to_u8 = u8(hf)
i64_to_f32 = f32(c)
i64_to_bf16 = bf16(c)
i64_to_f64 = f64(c)
i32_to_f16 = f16(a)
wrap_i64 = c * c + c
abs_i64 = abs(c)
neg_i8 = -v
"""

# A Python int beyond a tensor's range converts as eager's static_cast does (if
# eager raised here instead, fusec should make it an error).
INT_LITERALS = """# integer literals out of the tensor's range (bench/torch_check.py)
in v: i8
in g: u8
lit_i8 = v + 300
lit_u8 = g - 1
lit_u8_neg = g * -3
"""


def t_int_literals(v, g):
    return v + 300, g - 1, g * -3


def t_int_corners(a, d, c, e, v, k, g, z, s, t, f, hf):
    return (a // d, a % d, c // e, c % e, v // k, v % k, g // z, g % z, s // t, s % t,
            a << d, a >> d, c << e, c >> e, v << k, v >> k, g << z, g >> z, s << t, s >> t,
            f.to(torch.int8), f.to(torch.int16), f.to(torch.int32), f.to(torch.int64), f.to(torch.uint8),
            hf.to(torch.int8), hf.to(torch.uint8),
            c.float(), c.to(torch.bfloat16), c.double(), a.half(),
            c * c + c, torch.abs(c), -v)


# Every float dtype to every integer dtype, at the special values (NaN, +-inf,
# each range's edges and beyond): one output each, named FROM_to_TO.
FLOAT_CAST_INPUTS = (("f", "f32"), ("hf", "f16"), ("bh", "bf16"), ("df", "f64"))
FLOAT_CASTS = "# every float dtype to every integer dtype (bench/torch_check.py)\n" + "".join(
    "in %s: %s\n" % (v, dt) for v, dt in FLOAT_CAST_INPUTS) + "".join(
    "%s_to_%s = %s(%s)\n" % (v, i, i, v) for v, _ in FLOAT_CAST_INPUTS for i in INTS)


def t_float_casts(*xs):
    return tuple(x.to(TORCH_DTYPE[i]) for x in xs for i in INTS)


# Division by a number or a param: eager's div_true_kernel_cuda multiplies by
# the number's reciprocal (computed once on the host), which differs from a
# division in the last bit of some elements; quantize_i8's x / s is one.
DIV_BY_NUMBER = """# / by a number and by a param, in each float dtype (bench/torch_check.py)
in x: f32
in h: bf16
in hf: f16
in d: f64
param s: f32 = 0.3
x_lit = x / 3.7
x_param = x / s
h_param = h / s
hf_lit = hf / 3.7
d_lit = d / 3.7
"""


def t_div_by_number(x, h, hf, d, s):
    return x / 3.7, x / s, h / s, hf / 3.7, d / 3.7
E4M3, E5M2 = torch.float8_e4m3fn, torch.float8_e5m2


def t_fp8(x, h, d, s, q, r, inv_scale):
    """tests/golden/fp8.fuse, as a PyTorch user writes it."""
    return ((x.float() * inv_scale).to(E4M3), (h.float() * 16000.0).to(E5M2), (d * 100.0).to(E4M3),
            q.float() * s + r.float(), q.to(E5M2), q.to(torch.int8), r.bool() | q.bool(), q.clone(), h.to(E4M3),
            (x.float() * inv_scale).clamp(-448, 448.0).to(E4M3), (torch.tanh(h.float()) * 460.0).to(E4M3),
            q.to(torch.int8).to(E4M3), torch.where(r.bool() | q.bool(), q, 0.3))


# The corners of the fp8 conversions, one output per (source dtype, format),
# so that a mismatch names the path: from f32, bf16, f16 and f64 (c10's
# Float8 constructors, the f64 one through float) and back from each format.
# The float inputs start with FP8_SPECIALS (make_input, special="fp8": after FLOAT_SPECIALS), the
# fp8 inputs with the codes of FP8_CODES, then random codes.
FP8_CORNERS = """# the corners of the fp8 conversions (bench/torch_check.py)
in f: f32
in b: bf16
in h: f16
in d: f64
in q: f8e4m3
in r: f8e5m2
e4_f32 = f8e4m3(f)
e5_f32 = f8e5m2(f)
e4_bf16 = f8e4m3(b)
e5_bf16 = f8e5m2(b)
e4_f16 = f8e4m3(h)
e5_f16 = f8e5m2(h)
e4_f64 = f8e4m3(d)
e5_f64 = f8e5m2(d)
e4_f32_back = f32(q)
e5_f32_back = f32(r)
e4_bf16_back = bf16(q)
e5_f16_back = f16(r)
e4_f64_back = f64(q)
e4_to_e5 = f8e5m2(q)
e5_to_e4 = f8e4m3(r)
e4_i16 = i16(q)
e5_i32 = i32(r)
e4_bool = bool(q)
e5_copy = r
"""


def t_fp8_corners(f, b, h, d, q, r):
    return (f.to(E4M3), f.to(E5M2), b.to(E4M3), b.to(E5M2), h.to(E4M3), h.to(E5M2), d.to(E4M3), d.to(E5M2),
            q.float(), r.float(), q.to(torch.bfloat16), r.half(), q.double(), q.to(E5M2), r.to(E4M3),
            q.to(torch.int16), r.to(torch.int32), q.bool(), r.clone())


# Every f32 bit pattern (all 2^32: the boundaries, the subnormals of both
# formats and of f32, every NaN payload, +-inf) into both fp8 formats, both
# versions against eager's .to(), in chunks (check_all_floats). ec is every
# float through a clamp to e4m3's range: the saturating conversion alone
# (fx_to_f8e4m3_sat), which must be c10's there.
FP8_ALL_FLOATS = """# every f32 into f8e4m3 and f8e5m2 (bench/torch_check.py)
in f: f32
e4 = f8e4m3(f)
e5 = f8e5m2(f)
ec = f8e4m3(clamp(f, -448, 448.0))
"""


def t_fp8_all_floats(f):
    return f.to(E4M3), f.to(E5M2), f.clamp(-448, 448.0).to(E4M3)


def t_fp8_quantize(x, inv_scale):
    return (x.float() * inv_scale).clamp(-448, 448).to(E4M3)


def t_fp8_dequantize(q, scale):
    return (q.float() * scale).to(torch.bfloat16)


# A number divided by a tensor: eager's Tensor.__rtruediv__ is
# x.reciprocal() * number (two kernels, the reciprocal rounded to x's dtype
# between them); fusec's unfused kernel does the same in one (fx_rdiv, since
# session 16: docs/language.md).
NUMBER_BY_TENSOR = """# a number / a tensor (bench/torch_check.py)
in x: f32
in h: bf16
in q: i32
y = 2.5 / x
z = 3 / h
w = 2 / q
"""


def t_number_by_tensor(x, h, q):
    return 2.5 / x, 3 / h, 2 / q


def t_quantize_i8(x, s):
    return torch.clamp(torch.round(x / s), -128, 127).to(torch.int8)


def t_dequantize_i8(q, s):
    return (q * s).to(torch.bfloat16)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAINS = {  # name -> (.fuse path or text, torch function[, special inputs])
    "operators": (os.path.join(ROOT, "tests/golden/operators.fuse"), t_operators),
    "mask_combine": (os.path.join(ROOT, "examples/mask_combine.fuse"), t_mask_combine),
    "bf16_ops": (BF16_OPS, t_bf16_ops),
    "bias_gelu": (os.path.join(ROOT, "examples/bias_gelu.fuse"), t_bias_gelu),
    "layernorm_affine": (os.path.join(ROOT, "examples/layernorm_affine.fuse"), t_layernorm_affine),
    "rmsnorm_scale": (os.path.join(ROOT, "examples/rmsnorm_scale.fuse"), t_rmsnorm_scale),
    "shapes_3d": (SHAPES_3D, t_shapes_3d),
    "ints": (os.path.join(ROOT, "tests/golden/ints.fuse"), t_ints),
    "int_corners": (INT_CORNERS, t_int_corners, True),
    "int_literals": (INT_LITERALS, t_int_literals),
    "float_casts": (FLOAT_CASTS, t_float_casts, True),
    "div_by_number": (DIV_BY_NUMBER, t_div_by_number),
    "number_by_tensor": (NUMBER_BY_TENSOR, t_number_by_tensor),
    "quantize_i8": (os.path.join(ROOT, "examples/quantize_i8.fuse"), t_quantize_i8),
    "dequantize_i8": (os.path.join(ROOT, "examples/dequantize_i8.fuse"), t_dequantize_i8),
    "fp8": (os.path.join(ROOT, "tests/golden/fp8.fuse"), t_fp8),
    "fp8_corners": (FP8_CORNERS, t_fp8_corners, "fp8"),
    "fp8_quantize": (os.path.join(ROOT, "examples/fp8_quantize.fuse"), t_fp8_quantize, "fp8"),
    "fp8_dequantize": (os.path.join(ROOT, "examples/fp8_dequantize.fuse"), t_fp8_dequantize),
    "fp8_all_floats": (FP8_ALL_FLOATS, t_fp8_all_floats, "all"),
}
# A shaped chain runs at two sets of dims: rows of whole vectors, and odd sizes
# that leave every row a scalar tail (a dim not named here: 3).
SHAPED_DIMS = ({"R": 257, "C": 4096, "B": 3}, {"R": 63, "C": 1001, "B": 3})


def chain_dims(src):
    """The dims a chain's shapes name, in the order they first appear (the C API's)."""
    text = src if "\n" in src else open(src).read()
    dims = []
    for shape in re.findall(r"^\s*in\b[^\n#]*\[([^\]]*)\]", text, re.M):
        dims += [d.strip() for d in shape.split(",") if d.strip() != "1" and d.strip() not in dims]
    return dims


def build(fusec, name, src, out, arch, dims=None):
    """The chain's shared library and fusec's description of its API (a shaped
    chain's at dims)."""
    path = src
    if "\n" in src:
        path = os.path.join(out, name + ".fuse")
        with open(path, "w") as f:
            f.write(src)
    cu, so = os.path.join(out, name + ".cu"), os.path.join(out, "lib%s.so" % name)
    subprocess.run([fusec, "-w", "--name=" + name, path, "-o", cu], check=True)
    extra = ["--dims=" + ",".join("%s=%d" % kv for kv in dims.items())] if dims else []
    desc = json.loads(subprocess.run([fusec, "-w", "--predict", "--format=json", "--name=" + name, path] + extra,
                                     check=True, capture_output=True, text=True).stdout)
    subprocess.run(["nvcc", "-O3", "-arch=" + arch, "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared", cu,
                    "-o", so], check=True)
    return ctypes.CDLL(so), desc


# Around fp8's boundaries: e4m3's largest value 448, the tie 464 that rounds
# to it, values just above (NaN), 480; e5m2's 57344, the tie 61440 (inf) and
# below it; the subnormals and the ties below them; a double just above a
# halfway point of e4m3 (1 + 2^-4 + 2^-40: through float it ties to even, 1).
FP8_SPECIALS = [448.0, -448.0, 464.0, -464.0, 464.03125, -464.0625, 465.0, 479.9, 480.0, 500.0, 1e4,
                57344.0, -57344.0, 61439.0, 61440.0, -61440.0, 61441.0, 65504.0, 1e5, 2.0 ** -9, 2.0 ** -10,
                1.5 * 2.0 ** -10, -2.0 ** -10, 2.0 ** -16, 2.0 ** -17, 1.5 * 2.0 ** -17, 2.0 ** -6, 1.0625, 1.125,
                1.0625 + 2.0 ** -40, 1.1875, 3.0 * 2.0 ** -10]
# The fp8 codes an fp8 input starts with: +-0, the smallest subnormal, the
# largest, NaN (e4m3: 0x7f; e5m2: inf 0x7c and the NaNs 0x7d..0x7f), 1.
FP8_CODES = [0x00, 0x80, 0x01, 0x81, 0x7e, 0xfe, 0x7f, 0xff, 0x7c, 0xfc, 0x7d, 0x38, 0x3c, 0x07, 0x08]

FLOAT_SPECIALS = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 127.9, 128.5,
                  -128.5, -129.5, 255.9, 256.5, 300.5, -300.5, 32767.5, 32768.5, -32769.5, 65535.5, 65536.5,
                  2.0 ** 31, -2.0 ** 31 - 256, 2.0 ** 32, 2.0 ** 62, 2.0 ** 63, -2.0 ** 63, 1e19, -1e19, 1e30, -1e30]


def make_input(dtype, n, seed, special=False, device="cuda"):
    """Seeded inputs; n: an element count, or a shaped input's sizes (a tuple).
    Floats: N(0, 9). Integers: a quarter small ([-9, 9]: divisors with zeros, shift
    counts), a quarter in [-70, 70] (shift counts past every width), half every bit
    random, and the range's edges (MIN, MAX, 0, -1, 1) first. fp8: random codes,
    FP8_CODES first. special: floats start with FLOAT_SPECIALS (NaN, infinities,
    out of every range); special "fp8": then FP8_SPECIALS."""
    shape = n if isinstance(n, tuple) else (n,)
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    if dtype == "bool":
        return torch.rand(n, generator=g, device=device) < 0.5
    if dtype in FP8:  # random codes, every one of the 256; FP8_CODES first
        v = torch.randint(0, 256, shape, generator=g, device=device, dtype=torch.int32).to(torch.uint8)
        v.view(-1)[:len(FP8_CODES)] = torch.tensor(FP8_CODES, dtype=torch.uint8)
        return v.view(TORCH_DTYPE[dtype])
    if dtype in INTS:
        info = torch.iinfo(TORCH_DTYPE[dtype])
        wide = torch.randint(-2 ** 63, 2 ** 63 - 1, shape, generator=g, device=device, dtype=torch.int64)
        pick = torch.randint(0, 4, shape, generator=g, device=device)
        small = torch.randint(-9, 10, shape, generator=g, device=device, dtype=torch.int64)
        mid = torch.randint(-70, 71, shape, generator=g, device=device, dtype=torch.int64)
        v = torch.where(pick == 0, small, torch.where(pick == 1, mid, wide))
        edges = [info.min, info.max, 0, -1, 1, info.min + 1, info.max - 1][:v.numel()]
        v.view(-1)[:len(edges)] = torch.tensor(edges, dtype=torch.int64)
        return v.to(TORCH_DTYPE[dtype])  # the low bits: two's complement wrapping
    v = torch.randn(n, generator=g, device=device, dtype=TORCH_DTYPE[dtype]) * 3
    if special:  # (an unshaped input, of at least twice as many elements)
        sp = torch.tensor(FLOAT_SPECIALS + (FP8_SPECIALS if special == "fp8" else []),
                          dtype=torch.float64).to(TORCH_DTYPE[dtype])
        v[:len(sp)] = sp
        v[len(sp):2 * len(sp)] = -sp
    return v


def sizes_of(shape, dims):
    """A JSON shape (["R", "C"], [1, "C"]) at dims."""
    return tuple(d if isinstance(d, int) else dims[d] for d in shape)


def run(lib, name, version, ins, outs, params, dims=None):
    """dims: a shaped chain's sizes, in the C API's order; else n is the first input's."""
    fn = getattr(lib, "%s_%s" % (name, version))
    args = [ctypes.c_void_p(t.data_ptr()) for t in ins + outs]
    args += [ctypes.c_double(v) if dt == "f64" else ctypes.c_float(v) for v, dt in params]
    args += [ctypes.c_size_t(v) for v in (dims if dims else [ins[0].numel()])] + [ctypes.c_void_p(0)]
    torch.cuda.synchronize()
    err = fn(*args)
    torch.cuda.synchronize()
    if err != 0:
        raise RuntimeError("%s_%s returned CUDA error %d" % (name, version, err))


def same_bits(a, b):
    """Elementwise: the same value bit for bit, or both NaN (of any sign and
    payload: an e5m2 NaN code copied through float comes back as 0x7f)."""
    if a.dtype == torch.bool or a.dtype in [TORCH_DTYPE[i] for i in INTS]:
        return a == b
    return (a.view(BITS[a.dtype]) == b.view(BITS[b.dtype])) | (torch.isnan(a.float()) & torch.isnan(b.float()))


def item(t):
    """A one-element tensor's value (an fp8 one through float)."""
    return t.float().item() if t.dtype in (torch.float8_e4m3fn, torch.float8_e5m2) else t.item()


def fp8_hint(got, ref):
    """Why an f8e4m3 output may differ from eager: a PyTorch built with CUDA
    13.2 or later converts f32 with the hardware's saturating conversion
    (Copy.cu's AT_USE_NV_CVT_INTRINSICS): +-448 where c10's rule gives NaN."""
    g, r = got.float(), ref.float()
    sat = int((torch.isnan(g) & (r.abs() == 448)).sum())
    return "; %d are NaN here and +-448 in eager: this PyTorch saturates (the hardware's conversion)" % sat \
        if sat else ""


def check_all_floats(fusec, name, src, fn, out, arch, log):
    """A chain of one f32 input on every f32 bit pattern, 2^28 at a time: each
    output of both versions bit for bit against eager (NaN with NaN: fusec's
    clamp gives the canonical NaN where eager's keeps the operand's sign, so
    clamp(-NaN) into e4m3 is 0x7f here and 0xff there, docs/language.md)."""
    lib, desc = build(fusec, name, src, out, arch)
    chunk, bad, first = 1 << 28, {}, {}
    for start in range(0, 1 << 32, chunk):
        b = torch.arange(start, start + chunk, device="cuda", dtype=torch.int64)
        f = (b - (b >= 1 << 31).long() * (1 << 32)).to(torch.int32).view(torch.float32)
        del b
        want = fn(f)
        for version in ("unfused", "fused"):
            outs = [torch.empty(chunk, device="cuda", dtype=torch.uint8).view(TORCH_DTYPE[o["dtype"]])
                    for o in desc["outputs"]]
            run(lib, name, version, [f], outs, [])
            for o, got, ref in zip(desc["outputs"], outs, want):
                diff = ~same_bits(got, ref)  # a NaN's sign aside: min, max, clamp give the canonical NaN
                key = (version, o["name"], o["dtype"])
                bad[key] = bad.get(key, 0) + int(diff.sum())
                if key not in first and bool(diff.any()):
                    i = int(diff.nonzero()[0])
                    first[key] = "first at f = %r (bits 0x%08x): got 0x%02x, eager 0x%02x%s" % (
                        f[i].item(), (start + i) & 0xffffffff, got[i:i + 1].view(torch.uint8).item(),
                        ref[i:i + 1].view(torch.uint8).item(), fp8_hint(got, ref) if o["dtype"] == "f8e4m3" else "")
    ok = True
    for key, count in bad.items():
        log("%s %s %s %s (%s): %d of 2^32 floats differ (bit-exact)" % ("ok  " if count == 0 else "FAIL", name, *key,
                                                                         count))
        if count:
            log("     " + first[key])
        ok &= count == 0
    return ok


def check_chain(fusec, name, out, n, arch, log):
    src, fn = CHAINS[name][:2]
    special = len(CHAINS[name]) > 2 and CHAINS[name][2]
    if special == "all":
        return check_all_floats(fusec, name, src, fn, out, arch, log)
    names = chain_dims(src)
    if not names:
        return check_at(fusec, name, src, fn, out, n, arch, log, None, special)
    ok = True
    for dims in SHAPED_DIMS:
        ok &= check_at(fusec, name, src, fn, out, n, arch, log, {d: dims.get(d, 3) for d in names}, special)
    return ok


def check_at(fusec, name, src, fn, out, n, arch, log, dims, special=False):
    """One chain against eager: of n elements, or a shaped one at dims (its
    inputs each of its own shape, broadcast by eager as by fusec)."""
    lib, desc = build(fusec, name, src, out, arch, dims)
    size = lambda t: sizes_of(t["shape"], dims) if dims else n  # noqa: E731
    ins = [make_input(i["dtype"], size(i), 1000 + k, special) for k, i in enumerate(desc["inputs"])]
    params = [(p["value"], p["dtype"]) for p in desc["params"]]
    named = {i["dtype"] for i in desc["inputs"]} | {p["dtype"] for p in desc["params"]}
    text = open(src).read() if os.path.exists(src) else src
    named |= {d for d in TOL if re.search(r"\b%s\b" % d, text)}
    try:
        want = fn(*ins, *[v for v, _ in params])
    except Exception as e:  # eager refuses what fusec accepts: a semantic difference too
        log("FAIL %s: eager raised %s: %s" % (name, type(e).__name__, e))
        return False
    want = want if isinstance(want, tuple) else (want,)
    if len(want) != len(desc["outputs"]):  # zip would pair the wrong outputs (or drop some) without a word
        log("FAIL %s: the torch function returns %d values, fusec's chain has %d outputs (%s)" % (
            name, len(want), len(desc["outputs"]), ", ".join(o["name"] for o in desc["outputs"])))
        return False
    # the same torch function on the inputs in float64: where fused and eager
    # differ, fused passes if it is as close to this as eager is
    # (floats only: integer and bool inputs stay as they are)
    try:
        exact64 = fn(*[t.double() if t.is_floating_point() else t for t in ins], *[v for v, _ in params])
        exact64 = exact64 if isinstance(exact64, tuple) else (exact64,)
    except Exception:  # a chain that takes no float64 (fp8 casts): eager is the only yardstick
        exact64 = want
    api_dims = None
    if dims:
        n = desc["shape"]["elements"]
        api_dims = [dims[d] for d in desc["shape"]["dims"]]
        log("%s at %s (%d elements)" % (name, ", ".join("%s = %d" % kv for kv in dims.items()), n))
    ok = True
    for version in ("unfused", "fused"):
        outs = [torch.full(size(o) if dims else (n,), 77, device="cuda", dtype=torch.uint8).view(
                    TORCH_DTYPE[o["dtype"]]) if o["dtype"] in FP8 else
                torch.full(size(o) if dims else (n,), 77, device="cuda", dtype=TORCH_DTYPE[o["dtype"]])
                for o in desc["outputs"]]
        run(lib, name, version, ins, outs, params, api_dims)
        for o, got, ref, r64 in zip(desc["outputs"], outs, want, exact64):
            if got.dtype != ref.dtype or got.shape != ref.shape:
                log("FAIL %s %s %s: dtype %s, eager's %s; shape %s, eager's %s" % (
                    name, version, o["name"], got.dtype, ref.dtype, tuple(got.shape), tuple(ref.shape)))
                ok = False
                continue
            got, ref, r64 = got.flatten(), ref.flatten(), r64.flatten()
            exact = same_bits(got, ref)
            bad = int((~exact).sum())
            wrong = ~exact  # the elements outside the verdict's rule
            if version == "fused" and o["dtype"] in FP8:
                # fused keeps an f16 or bf16 intermediate in f32 that eager rounds: its
                # fp8 value may be the neighbouring code (the same sign), never further
                gc, rc = got.view(torch.uint8).long(), ref.view(torch.uint8).long()
                wrong = ~exact & (((gc - rc).abs() > 1) | ((gc ^ rc) & 0x80 != 0))
                verdict = int(wrong.sum()) == 0
                how = "each within 1 code: %d further" % int(wrong.sum())
            elif version == "fused" and o["dtype"] in INTS:
                # an integer made from floats that eager rounds to f16 or bf16 between
                # ops and the fused kernel keeps in f32 may round to the next integer
                # (compared without a subtraction, which wraps: 0 - INT64_MIN)
                g, r = got.long(), ref.long()
                wrong = ~exact & ~(((g > r) & (g - r == 1)) | ((g < r) & (r - g == 1)))
                verdict = int(wrong.sum()) == 0
                how = "each within 1: %d off by more" % int(wrong.sum())
            elif version == "unfused" or o["dtype"] == "bool":
                limit = 0 if version == "unfused" else int(n * MAX_FLIP_FRAC)
                verdict = bad <= limit
                how = "bit-exact" if version == "unfused" else "exact but %d flips" % limit
            else:  # fused keeps f16 and bf16 values in f32: the narrowest dtype of the chain's tolerance
                rtol, atol = max((TOL[d] for d in named | {o["dtype"]} if d in TOL), key=lambda t: t[0])
                g, r = got.double(), ref.double()
                r64 = r64.double()
                closer = torch.abs(g - r64) <= torch.abs(r - r64)  # no further from float64 than eager
                close = exact | (torch.abs(g - r) <= atol + rtol * torch.abs(r)) | closer
                wrong = ~close
                bad = int(wrong.sum())
                verdict = bad <= int(n * MAX_FLIP_FRAC)
                how = "rtol %g atol %g, or as close to float64 as eager" % (rtol, atol)
            if not verdict and o["dtype"] == "f8e4m3":
                how += fp8_hint(got, ref)
            log("%s %s %s %s (%s): %d of %d elements differ (%s)"
                % ("ok  " if verdict else "FAIL", name, version, o["name"], o["dtype"], bad, n, how))
            if not verdict:
                log_wrong(log, wrong, got, ref, ins, desc, dims)
            ok &= verdict
    return ok


def log_wrong(log, wrong, got, ref, ins, desc, dims, shown=3, pairs=6):
    """The first elements outside the verdict's rule, with their inputs (in the
    torch function's argument order), and the commonest (got, eager) pairs
    among the first 100,000 of them: enough to tell a rule from the counts."""
    idx = wrong.nonzero().flatten()
    for i in idx[:shown].tolist():
        where = [item(t[i]) for t in ins] if not dims else "element %d of %s" % (
            i, tuple(sizes_of(desc["shape"]["shape"], dims)))
        log("     at %d: got %r, eager %r; inputs %s" % (i, item(got[i]), item(ref[i]), where))
    tally = {}
    plain = lambda t: t.float() if t.dtype in (torch.float8_e4m3fn, torch.float8_e5m2) else t  # noqa: E731
    for gv, rv in zip(plain(got[idx[:100000]]).tolist(), plain(ref[idx[:100000]]).tolist()):
        key = (repr(gv), repr(rv))
        tally[key] = tally.get(key, 0) + 1
    common = sorted(tally.items(), key=lambda kv: -kv[1])[:pairs]
    log("     commonest (got, eager): %s" % ", ".join("(%s, %s) x%d" % (g, r, c) for (g, r), c in common))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fusec")
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=(1 << 22) + 3, help="elements (odd: the tail runs too)")
    ap.add_argument("--chain", default=",".join(CHAINS))
    ap.add_argument("--arch", default="sm_90")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="torch_check_")  # the .cu and .so files; OUT gets the log alone
    lines = []

    def log(s):
        print(s, flush=True)
        lines.append(s)

    log("torch %s, %s, n = %d" % (torch.__version__, torch.cuda.get_device_name(0), a.n))
    ok = True
    for name in a.chain.split(","):
        try:
            ok &= check_chain(os.path.abspath(a.fusec), name, work, a.n, a.arch, log)
        except Exception as e:  # a failed build or run: report it, check the other chains
            log("FAIL %s: %s: %s" % (name, type(e).__name__, str(e).strip().splitlines()[-1] if str(e).strip() else ""))
            ok = False
    log("all chains match PyTorch" if ok else "MISMATCHES: see above")
    with open(os.path.join(a.out, "torch_check.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

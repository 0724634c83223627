#!/usr/bin/env python3
"""fusion_bench.py: fusec's kernels beside PyTorch's, in one process, on the same inputs.

For every chain file given (a .fuse file whose comment holds a `# torch:` line, the
same chain written as a PyTorch user would), this script

  * compiles the chain with fusec into a library (the emitted .cu built with
    -DFUSEC_NO_HARNESS -shared, nvcc -O3 -arch=sm_90) and calls its C API through
    ctypes, on torch tensors, on torch's current stream;
  * times, interleaved call by call: a device-to-device copy of the fused
    version's bytes (the ceiling), torch eager (one kernel per op), torch.compile
    (Inductor, static shapes, compiled per size), fusec fused and fusec unfused
    (and fusec's CUB version, P_cub: the fused chain through cub::DeviceTransform,
    built with -DFUSEC_CUB where the .cu has that section, in a library of its own, so
    that the chain's library is the one a user builds: CUB compiled in reserves 1 KiB
    of shared memory in every kernel of the module, docs/cuda.md);
  * checks accuracy against a float64 evaluation (the torch line run on inputs
    upcast to float64), in ulps of the output dtype, on random inputs with special
    values (0, -0, +-inf, NaN, huge, tiny) planted at the start.

Timing, cold (the default; what the tables compare): before every timed call a
torch.cuda._sleep of about 0.5 ms and an L2 flush (a write of twice the L2) are
queued, then the start event, the call, the end event. The host queues the call
while the GPU sleeps, so the host's dispatch (Python, ctypes, torch.compile's
guards) does not count: the events see the GPU's time only, the first kernel's
launch latency included. Hot (the user's view from Python): back-to-back calls
between two events, divided by the calls; the host's dispatch counts there.
Each row is the median over --reps calls; --passes repeats the sweep, and the
row kept is the median of the passes' medians. Each cold rep times the versions
in a random order of its own (--order shuffle): a fixed place in the order is
not neutral (time_cold says what it measured). --code-warm adds fused, compile and cub
timed so again with their code fetched first: the same kernel run on inputs of its
own after the flush, before the start event, so that the timed call's data is cold
and its code is not; the difference is what fetching a cold call's code costs.

Outputs under --out: results.csv (every row), accuracy.csv, table.txt (what is
printed), inductor/ (Inductor's generated code, when --keep-inductor).

Needs torch with CUDA, nvcc and a built fusec (--fusec). --dry-run works without.
"""
import argparse
import ctypes
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

torch = None

DTYPES = {  # fusec dtype -> (torch dtype name, C type for a param)
    "bool": ("bool", None),
    "f16": ("float16", None),
    "bf16": ("bfloat16", None),
    "f32": ("float32", ctypes.c_float),
    "f64": ("float64", ctypes.c_double),
    "u8": ("uint8", None),
    "i8": ("int8", None),
    "i16": ("int16", None),
    "i32": ("int32", None),
    "i64": ("int64", None),
    "f8e4m3": ("float8_e4m3fn", None),
    "f8e5m2": ("float8_e5m2", None),
}
SIZES_DEFAULT = "2^12,2^16,2^20,2^22,2^24,2^26,2^28"
VERSIONS = ("copy", "eager", "compile", "fused", "unfused", "cub")

# --variants: the fused kernel rebuilt with a changed launch shape, each timed as a
# version of its own ("fused@x2"). A study tool: the shapes fusec emits are chosen
# from what these measure (docs/cuda.md). The parts, joined in one name ("x2r8"):
#   xK  K times the elements per thread of the large-n launch (E is a template
#       argument of the fused kernel; the host API's whole chunks follow it)
#   eN  N elements per thread in the large-n launch (e8 for an f16 chain: one vector)
#   lb  __launch_bounds__ asks for full occupancy (2048 threads per SM)
#   rN  __launch_bounds__ asks for N blocks per SM (a register cap of 65536 / (N * threads))
#   tN  N threads per block
#   sN  FX_SMALL_BLOCKS = N: half the elements per thread below N blocks (s0: never)
#   yN  FX_TINY_BLOCKS = N: one element a thread for a heavy kernel below N blocks
#   wN  FX_WIDE_BLOCKS = N: a busy kernel's one vector (not two) a thread below N blocks
#   id  nothing changed: the same source in a library of its own. Below 2^20 the same kernel
#       times up to 4-8% apart from two libraries (session 27's calls 3-4: not the modules'
#       loading order; cause not found), so `--variants id` measures the resolution of a
#       small-n ratio on the GPU in hand
#   cub the variant's library built with -DFUSEC_CUB (t128cub: the fused kernel as it is,
#       in a library with the CUB version compiled in: on sm_90 that reserves 1 KiB of
#       shared memory in every kernel of the module, docs/cuda.md; the chain's own
#       library is built without it and CUB's column comes from a library of its own)
def variant_parts(var):
    """A variant's name split into its parts: "x2r8" -> ["x2", "r8"]."""
    return re.findall(r"[a-z]+\d*", var)


def variant_source(src, api, var):
    kname = api + "_fused_kernel"
    decl = re.compile(r"__global__ void __launch_bounds__\([^)]*\) " + kname)
    for tok in variant_parts(var):
        if tok == "lb" or (tok[0] == "r" and tok[1:].isdigit()):
            bounds = "FX_THREADS, 2048 / FX_THREADS" if tok == "lb" else "FX_THREADS, %d" % int(tok[1:])
            src, k = decl.subn("__global__ void __launch_bounds__(%s) %s" % (bounds, kname), src, count=1)
            assert k == 1, "fusion_bench: no fused kernel declaration in the .cu"
        elif tok[0] in "xe" and tok[1:].isdigit():
            # the large-n launches: the last two, of E (the 64-bit one last; a misaligned
            # pointer's launch, of 1, comes first)
            big = re.findall(r"%s<size_t, (\d+)><<<fx_tail_blocks\(n, \d+\)" % kname, src)
            if not big:
                raise SystemExit("fusion_bench: variant %s: no 1-D fused launch in the .cu (a shaped chain?)" % var)
            e = int(big[-1])
            new = e * int(tok[1:]) if tok[0] == "x" else int(tok[1:])
            for it in ("unsigned", "size_t"):
                launch = r"(else(?: if \(n <= FX_INDEX32_MAX\))?\n\s+%s<%s, )%d(><<<fx_tail_blocks\(n, )%d\)" % (kname, it, e, e)
                src = re.sub(launch, lambda mm: mm.group(1) + str(new) + mm.group(2) + "%d)" % new, src)
        elif tok[0] == "t" and tok[1:].isdigit():
            src = src.replace("#define FX_THREADS 128", "#define FX_THREADS %d" % int(tok[1:]), 1)
        elif tok[0] in "syw" and tok[1:].isdigit():
            macro = {"s": "FX_SMALL_BLOCKS", "y": "FX_TINY_BLOCKS", "w": "FX_WIDE_BLOCKS"}[tok[0]]
            src, k = re.subn(r"#define %s \d+" % macro, "#define %s %d" % (macro, int(tok[1:])), src, count=1)
            assert k == 1, "fusion_bench: no %s in the .cu" % macro
        elif tok not in ("cub", "id"):
            raise SystemExit("fusion_bench: unknown variant part '%s' in '%s'" % (tok, var))
    return src


def parse_sizes(text):
    """A comma list of counts: 4096, 2^20, 1M (binary suffixes K, M, G)."""
    out = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"2\^(\d+)", part)
        if m:
            out.append(1 << int(m.group(1)))
            continue
        m = re.fullmatch(r"(\d+)([KMG]?)", part)
        if not m:
            raise SystemExit("fusion_bench: bad size '%s'" % part)
        out.append(int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)])
    return out


def log(msg):
    print("[%7.1fs] %s" % (time.perf_counter() - START, msg), file=sys.stderr, flush=True)


START = time.perf_counter()


# ---------------------------------------------------------------------------------
# Chains: the .fuse file, its signature from fusec's JSON report, its torch line.
# ---------------------------------------------------------------------------------

def torch_line(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*#\s*torch:\s*(.*)$", line)
            if m:
                return m.group(1)
    return None


def is_shaped(path):
    """Whether a .fuse file declares a shape (`in x: bf16[R, C]`): a line that starts with `in`
    and has a `[` before any comment."""
    with open(path) as f:
        return any(line.split("#")[0].lstrip().startswith("in ") and "[" in line.split("#")[0] for line in f)


def load_chain(path, fusec, build, variants=(), baseline=None):
    import json
    name = os.path.splitext(os.path.basename(path))[0]
    rep = json.loads(subprocess.check_output([fusec, "--emit=json", "-w", path]))
    cu = os.path.join(build, name + ".cu")
    subprocess.check_call([fusec, "-w", path, "-o", cu])
    src = open(cu).read()
    has_cub = "FUSEC_CUB" in src
    vars_ = {}
    if baseline:  # the fused kernel as another fusec build emits it: "fused@base"
        vcu = os.path.join(build, "%s@base.cu" % name)
        subprocess.check_call([baseline, "-w", path, "-o", vcu])
        vars_["base"] = {"cu": vcu, "so": os.path.join(build, "lib%s@base.so" % name), "has_cub": False}
    for v in variants:
        vcu = os.path.join(build, "%s@%s.cu" % (name, v))
        with open(vcu, "w") as f:
            f.write(variant_source(src, rep["name"], v))
        vars_[v] = {"cu": vcu, "so": os.path.join(build, "lib%s@%s.so" % (name, v)),
                    "has_cub": has_cub and "cub" in variant_parts(v)}
    return {"variants": vars_, "name": name, "path": path, "api": rep["name"], "torch": torch_line(path), "cu": cu,
            "so": os.path.join(build, "lib%s.so" % name), "has_cub": has_cub,
            "cub_so": os.path.join(build, "lib%s+cub.so" % name),
            "inputs": rep["inputs"], "outputs": rep["outputs"], "params": rep["params"],
            "fused_bpe": rep["fused"]["bytes_per_element"] if "bytes_per_element" in rep["fused"]
            else None, "report": rep}


def nvcc_build(c, arch):
    """The chain's library as a user builds it (no FUSEC_CUB), and CUB's version in a
    library of its own (a variant: as its parts say)."""
    def build(cub, so):
        subprocess.check_call(["nvcc"] + (["-DFUSEC_CUB"] if cub else []) +
                              ["-O3", "-arch=" + arch, "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared",
                               c["cu"], "-o", so])
    if "cub_so" in c:  # a chain
        build(False, c["so"])
        if c["has_cub"]:
            build(True, c["cub_so"])
    else:  # a variant
        build(c["has_cub"], c["so"])
    return c


def bind(c):
    for v, d in c["variants"].items():
        lib = ctypes.CDLL(d["so"])
        fn = getattr(lib, "%s_fused" % c["api"])
        fn.argtypes = signature(c)
        fn.restype = ctypes.c_int
        c["fused@" + v] = fn
    lib = ctypes.CDLL(c["so"])
    for ver in ("fused", "unfused", "cub"):
        if ver == "cub":
            if not c["has_cub"]:
                continue
            lib = ctypes.CDLL(c["cub_so"])
        sym = "%s_%s" % (c["api"], ver)
        if not hasattr(lib, sym):
            continue
        fn = getattr(lib, sym)
        fn.argtypes = signature(c)
        fn.restype = ctypes.c_int
        c[ver] = fn
    return c


def signature(c):
    args = [ctypes.c_void_p] * (len(c["inputs"]) + len(c["outputs"]))
    args += [DTYPES[p["dtype"]][1] for p in c["params"]]
    return args + [ctypes.c_size_t, ctypes.c_void_p]


def tdtype(name):
    return getattr(torch, DTYPES[name][0])


def make_inputs(c, n, seed, special=False):
    """Random inputs, never zeros: N(0, 1) floats (scaled by 3), random bools.
    special: plant 0, -0, +-inf, NaN, huge and tiny values at the start."""
    g = torch.Generator(device="cuda")
    out = []
    for i, t in enumerate(c["inputs"]):
        g.manual_seed(seed * 1000 + i)
        if t["dtype"] == "bool":
            out.append(torch.rand(n, generator=g, device="cuda") < 0.5)
            continue
        if not tdtype(t["dtype"]).is_floating_point:  # integers: small ones, and the range's edges
            info = torch.iinfo(tdtype(t["dtype"]))
            v = torch.randint(max(info.min, -100), 101, (n,), generator=g, device="cuda", dtype=torch.int64)
            if special:
                sp = [info.min, info.max, 0, 1, info.min + 1, info.max - 1] + ([-1] if info.min < 0 else [])
                v[:len(sp)] = torch.tensor(sp, dtype=torch.int64)
            out.append(v.to(tdtype(t["dtype"])))
            continue
        v = torch.randn(n, generator=g, device="cuda", dtype=torch.float64) * 3
        if special:
            fin = torch.finfo(tdtype(t["dtype"]))
            sp = [0.0, -0.0, math.inf, -math.inf, math.nan, fin.max, -fin.max, fin.tiny, -fin.tiny,
                  fin.tiny * fin.eps, 88.0, -88.0, 20.0, -20.0, 1e4, -1e4, 0.5, -0.5, 1.0, -1.0]
            k = min(len(sp), n)
            v[:k] = torch.tensor(sp[:k], dtype=torch.float64)
            v[k:2 * k] = -v[:k]
        out.append(v.to(tdtype(t["dtype"])))
    return out


def torch_fn(c):
    """The chain's torch line as a function of the inputs, returning the outputs in
    the chain's output order."""
    names = [t["name"] for t in c["inputs"]]
    params = {p["name"]: p["value"] for p in c["params"]}
    outs = [t["name"] for t in c["outputs"]]
    src = "def chain(%s):\n" % ", ".join(names)
    for k, v in params.items():
        src += "    %s = %r\n" % (k, v)
    for stmt in c["torch"].split(";"):
        src += "    %s\n" % stmt.strip()
    src += "    return (%s,)\n" % ", ".join(outs)
    env = {"torch": torch}
    exec(compile(src, c["path"] + ":torch", "exec"), env)
    return env["chain"]


def fusec_call(c, ver, ins):
    """A call of a fusec version that allocates its outputs as a torch op does (torch.empty,
    from the caching allocator, freed when the caller drops them), as eager's and Inductor's
    calls do: each version's outputs come from the same pool (until session 23 each had
    buffers of its own; that did not explain the fused column's 2-5% at 2^12 against the
    same kernel from another library, which stayed: calls 6-7 of session 23)."""
    fn = c[ver]
    par = [p["value"] for p in c["params"]]
    n = ins[0].numel()
    stream = torch.cuda.current_stream().cuda_stream

    def call():
        outs = alloc_outputs(c, n)
        rc = fn(*[t.data_ptr() for t in ins], *[t.data_ptr() for t in outs], *par, n, stream)
        if rc != 0:
            raise RuntimeError("%s_%s returned CUDA error %d" % (c["api"], ver, rc))
        return outs
    return call


def alloc_outputs(c, n):
    return [torch.empty(n, dtype=tdtype(t["dtype"]), device="cuda") for t in c["outputs"]]


# ---------------------------------------------------------------------------------
# Accuracy: ulps of the output dtype against a float64 evaluation.
# ---------------------------------------------------------------------------------

MANT = {"float16": 10, "bfloat16": 7, "float32": 23, "float64": 52, "float8_e4m3fn": 3, "float8_e5m2": 2}


def ulp_error(got, ref, ins):
    """(max ulps, worst input, specials): the largest error in ulps of the output
    dtype where both the result and the float64 reference are finite; the input
    where it occurs; and how many elements are non-finite where the reference
    is finite or the other way round (overflow of an intermediate in the
    tensor's dtype shows here, for every implementation alike). Bool outputs:
    the count of mismatches."""
    if got.dtype == torch.bool:
        bad = got != ref.bool()
        return float(bad.sum().item()), first_input(ins, bad), 0
    if not got.dtype.is_floating_point:  # integers: the count of mismatches
        bad = got != ref.to(got.dtype)
        return float(bad.sum().item()), first_input(ins, bad), 0
    g = got.double()
    fin = torch.finfo(got.dtype)
    rr = ref.double().to(got.dtype).double()  # the reference correctly rounded
    ok = torch.isfinite(g) & torch.isfinite(rr)
    specials = int((~ok & ~(torch.isnan(g) & torch.isnan(rr)) & (g != rr)).sum().item())
    if not ok.any():
        return 0.0, None, specials
    r = ref.double()
    a = r.abs().clamp_min(fin.tiny)
    ulp = torch.exp2(torch.floor(torch.log2(a)) - MANT[DTYPES_T[got.dtype]])
    err = torch.where(ok, (g - r).abs() / ulp, torch.zeros_like(g))
    k = int(torch.argmax(err).item())
    return float(err[k].item()), [float(t[k].double().item()) for t in ins] + [float(g[k].item()), float(r[k].item())], specials


def first_input(ins, bad):
    idx = torch.nonzero(bad)
    if idx.numel() == 0:
        return None
    k = int(idx[0].item())
    return [float(t[k].double().item()) for t in ins]


DTYPES_T = {}


def accuracy(c, fns, n, seed):
    ins = make_inputs(c, n, seed, special=True)
    ref_ins = [t.double() if t.dtype != torch.bool else t for t in ins]
    ref = c["eager"](*ref_ins)
    res = {}
    for ver, fn in fns.items():
        if ver == "copy":
            continue
        outs = fn(ins)
        res[ver] = [ulp_error(o, r, ins) for o, r in zip(outs, ref)]
    return res


# ---------------------------------------------------------------------------------
# Timing.
# ---------------------------------------------------------------------------------

def sleep_cycles(us, flush):
    """Cycles of torch.cuda._sleep that take about `us` microseconds, measured with
    the clocks up (after a second of work: an idle GPU's clock is several times
    lower, and a sleep calibrated then would be too short once it runs fast)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0:
        for _ in range(20):
            flush.zero_()
        torch.cuda.synchronize()
    best = None
    for _ in range(3):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.cuda._sleep(1000000)
        end.record()
        end.synchronize()
        t = start.elapsed_time(end) * 1e3 / 1000000
        best = t if best is None else min(best, t)
    return int(us / best)


def time_cold(calls, flush, reps, cycles, order_rule="shuffle", seed=0, warm=None):
    """calls: version -> zero-argument callable. Interleaved: each rep times every
    version once, each alone after a sleep and an L2 flush, in an order that
    changes from rep to rep: "shuffle" (the default), a random order of its own
    each rep, so that every version takes every place in turn; "alternate", the
    versions' order and its reverse by turns (runs before 15 of docs/results.md),
    which leaves the middle version always in the middle: fusec's fused kernel,
    measured there 0.3-0.8 us slower at 2^12-2^20 than the same kernel timed at
    the ends (run 15), so that those runs' small-n ratios were biased against it.
    warm: version -> a call of the same kernels on inputs of their own, made after the
    flush and before the start event, so that the timed call finds its code fetched
    and its data still cold (--code-warm); what it returns is kept until the rep ends,
    so that the timed call's outputs come from other blocks of the allocator."""
    import random
    rng = random.Random(seed)
    samples = {v: [] for v in calls}
    order = list(calls)
    for r in range(reps):
        pairs, keep = [], []
        if order_rule == "shuffle":
            rng.shuffle(order)
            seq = list(order)
        else:
            seq = order if r % 2 == 0 else order[::-1]
        for v in seq:
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda._sleep(cycles)
            flush.zero_()
            if warm and v in warm:
                keep.append(warm[v]())
            s.record()
            calls[v]()
            e.record()
            pairs.append((v, s, e))
        torch.cuda.synchronize()
        for v, s, e in pairs:
            samples[v].append(s.elapsed_time(e) * 1e3)
    return {v: statistics.median(x) for v, x in samples.items()}


def time_hot(calls, loops, est_us):
    out = {v: [] for v in calls}
    order = list(calls)
    for loop in range(loops):
        for v in (order if loop % 2 == 0 else order[::-1]):
            k = int(min(max(20000.0 / max(est_us[v], 1.0), 20), 2000))
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(k):
                calls[v]()
            e.record()
            e.synchronize()
            out[v].append(s.elapsed_time(e) * 1e3 / k)
    return {v: statistics.median(x) for v, x in out.items()}


def bytes_fused(c, n):
    b = 0
    for t in c["inputs"] + c["outputs"]:
        b += n * torch.empty(0, dtype=tdtype(t["dtype"])).element_size()
    return b


def run_chain(c, sizes, args, flush, cycles, rows, acc_rows):
    eager = torch_fn(c)
    c["eager"] = eager
    log("chain %s" % c["name"])
    for n in sizes:
        ins = make_inputs(c, n, args.seed)
        need = bytes_fused(c, n)
        try:
            src = torch.empty(need // 2, dtype=torch.uint8, device="cuda").fill_(7)
            dst = torch.empty_like(src)
        except torch.OutOfMemoryError:
            log("  n=%d: out of memory, skipped" % n)
            continue
        torch._dynamo.reset()
        compiled = torch.compile(eager, dynamic=False)
        t0 = time.perf_counter()
        compiled(*ins)
        torch.cuda.synchronize()
        compile_s = time.perf_counter() - t0
        calls = {
            "copy": lambda: dst.copy_(src),
            "eager": lambda: eager(*ins),
            "compile": lambda: compiled(*ins),
            "fused": fusec_call(c, "fused", ins),
            "unfused": fusec_call(c, "unfused", ins),
        }
        if "cub" in c:
            calls["cub"] = fusec_call(c, "cub", ins)
        for v in c["variants"]:
            calls["fused@" + v] = fusec_call(c, "fused@" + v, ins)
        # every fusec version writes what the fused kernel writes
        ref_out = [o.clone() for o in calls["fused"]()]
        # (fused@base is another build of fusec: its results may differ in the last bit)
        for v in [k for k in calls if (k.startswith("fused@") and k != "fused@base") or k == "cub"]:
            got = calls[v]()
            for a, b in zip(got, ref_out):
                if a.element_size() == 1 and a.is_floating_point():  # fp8: its bits (torch.equal has no fp8)
                    a, b = a.view(torch.uint8), b.view(torch.uint8)
                if not torch.equal(a, b) and not (a.is_floating_point() and torch.equal(torch.isnan(a), torch.isnan(b))
                                                  and torch.equal(a[~torch.isnan(a)], b[~torch.isnan(b)])):
                    raise SystemExit("fusion_bench: %s %s differs from fused at n=%d" % (c["name"], v, n))
        del ref_out
        torch.cuda.synchronize()
        for _ in range(3):
            for f in calls.values():
                f()
        torch.cuda.synchronize()
        est = {}
        for v, f in calls.items():
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            f()
            e.record()
            e.synchronize()
            est[v] = s.elapsed_time(e) * 1e3
        warm = {}
        if args.code_warm:  # the one-kernel versions again, their code fetched first (time_cold)
            ins2 = make_inputs(c, n, args.seed + 2)
            warm = {"compile+warm": lambda: compiled(*ins2), "fused+warm": fusec_call(c, "fused", ins2)}
            if "cub" in calls:
                warm["cub+warm"] = fusec_call(c, "cub", ins2)
        timed = dict(calls, **{v: calls[v[:-len("+warm")]] for v in warm})
        for p in range(args.passes):
            cold = time_cold(timed, flush, args.reps, cycles, args.order, args.seed * 1000 + p, warm)
            for v, us in cold.items():
                rows.append((c["name"], n, v, "cold", p, us))
            if "hot" in args.modes:
                hot = time_hot(calls, 5, est)
                for v, us in hot.items():
                    rows.append((c["name"], n, v, "hot", p, us))
        log("  n=%d done (compile %.1f s)" % (n, compile_s))
        del ins, src, dst, calls, compiled, warm, timed
    # accuracy at one size, every version on the same inputs with special values
    n = 1 << 20
    ins_probe = make_inputs(c, n, args.seed + 1, special=True)
    torch._dynamo.reset()
    compiled = torch.compile(eager, dynamic=False)
    fns = {
        "eager": lambda ins: eager(*ins),
        "compile": lambda ins: compiled(*ins),
        "fused": lambda ins: fusec_call(c, "fused", ins)(),
        "unfused": lambda ins: fusec_call(c, "unfused", ins)(),
    }
    if "cub" in c:
        fns["cub"] = lambda ins: fusec_call(c, "cub", ins)()
    del ins_probe
    if args.kernels:
        kt = kernel_times(c, parse_sizes(args.kernels)[0], args.seed, flush)
        c["kernel_times"] = kt
    res = accuracy(c, fns, n, args.seed + 1)
    for v, errs in res.items():
        for o, (e, where, sp) in zip(c["outputs"], errs):
            acc_rows.append((c["name"], o["name"], o["dtype"], v, e, sp, where))


def kernel_times(c, n, seed, flush):
    """Each kernel of eager's run and of fusec's unfused version at size n, timed by
    CUPTI (torch.profiler), each call after an L2 flush as the cold tables time it:
    (name, us) in launch order, the median over 10 calls. The flush is a fill of
    int64 (FillFunctor<long>, which no chain's eager run launches), dropped by name."""
    from torch.profiler import profile, ProfilerActivity
    ins = make_inputs(c, n, seed)
    wipe = flush.view(torch.int64)
    res = {}
    for ver, f in (("eager", lambda: c["eager"](*ins)), ("unfused", fusec_call(c, "unfused", ins))):
        for _ in range(3):
            f()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                wipe.zero_()
                f()
            torch.cuda.synchronize()
        ks = [(e.name, e.time_range.elapsed_us()) for e in prof.events()
              if e.device_type == torch.autograd.DeviceType.CUDA and not e.name.startswith(("Memcpy", "Memset"))
              and "FillFunctor<long>" not in e.name]
        per = len(ks) // 10
        res[ver] = [(ks[i][0], statistics.median(ks[j * per + i][1] for j in range(10))) for i in range(per)]
    return res


def kernel_pairs(kt):
    """eager's kernels beside fusec's unfused ones, in launch order. An eager kernel
    under a tenth of fusec's shortest touches no n-sized array (a 0-dim operand's
    fill or copy, about 1 us): it stands alone, so that each op's kernel meets its own.
    At small n (fusec's kernels of 3 us and less) such a kernel is above that cut and
    shifts the pairs: --kernels is meant for sizes of 2^20 and more."""
    floor = 0.1 * min((us for _, us in kt["unfused"]), default=0)
    pairs, u = [], list(kt["unfused"])
    for e in kt["eager"]:
        pairs.append((e, ("-", None) if e[1] < floor or not u else u.pop(0)))
    return pairs + [(("-", None), x) for x in u]


def summarize(rows, acc_rows, chains, out):
    med = {}
    for name, n, v, mode, p, us in rows:
        med.setdefault((name, n, v, mode), []).append(us)
    med = {k: statistics.median(x) for k, x in med.items()}
    lines = []
    lines.append("cold, GPU time with host dispatch hidden; us; ratio = other / fused (>= 1: fused wins); "
                 "%copy: copy time / fused time, cub%cp: copy time / CUB's time")
    lines.append("%-12s %6s %9s %9s %9s %9s %9s %9s  %7s %7s %8s %6s %6s" % (
        "chain", "n", "copy", "eager", "compile", "unfused", "fused", "cub", "ind/fu", "cub/fu",
        "eag/unf", "%copy", "cub%cp"))
    worst, worst_cub = [], []
    f = lambda x, w=9, d=1: ("%*.*f" % (w, d, x)) if x is not None else " " * (w - 1) + "-"  # a cell, "-" if none
    for c in chains:
        sizes = sorted({k[1] for k in med if k[0] == c["name"]})
        for n in sizes:
            g = lambda v: med.get((c["name"], n, v, "cold"))
            fu, ind, cub, eag, unf, cp = g("fused"), g("compile"), g("cub"), g("eager"), g("unfused"), g("copy")
            r_ind = ind / fu if fu and ind else None
            r_cub = cub / fu if fu and cub else None
            r_eag = eag / unf if unf and eag else None
            pc = 100.0 * cp / fu if fu and cp else None
            pc_cub = 100.0 * cp / cub if cub and cp else None
            lines.append("%-12s %6s %s %s %s %s %s %s  %s %s %s %s %s" % (
                c["name"], fmt_n(n), f(cp), f(eag), f(ind), f(unf), f(fu), f(cub), f(r_ind, 7, 3),
                f(r_cub, 7, 3), f(r_eag, 8, 3), f(pc, 6, 1), f(pc_cub, 6, 1)))
            if r_ind is not None:
                worst.append((r_ind, c["name"], n))
            if r_cub is not None:
                worst_cub.append((r_cub, c["name"], n))
    variants = sorted({k[2] for k in med if k[2].startswith("fused@")})
    if variants:
        lines.append("")
        lines.append("variants (--variants, --baseline), cold: us, and variant time / fused time (> 1: fused is faster)")
        lines.append("%-12s %6s %9s" % ("chain", "n", "fused") + "".join(" %14s %6s" % (v, "/fused") for v in variants))
        for c in chains:
            for n in sorted({k[1] for k in med if k[0] == c["name"]}):
                fu = med.get((c["name"], n, "fused", "cold"))
                cells = ""
                for v in variants:
                    t = med.get((c["name"], n, v, "cold"))
                    cells += " %14s %6s" % ("%.1f" % t if t else "-", "%.3f" % (t / fu) if t and fu else "-")
                lines.append("%-12s %6s %9.1f" % (c["name"], fmt_n(n), fu or 0) + cells)
    if any(k[2].endswith("+warm") for k in med):
        lines.append("")
        lines.append("cold, each one-kernel version also with its code fetched first (--code-warm: the same kernel "
                     "on inputs of its own after the flush, before the start event): us, and what the fetch costs")
        lines.append("%-12s %6s %9s %9s %6s %9s %9s %6s  %7s %7s" % (
            "chain", "n", "fused", "warm", "fetch", "compile", "warm", "fetch", "ind/fu", "warm"))
        for c in chains:
            for n in sorted({k[1] for k in med if k[0] == c["name"] and k[2].endswith("+warm")}):
                g = lambda v: med.get((c["name"], n, v, "cold"))
                fu, fw, ind, iw = g("fused"), g("fused+warm"), g("compile"), g("compile+warm")
                d = lambda a, b: a - b if a is not None and b is not None else None
                r = lambda a, b: a / b if a and b else None
                lines.append("%-12s %6s %s %s %s %s %s %s  %s %s" % (
                    c["name"], fmt_n(n), f(fu), f(fw), f(d(fu, fw), 6, 2), f(ind), f(iw), f(d(ind, iw), 6, 2),
                    f(r(ind, fu), 7, 3), f(r(iw, fw), 7, 3)))
    if any(k[3] == "hot" for k in med):
        lines.append("")
        lines.append("hot, back to back from Python (the user's view); us per call")
        lines.append("%-12s %6s %9s %9s %9s %9s %9s" % ("chain", "n", "eager", "compile", "unfused", "fused", "cub"))
        for c in chains:
            sizes = sorted({k[1] for k in med if k[0] == c["name"] and k[3] == "hot"})
            for n in sizes:
                g = lambda v: med.get((c["name"], n, v, "hot"))
                lines.append("%-12s %6s %s %s %s %s %s" % (c["name"], fmt_n(n), f(g("eager")), f(g("compile")),
                                                         f(g("unfused")), f(g("fused")), f(g("cub"))))
    lines.append("")
    lines.append("accuracy: max error in ulps of the output dtype against float64 where both are finite "
                 "(bool: mismatches), /N: N elements non-finite on one side only; 2^20 random inputs with special values")
    lines.append("%-12s %-6s %-5s %12s %12s %12s %12s %12s" % ("chain", "out", "dtype", "eager", "compile", "unfused",
                                                          "fused", "cub"))
    acc = {}
    for name, o, dt, v, e, sp, where in acc_rows:
        acc.setdefault((name, o, dt), {})[v] = e if not sp else "%.3g/%d" % (e, sp)
    for (name, o, dt), d in acc.items():
        f = lambda v: ("%12s" % (d[v] if isinstance(d[v], str) else "%.3g" % d[v])) if v in d else "           -"
        lines.append("%-12s %-6s %-5s %s %s %s %s %s" % (name, o, dt, f("eager"), f("compile"), f("unfused"),
                                                      f("fused"), f("cub")))
    for c in chains:
        kt = c.get("kernel_times")
        if not kt:
            continue
        lines.append("")
        lines.append("%s: each kernel, eager's and fusec's unfused, us (CUPTI, each call after an L2 flush); "
                     "ratio = eager / fusec (>= 0.97 wanted)" % c["name"])
        for e, u in kernel_pairs(kt):
            r = "%.3f" % (e[1] / u[1]) if e[1] and u[1] else "-"
            lines.append("  %-60.60s %9s | %-28.28s %9s  %s" % (e[0], "%.1f" % e[1] if e[1] else "-", u[0],
                                                            "%.1f" % u[1] if u[1] else "-", r))
    if worst:
        worst.sort()
        lines.append("")
        lines.append("worst fused vs Inductor (compile us / fused us): " +
                     ", ".join("%s@%s %.3f" % (nm, fmt_n(n), r) for r, nm, n in worst[:8]))
    if worst_cub:
        worst_cub.sort()
        lines.append("worst fused vs CUB (cub us / fused us): " +
                     ", ".join("%s@%s %.3f" % (nm, fmt_n(n), r) for r, nm, n in worst_cub[:8]))
    text = "\n".join(lines)
    print(text)
    if out:
        with open(os.path.join(out, "table.txt"), "w") as f:
            f.write(text + "\n")


def fmt_n(n):
    return "2^%d" % (n.bit_length() - 1) if n & (n - 1) == 0 else str(n)


def write_csvs(out, rows, acc_rows):
    with open(os.path.join(out, "results.csv"), "w") as f:
        f.write("chain,n,version,mode,pass,us\n")
        for r in rows:
            f.write("%s,%d,%s,%s,%d,%.3f\n" % r)
    with open(os.path.join(out, "accuracy.csv"), "w") as f:
        f.write("chain,output,dtype,version,max_ulps,specials,worst\n")
        for r in acc_rows:
            f.write("%s,%s,%s,%s,%.6g,%d,%s\n" % (r[:6] + (" ".join("%.9g" % x for x in r[6]) if r[6] else "",)))


def main():
    global torch
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog=__doc__.split("\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("chains", nargs="+", help=".fuse files with a '# torch:' line")
    ap.add_argument("--fusec", default="build/fusec")
    ap.add_argument("--sizes", default=SIZES_DEFAULT)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--modes", default="cold,hot")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sleep-us", type=float, default=1000.0,
                    help="GPU sleep queued before each cold call, so the host is ahead (default 1000)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--out", default=None, help="folder for results.csv, accuracy.csv, table.txt")
    ap.add_argument("--build", default=None, help="folder for the .cu and .so files (default: OUT/build)")
    ap.add_argument("--keep-inductor", action="store_true", help="copy Inductor's generated code into OUT")
    ap.add_argument("--variants", default="", help="comma list of fused-kernel shapes to time too (x2, e8, lb, r8, x2r8, t256)")
    ap.add_argument("--kernels", default=None, metavar="N",
                    help="also time each kernel of eager and of fusec's unfused version at size N (torch.profiler, each call after an L2 flush; N of 2^20 or more: kernel_pairs)")
    ap.add_argument("--order", choices=("shuffle", "alternate"), default="shuffle",
                    help="the versions' order in each cold rep (default shuffle: a new random order each rep)")
    ap.add_argument("--baseline", metavar="FUSEC", default=None,
                    help="another fusec build: its fused kernel timed too, as fused@base (an A/B of two builds)")
    ap.add_argument("--code-warm", action="store_true",
                    help="also time fused, compile and cub cold with their code fetched first (time_cold's warm)")
    ap.add_argument("--no-cub", action="store_true",
                    help="no CUB column (CUB's version is built and timed from a library of its own otherwise)")
    ap.add_argument("--dry-run", action="store_true", help="compile the chains with fusec and stop")
    args = ap.parse_args()
    sizes = parse_sizes(args.sizes)
    out = args.out
    if out:
        os.makedirs(out, exist_ok=True)
    build = args.build or os.path.join(out or ".", "build")
    os.makedirs(build, exist_ok=True)
    chains = []
    for p in args.chains:
        if torch_line(p) is None:
            log("skipped %s: no '# torch:' line" % p)
            continue
        if is_shaped(p):  # its C API takes dims, not n: bench/shaped_bench.py times those
            log("skipped %s: a shaped chain (bench/shaped_bench.py times shaped chains)" % p)
            continue
        chains.append(load_chain(p, args.fusec, build, [v for v in args.variants.split(",") if v], args.baseline))
        if args.no_cub:
            chains[-1]["has_cub"] = False
    if args.dry_run:
        for c in chains:
            print("%s: %s" % (c["name"], c["torch"]))
        return 0
    jobs = chains + [v for c in chains for v in c["variants"].values()]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as ex:
        list(ex.map(lambda c: nvcc_build(c, args.arch), jobs))
    log("built %d chains' libraries and %d variants'" % (len(chains), len(jobs) - len(chains)))
    import torch as t
    torch = t
    for k, v in DTYPES.items():
        if v[0] != "bool":
            DTYPES_T[getattr(torch, v[0])] = v[0]
    for c in chains:
        bind(c)
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 0) or 60 << 20
    flush = torch.empty(2 * l2 // 4, dtype=torch.int32, device="cuda")
    cycles = sleep_cycles(args.sleep_us, flush)
    log("sleep before each cold call: %d cycles (%.0f us)" % (cycles, args.sleep_us))
    rows, acc_rows = [], []
    for c in chains:
        run_chain(c, sizes, args, flush, cycles, rows, acc_rows)
        if out:  # after every chain: a run stopped by a time limit keeps what it measured
            write_csvs(out, rows, acc_rows)
    summarize(rows, acc_rows, chains, out)
    if out and args.keep_inductor:
        cache = os.environ.get("TORCHINDUCTOR_CACHE_DIR") or "/tmp/torchinductor_%s" % os.environ.get("USER", "root")
        if os.path.isdir(cache):
            subprocess.call(["tar", "czf", os.path.join(out, "inductor.tgz"), "-C", cache, "."])
    return 0


if __name__ == "__main__":
    sys.exit(main())

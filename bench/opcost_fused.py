#!/usr/bin/env python3
"""opcost_fused.py: what each builtin costs inside fusec's own fused kernel.

bench/opcost.cu measures an op in a throughput kernel of its own (8 independent
chains a thread). The time model wants the cost of the op as the emitted code
runs it: inside a fused kernel of fusec's shape, with its loads, stores,
branches and register pressure. For every op and compute type listed, this
script writes a chain of TERMS independent applications,

    in x: f64
    y = exp(x*0.91) + exp(x*0.93) + ... (TERMS terms)

(an integer op, INT_OPS, in i8, i16, i32 or i64: TERMS applications to x + k,
by a tensor, (x ^ k) | 1 or x & 7, or by the literal 7), which is compute-bound for any
op of more than a few issue slots, compiles it
with fusec into a library (nvcc -O3, -DFUSEC_NO_HARNESS -shared), times its
fused kernel cold at n elements with the host's dispatch hidden (a GPU sleep,
an L2 flush, the start event, the call, the end event; the median of --reps),
and solves fusec's own time model for the issue slots that reproduce the time:
the kernel's compute time c with (mem^8 + c^8)^(1/8) = t (runtime/fusec_model.h,
fusec_overlap), c * FMA rate / n slots an element, less the slots fusec's report
gives the same chain without the op (a unary op's argument alone, a binary op
as +, plus 1 a term for that +), over TERMS. f16 and bf16 chains measure the
fast column. The rates and the memory time come
from the device profile fusec predicts with (--device, default its built-in
h200), so the result is in the units of src/opcost.def.

--dependent measures latency instead: TERMS applications one after another, each on
the last one's result (t = OP(t) * 0.001 + (x + 0.01), so that the values stay near
x's), at a small n (default 4096, where the model's drain, one thread's chain of ops
after its loads, is what the kernel adds to its launch), beside the same chain without
the op; the difference of their times over TERMS is the op's latency as the emitted
kernel runs it (its elements a thread interleaved as nvcc schedules them), in ns, in
OUT/opcost_latency.csv. The fused kernel is timed as the harness times it (cold,
dispatch hidden).

--dry-run needs no GPU: it prints the slots an op that fusec's table gives
each chain (its report's fp32/fp64_slots_per_element, undone the same way).

Prints and writes OUT/opcost_fused.csv: op, type, the measured time, the
kernel's memory time, the implied slots of one op, the table's slots (what
fusec predicts with now) and their ratio. Rows whose kernel is not at least
1.5 times its memory time are marked memory-bound (the op is too cheap to
measure this way; the throughput kernel's row stands).

--profile-out G writes a device profile (--profile-in F, or fusec's --device
profile) with an "op_slots" object of the measured rows: `fusec --device G`
then prices those ops as measured here, in place of its built-in table
(docs/model.md, "Device profiles").

Needs torch with CUDA, nvcc and a built fusec.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# op: (call template with {a} for the argument, positive domain)
OPS = {
    "sigmoid": ("sigmoid({a})", False), "tanh": ("tanh({a})", False), "exp": ("exp({a})", False),
    "exp2": ("exp2({a})", False), "expm1": ("expm1({a})", False), "log": ("log({a})", True),
    "log2": ("log2({a})", True), "log1p": ("log1p({a})", True), "sqrt": ("sqrt({a})", True),
    "rsqrt": ("rsqrt({a})", True), "reciprocal": ("reciprocal({a})", True), "sin": ("sin({a})", False),
    "cos": ("cos({a})", False), "erf": ("erf({a})", False), "gelu": ("gelu({a})", False),
    "gelu_tanh": ("gelu_tanh({a})", False), "silu": ("silu({a})", False), "softplus": ("softplus({a})", False),
    "mish": ("mish({a})", False), "pow": ("pow({a}, 0.7)", True), "div": ("{a} / (x + 3)", True),
    # by a literal zero (golden div_zero): what src/ops.c prices from the PTX, measured
    "div_zero": ("{a} / 0", False), "rem_zero": ("{a} % 0", False), "floordiv_zero": ("{a} // 0", False),
    # fmod's % and // (src/ops.c's fmod_costs) on random data, whose branches diverge in a warp as the
    # harness's inputs make them (bench/opcost.cu's smooth per-thread values do not): by a tensor, a number
    # over x as in golden operators' 2.5 % x and 7 // x, and by a number
    "rem_over_t": ("2.5 % ({a})", False), "rem_num": ("({a}) % 0.75", False),
    "floordiv_over_t": ("7 // ({a})", False), "floordiv_num": ("({a}) // 0.75", False),
}
BY_ZERO = ("div_zero", "rem_zero", "floordiv_zero")
FMOD = {"rem_over_t": "2.5 + ({a})", "rem_num": "({a}) + 0.75", "floordiv_over_t": "7 + ({a})", "floordiv_num": "({a}) + 0.75"}
# integer ops: by a tensor and by a number, each term on x + k. A division by a tensor divides each
# term by its own (x ^ k) | 1 (odd, so never 0): with one divisor for all terms (x | 1, before session 18)
# its conversion and reciprocal counted once, and the row understated a lone division.
INT_OPS = {
    "floordiv_t": "({a}) // ((x ^ {k}) | 1)", "floordiv_n": "({a}) // 7", "rem_t": "({a}) % ((x ^ {k}) | 1)",
    "rem_n": "({a}) % 7", "floordiv_z": "({a}) // 0", "rem_z": "({a}) % 0",
    "mul_t": "({a}) * (x | 1)", "shl_t": "({a}) << (x & 7)", "shr_t": "({a}) >> (x & 7)",
}
TYPES = ("f32", "f64")
INT_TYPES = ("i32", "i64")


def is_int(dt):
    return dt.startswith("i")


def chain_source(op, dt, terms, base=False):
    """TERMS independent applications of OP on x; BASE: the same chain without the op (a unary op's
    argument alone, a binary op as +), whose slots in fusec's report are the chain's other work."""
    if is_int(dt):
        tmpl = INT_OPS[op]
        if base:
            tmpl = "({a}) + " + tmpl.split(" ", 2)[2]
        args = [("x + %d" % (k + 3), k + 3) for k in range(terms)]
    else:
        tmpl = OPS[op][0]
        if base:
            tmpl = "{a} + (x + 3)" if op == "div" else "{a} + 0" if op in BY_ZERO else FMOD.get(op, "{a}")
        args = [("x*%.2f" % (0.91 + 0.02 * k), k) for k in range(terms)]
    # each integer term in parentheses: << and >> bind looser than the + that sums the terms
    wrap = "({})" if is_int(dt) else "{}"
    body = " + ".join(wrap.format(tmpl.format(a=a, k=k)) for a, k in args)
    return "# in-context cost of %s in %s: %d independent applications\nin x: %s\ny = %s\n" % (op, dt, terms, dt, body)


def dependent_source(op, dt, terms, base=False):
    """TERMS applications of OP, each on the last one's result (--dependent); BASE without the op."""
    tmpl = "{a}" if base else OPS[op][0]
    lines = ["# latency of %s in %s: %d dependent applications" % (op, dt, terms), "in x: %s" % dt, "t0 = x"]
    for k in range(terms):
        lines.append("t%d = (%s) * 0.001 + (x + 0.01)" % (k + 1, tmpl.format(a="t%d" % k)))
    lines.append("y = t%d" % terms)
    return "\n".join(lines) + "\n"


def report_slots(rep, dt):
    f = rep["fused"]
    return f["fp64_slots_per_element"] if dt == "f64" else f["fp32_slots_per_element"]


def binary(op, dt):
    return is_int(dt) or op == "div" or op in BY_ZERO or op in FMOD


def harness_values(torch, n, dt, g, positive):
    """n values drawn as the harness draws a float input for timing (runtime/harness/inputs.cuh,
    fh_gen_value, without its special values): 7 in 8 uniform on [-4, 4), 1 in 8 of magnitude
    2^-12 to 2^-2 and either sign; their magnitudes where the op wants a positive x."""
    u = torch.rand(n, device="cuda", generator=g, dtype=torch.float64)
    e = torch.randint(-12, -1, (n,), device="cuda", generator=g).to(torch.float64)
    f = torch.rand(n, device="cuda", generator=g, dtype=torch.float64)
    small = torch.ldexp(1 + f, e) * torch.where(u < 0.5, -1.0, 1.0)
    x = torch.where(torch.rand(n, device="cuda", generator=g) < 0.125, small, u * 8 - 4)
    return (x.abs() if positive else x).to(dt)


def build(job):
    src, cu, so, fusec = job
    subprocess.check_call([fusec, "-w", src, "-o", cu])
    subprocess.check_call(["nvcc", "-O3", "-arch=sm_90", "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared",
                           cu, "-o", so])


def build_all(jobs):
    """Builds the chains' libraries in parallel; then torch, fusion_bench (its cold timing: sleep, L2
    flush, events, the median of reps), the flush buffer and the sleep's cycles."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as ex:
        list(ex.map(build, jobs))
    import torch
    import fusion_bench as fb
    fb.torch = torch
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2 // 4, dtype=torch.int32, device="cuda")
    return torch, fb, flush, fb.sleep_cycles(1000.0, flush)


def fused_fn(so, api):
    """The fused entry of a one-input, one-output chain's C API: (x, y, n, stream)."""
    fn = getattr(ctypes.CDLL(so), api + "_fused")
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    fn.restype = ctypes.c_int
    return fn


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fusec", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="h200", help="fusec's --device: the profile whose units the slots take")
    ap.add_argument("--n", type=int, default=None, help="elements (default 2^26; with --dependent 4096)")
    ap.add_argument("--terms", type=int, default=8)
    ap.add_argument("--data", choices=("uniform", "harness"), default="uniform",
                    help="a float op's x: uniform on [-3, 3) ([0.1, 4) for pow and div), or the values the "
                         "harness times with (harness_values): what a data-dependent op (fmod's %% and //) costs "
                         "in the fidelity table's runs")
    ap.add_argument("--int-bits", type=int, default=None, metavar="B",
                    help="integer inputs in [-2^B, 2^B) (default: 40 for i64, beyond 2^32; 20 else); the i64 division "
                         "timed the same with 20 and 40 (call 7 of session 37): nvcc's routine has no 32-bit path")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--ops", default=",".join(list(OPS) + list(INT_OPS)),
                    help="float ops run in the float types, integer ops (INT_OPS) in the integer ones")
    ap.add_argument("--types", default=",".join(TYPES + INT_TYPES), help="f32, f64, f16, bf16, i8, i16, i32, i64")
    ap.add_argument("--dependent", action="store_true",
                    help="latency: TERMS dependent applications at --n (default 4096) against the chain without the op")
    ap.add_argument("--dry-run", action="store_true",
                    help="no GPU: print each chain's table slots an op, from fusec's report, and stop")
    ap.add_argument("--profile-in", default=None, metavar="F",
                    help="a profile JSON (a harness's --calibrate): --profile-out writes it with the measured op_slots")
    ap.add_argument("--profile-out", default=None, metavar="G",
                    help="writes F (or fusec's --device profile) with an op_slots object of the measured rows, "
                         "which fusec --device G then uses in place of its built-in table")
    args = ap.parse_args()
    if args.n is None:
        args.n = 4096 if args.dependent else 1 << 26
    if args.dependent:
        return dependent(args)
    os.makedirs(os.path.join(args.out, "build"), exist_ok=True)
    jobs, rows = [], []
    for op in args.ops.split(","):
        for dt in args.types.split(","):
            if (op in INT_OPS) != is_int(dt):
                continue
            name = "%s_%s" % (op, dt)
            src = os.path.join(args.out, "build", name + ".fuse")
            reps = []
            for base in (False, True):
                path = src[:-5] + "_base.fuse" if base else src
                with open(path, "w") as f:
                    f.write(chain_source(op, dt, args.terms, base))
                reps.append(json.loads(subprocess.check_output(
                    [args.fusec, "--predict", "--format=json", "-w", "--device=" + args.device,
                     "--sizes=%d" % args.n, path])))
            cu, so = src[:-5] + ".cu", os.path.join(args.out, "build", "lib%s.so" % name)
            jobs.append((src, cu, so, args.fusec))
            rows.append({"op": op, "type": dt, "so": so, "api": reps[0]["name"], "rep": reps[0],
                         "base": report_slots(reps[1], dt) - args.terms * binary(op, dt)})
    if args.dry_run:  # the table's slots an op, undone as the measurement is (the base chain's slots)
        for r in rows:
            print("%s,%s,%.2f" % (r["op"], r["type"], (report_slots(r["rep"], r["type"]) - r["base"]) / args.terms))
        return 0
    torch, fb, flush, cycles = build_all(jobs)
    out = []
    for r in rows:
        dt = fb.tdtype(r["type"])
        g = torch.Generator(device="cuda").manual_seed(1)
        if is_int(r["type"]):  # i64 beyond 2^32 unless --int-bits says otherwise
            info = torch.iinfo(dt)
            bits = args.int_bits if args.int_bits is not None else 40 if r["type"] == "i64" else 20
            lim = min(1 << bits, info.max)
            x = torch.randint(max(-lim, info.min), lim, (args.n,), dtype=dt, device="cuda", generator=g)
        else:
            if args.data == "harness":
                x = harness_values(torch, args.n, dt, g, OPS[r["op"]][1])
            else:
                lo, hi = (0.1, 4.0) if OPS[r["op"]][1] else (-3.0, 3.0)
                x = (torch.rand(args.n, device="cuda", generator=g) * (hi - lo) + lo).to(dt)
        y = torch.empty_like(x)
        fn = fused_fn(r["so"], r["api"])
        stream = torch.cuda.current_stream().cuda_stream

        def call():
            if fn(x.data_ptr(), y.data_ptr(), args.n, stream) != 0:
                raise SystemExit("opcost_fused: %s failed" % r["api"])

        call()  # warm-up
        t = fb.time_cold({"fused": call}, flush, args.reps, cycles)["fused"]
        d, rep = r["rep"]["device"], r["rep"]
        bpe = rep["fused"]["bytes_per_element"]
        mem = args.n * bpe / (d["hbm_gbps"] * 1e3)
        rate = (d["fp64_gflops"] if r["type"] == "f64" else d["fp32_gflops"]) * 500  # FMAs per us
        pred = rep["sweep"][0]["fused_us"]
        if t < 1.5 * mem:
            out.append((r["op"], r["type"], t, mem, None, pred))
            continue
        comp = (t ** 8 - mem ** 8) ** 0.125
        total = comp * rate / args.n
        out.append((r["op"], r["type"], t, mem, (total - r["base"]) / args.terms, pred))
    lines = ["op,type,us,mem_us,slots_measured,predicted_us,measured_over_predicted"]
    for op, dt, t, mem, s, pred in out:
        lines.append("%s,%s,%.1f,%.1f,%s,%.1f,%.3f" % (op, dt, t, mem, "memory-bound" if s is None else "%.1f" % s,
                                                      pred, t / pred))
    text = "\n".join(lines) + "\n"
    if args.profile_out:
        if args.profile_in:
            prof = json.load(open(args.profile_in))
        else:
            prof = dict(rows[0]["rep"]["device"])
        ops = prof.setdefault("op_slots", {})
        for op, dt, t, mem, s, pred in out:
            if s is not None and s > 0 and op in OPS and op not in BY_ZERO and op not in FMOD and dt in TYPES:  # opcost.def's rows
                ops.setdefault(op, {})[dt] = round(s, 2)
        prof["note"] = (prof.get("note", "") + "; op_slots from bench/opcost_fused.py")[:255]
        with open(args.profile_out, "w") as f:
            json.dump(prof, f, indent=2)
            f.write("\n")
    with open(os.path.join(args.out, "opcost_fused.csv"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0


def dependent(args):
    """--dependent: each op's latency in the fused kernel, from a chain of dependent applications and
    the same chain without the op, both timed cold at a small n."""
    n = args.n
    bdir = os.path.join(args.out, "build")
    os.makedirs(bdir, exist_ok=True)
    jobs, rows = [], []
    for op in args.ops.split(","):
        for dt in args.types.split(","):
            if op not in OPS or op in BY_ZERO or is_int(dt):
                continue
            pair = []
            for base in (False, True):
                name = "lat_%s_%s%s" % (op, dt, "_base" if base else "")
                src = os.path.join(bdir, name + ".fuse")
                with open(src, "w") as f:
                    f.write(dependent_source(op, dt, args.terms, base))
                so = os.path.join(bdir, "lib%s.so" % name)
                jobs.append((src, src[:-5] + ".cu", so, args.fusec))
                pair.append((so, name))
            rows.append((op, dt, pair))
    if args.dry_run:
        for op, dt, _ in rows:
            print("%s,%s" % (op, dt))
        return 0
    torch, fb, flush, cycles = build_all(jobs)
    stream = torch.cuda.current_stream().cuda_stream
    lines = ["op,type,n,terms,us,base_us,latency_ns"]
    for op, dt, pair in rows:
        g = torch.Generator(device="cuda").manual_seed(1)
        x = (harness_values(torch, n, fb.tdtype(dt), g, True) if args.data == "harness" else
             (torch.rand(n, device="cuda", generator=g) * 3.9 + 0.1).to(fb.tdtype(dt)))
        y = torch.empty_like(x)
        calls = {}
        for so, name in pair:
            fn = fused_fn(so, name)
            calls[name] = (lambda fn=fn: fn(x.data_ptr(), y.data_ptr(), n, stream))
            calls[name]()
        t = fb.time_cold(calls, flush, args.reps, cycles)
        us, base = t[pair[0][1]], t[pair[1][1]]
        lines.append("%s,%s,%d,%d,%.3f,%.3f,%.1f" % (op, dt, n, args.terms, us, base, (us - base) / args.terms * 1e3))
        print(lines[-1], flush=True)
    with open(os.path.join(args.out, "opcost_latency.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

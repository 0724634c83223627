#!/usr/bin/env python3
"""shaped_bench.py: fusec's shaped (broadcasting) chains against eager, cold, on one GPU.

    bench/shaped_bench.py OUT VARIANT=FUSEC[:SED] [VARIANT=...] [--chains a,b]

For each chain (the shaped examples of bench/torch_check.py and a few one-op
broadcasts) at 2^26 elements, every VARIANT (a fusec binary, and optionally a
sed -E script applied to the emitted .cu: a launch-shape variant) is emitted
as a library (-DFUSEC_NO_HARNESS) and called through its C API with ctypes on
torch's stream. Times are cold: a torch.cuda._sleep of 1 ms is queued before
the L2 flush and the start event, so the host's dispatch is hidden; each
version's median of 15 calls, the median of 3 interleaved passes (eager,
unfused, fused, a cudaMemcpy of the fused kernel's own bytes: half of them
read, half written). Prints eager / unfused (1 or more: the unfused kernels as
fast as eager's), the fused kernel's % of that copy (its bytes from fusec
--predict --format=json; until 2026-12-03 the copy was of 2^26 floats, twice
a bf16 chain's bytes, so its rate was the larger transfer's), a
bit-for-bit check of the unfused outputs against eager's, and every kernel's
time from torch.profiler (eager's and fusec's unfused kernels, one by one).
--scale K multiplies the first dim (K = 4: 2^28 elements); --cols N sets the
last dim (e.g. 4097: rows that are not a multiple of any E); --inductor adds
torch.compile's kernel of the same torch form, timed the same way. Writes
OUT/shaped.txt. Needs a GPU, nvcc and PyTorch.
"""
import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_check as tc  # noqa: E402  (the chains, their torch forms and inputs)

DIMS2 = {"R": 16384, "C": 4096}
SHAPED = {"bias_gelu": DIMS2, "layernorm_affine": DIMS2, "rmsnorm_scale": DIMS2,
          "shapes_3d": {"B": 4, "R": 4096, "C": 4096}}
ONE_OP = {  # name: (program, torch form, dims)
    "dead_input": ("in unused: f32[C]\nin x: bf16[R, C]\nin w: f32[C]\ny = x * w\n", lambda u, x, w: x * w, DIMS2),
    "bcast_f32": ("in x: f32[R, C]\nin b: f32[C]\ny = x + b\n", lambda x, b: x + b, DIMS2),
    "bcast_row": ("in x: f16[R, C]\nin s: f32[R, 1]\ny = f16(x * s)\n", lambda x, s: (x * s).half(), DIMS2),
}


def cold_us(fn, flush, reps=15):
    ts = []
    for _ in range(reps):
        torch.cuda._sleep(1_000_000)
        flush.add_(1.0)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) * 1e3)
    return statistics.median(ts)


def kernel_us(fn, reps=10):
    """Each kernel's median time over reps calls back to back (torch.profiler)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
    d = {}
    for ev in prof.events():
        if ev.device_type == torch.autograd.DeviceType.CUDA:
            d.setdefault(ev.name, []).append(getattr(ev, "device_time", None) or ev.cuda_time)
    return {k: statistics.median(v) for k, v in d.items()}


def build(out, fusec, sed, name, src, dims, tag):
    path = src
    if "\n" in src:  # one file per variant: the variants build in parallel
        path = os.path.join(out, "%s_%s.fuse" % (name, tag))
        with open(path, "w") as f:
            f.write(src)
    cu, so = os.path.join(out, "%s_%s.cu" % (name, tag)), os.path.join(out, "lib%s_%s.so" % (name, tag))
    subprocess.run([fusec, "-w", "--name=" + name, path, "-o", cu], check=True)
    if sed:
        subprocess.run(["sed", "-i", "-E", sed, cu], check=True)
    dims_arg = "--dims=" + ",".join("%s=%d" % kv for kv in dims.items())
    desc = json.loads(subprocess.run([fusec, "-w", "--predict", "--format=json", "--name=" + name, path, dims_arg],
                                     check=True, capture_output=True, text=True).stdout)
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared", cu,
                    "-o", so], check=True)
    return ctypes.CDLL(so), desc


def api(lib, name, version, ins, outs, params, dims):
    fn = getattr(lib, "%s_%s" % (name, version))
    args = [ctypes.c_void_p(t.data_ptr()) for t in ins + outs]
    args += [ctypes.c_double(v) if dt == "f64" else ctypes.c_float(v) for v, dt in params]
    args += [ctypes.c_size_t(v) for v in dims]
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    return lambda: fn(*args, stream)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("variants", nargs="+", help="TAG=FUSEC[:SED]")
    ap.add_argument("--chains", default=",".join(list(SHAPED) + list(ONE_OP)))
    ap.add_argument("--scale", type=int, default=1, help="multiply the first dim by K")
    ap.add_argument("--cols", type=int, default=0,
                    help="set the last dim C to N (the first dim scaled to keep about as many elements): "
                         "a C that is not a multiple of the fused kernel's E takes its flat kernel")
    ap.add_argument("--inductor", action="store_true",
                    help="also time torch.compile's kernel for the chain's torch form (compiled once per chain and "
                         "dims, before the timing) and print the fused kernel's time over it")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    log = open(os.path.join(a.out, "shaped.txt"), "a")

    def say(text):
        print(text)
        log.write(text + "\n")
        log.flush()

    jobs = []
    for name in a.chains.split(","):
        if name in SHAPED:
            job = (name, tc.CHAINS[name][0], tc.CHAINS[name][1], SHAPED[name])
        else:
            job = (name,) + ONE_OP[name]
        dims = dict(job[3])
        first = next(iter(dims))
        dims[first] *= a.scale
        if a.cols and "C" in dims and first != "C":
            dims[first] = max(1, dims[first] * dims["C"] // a.cols)
            dims["C"] = a.cols
        elif a.cols:
            print("shaped_bench.py: %s has no last dim C after its first: --cols leaves it as it is" % name)
        jobs.append(job[:3] + (dims,))
    variants = [v.split("=", 1) for v in a.variants]
    todo = [(j, vi, tag, spec) for j in jobs for vi, (tag, spec) in enumerate(variants)]

    def make(t):
        (name, src, _, dims), _, tag, spec = t
        fusec, _, sed = spec.partition(":")
        try:
            return build(a.out, fusec, sed, name, src, dims, tag)
        except Exception as e:  # noqa: BLE001  (reported, the others run)
            return e

    with ThreadPoolExecutor(os.cpu_count() or 4) as ex:
        built = list(ex.map(make, todo))
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device="cuda")
    say("torch %s, %s; cold, median of 3 passes of 15 calls" % (torch.__version__, torch.cuda.get_device_name()))
    for ((name, src, fn, dims), vi, tag, spec), b in zip(todo, built):
        if isinstance(b, Exception):
            say("%s %s: BUILD FAILED: %s" % (name, tag, b))
            continue
        lib, desc = b
        ins = [tc.make_input(i["dtype"], tc.sizes_of(i["shape"], dims), 1000 + k) for k, i in enumerate(desc["inputs"])]
        params = [(p["value"], p["dtype"]) for p in desc["params"]]
        api_dims = [dims[d] for d in desc["shape"]["dims"]]
        outs = [torch.empty(tc.sizes_of(desc["shape"]["shape"], dims), device="cuda", dtype=tc.TORCH_DTYPE[o["dtype"]])
                for o in desc["outputs"]]
        eager = lambda: fn(*ins, *[v for v, _ in params])  # noqa: E731
        unfused = api(lib, name, "unfused", ins, outs, params, api_dims)
        fused = api(lib, name, "fused", ins, outs, params, api_dims)
        half = int(desc["fused"]["bytes"]) // 2  # the copy reads and writes the fused kernel's bytes
        src_c, dst_c = (torch.empty(half, device="cuda", dtype=torch.uint8) for _ in range(2))
        t = {"eager": [], "unfused": [], "fused": [], "copy": []}
        if a.inductor:
            compiled = torch.compile(fn)
            inductor = lambda: compiled(*ins, *[v for v, _ in params])  # noqa: E731
            for _ in range(3):  # compiles (and autotunes) here, not in the timing
                inductor()
            t["inductor"] = []
        for _ in range(3):
            t["eager"].append(cold_us(eager, flush))
            if a.inductor:
                t["inductor"].append(cold_us(inductor, flush))
            t["unfused"].append(cold_us(unfused, flush))
            t["fused"].append(cold_us(fused, flush))
            t["copy"].append(cold_us(lambda: dst_c.copy_(src_c), flush))
        m = {k: statistics.median(v) for k, v in t.items()}
        pct = 100 * m["copy"] / m["fused"]
        say("%-17s %-6s %s: eager %.1f us, unfused %.1f us (eager / unfused %.3f), fused %.1f us (%.1f%% of copy; "
            "copy of the same %d bytes %.1f us)" % (name, tag, ",".join("%s=%d" % kv for kv in dims.items()),
                                                   m["eager"], m["unfused"], m["eager"] / m["unfused"], m["fused"],
                                                   pct, 2 * half, m["copy"]))
        if a.inductor:
            say("    torch.compile %.1f us: fused / Inductor time %.3f" % (m["inductor"], m["fused"] / m["inductor"]))
        want = eager()
        want = want if isinstance(want, tuple) else (want,)
        unfused()
        torch.cuda.synchronize()
        diff = [int((~tc.same_bits(o.flatten(), w.flatten())).sum()) for o, w in zip(outs, want)]
        say("    unfused against eager, elements that differ: %s" % diff)
        del want
        for who, f in (("eager", eager),) * (vi == 0) + (("fusec", unfused),):
            for k, us in sorted(kernel_us(f).items()):
                say("    %s kernel %9.1f us  %s" % (who, us, k[:100]))
        del ins, outs, src_c, dst_c
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

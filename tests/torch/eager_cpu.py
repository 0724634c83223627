#!/usr/bin/env python3
"""eager_cpu.py: gpu_check.py's interpreter of .fuse programs (class Eager), on the CPU.

    python3 tests/torch/eager_cpu.py FUSEC [--random 300] [--seed 2026]

Needs PyTorch (a CPU build will do) and a built fusec; no GPU, no nvcc. Not a
ctest (ctest runs without torch). Two checks:

  * bench/torch_check.py's chains (but fp8_all_floats): the interpreter run on
    the chain's .fuse text gives, on the same CPU inputs (torch_check's own;
    an integer // or % by 0 answers on both sides what CUDA does, where the
    CPU raises: cuda_zero_divisor),
    bit for bit what the chain's hand-written torch function gives, with the
    same dtype and shape. A chain in EXPECTED_DIFF (a difference that
    docs/language.md documents; none now) is reported, not failed.
  * --random programs of tests/randgen.py (--seed): the interpreter reads each
    one's inputs and params in the order of fusec's API (--predict
    --format=json), with their dtypes, runs it without an exception, and gives
    each output the dtype and the shape that fusec gives it. A program that
    eager refuses (torch.where and torch.clamp refuse an integer scalar out
    of the tensor's range, which fusec converts) is listed and counted apart:
    gpu_check.py fails it, as a difference between fusec and eager.

The last line is "eager_cpu: P passed, F failed"; the exit status is 0 when F is 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import torch  # noqa: E402

import gpu_check  # noqa: E402
import torch_check  # noqa: E402

gpu_check.torch = torch


def cuda_zero_divisor(method, divisor_is_self, floor):
    """Tensor's // or % (method) with an integer divisor of 0 answering what eager
    on CUDA answers (docs/language.md, "Integers", measured on the H200), where
    the CPU raises: a // 0 is -1 for a >= 0 and -2 for a < 0, a % 0 is -1 (both
    the low bits of these: 255 in u8), except 4294967295 for an i64 a in
    [0, 2^32). Both sides of every comparison here run through it."""
    def floating(x):
        return x.is_floating_point() if isinstance(x, torch.Tensor) else isinstance(x, float)

    def call(self, other):
        if floating(self) or floating(other):
            return method(self, other)
        a, d = (other, self) if divisor_is_self else (self, other)
        zero = torch.as_tensor(d) == 0
        d = torch.where(zero, torch.ones_like(d), d) if isinstance(d, torch.Tensor) else d or 1
        r = method(d, other) if divisor_is_self else method(self, d)
        if not bool(zero.any()):
            return r
        a = torch.as_tensor(a).long()
        answer = torch.where(a >= 0, -1, -2) if floor else torch.full_like(a, -1)
        if r.dtype == torch.int64:
            answer = torch.where((a >= 0) & (a < 2 ** 32), 2 ** 32 - 1, answer)
        return torch.where(zero, answer.to(r.dtype), r)
    return call


for _name, _rev in (("__floordiv__", False), ("__mod__", False), ("__rfloordiv__", True), ("__rmod__", True)):
    setattr(torch.Tensor, _name, cuda_zero_divisor(getattr(torch.Tensor, _name), _rev, "floordiv" in _name))


EXPECTED_DIFF = {}  # chain name -> a documented difference from eager (docs/language.md); none since session 16


def describe(fusec, path, extra=()):
    r = subprocess.run([fusec, "-w", "--predict", "--format=json", path, *extra], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("fusec --predict: " + r.stderr.strip())
    return json.loads(r.stdout)


def same_dtype_and_bits(a, b):
    if not isinstance(a, torch.Tensor) or a.dtype != b.dtype or a.shape != b.shape:
        return False
    return bool(torch_check.same_bits(a.flatten(), b.flatten()).all())


def torch_check_chains(fusec, work, say):
    passed = failed = 0
    for name, row in torch_check.CHAINS.items():
        src, fn = row[:2]
        special = len(row) > 2 and row[2]
        if special == "all":
            continue
        text = src if "\n" in src else open(src).read()
        path = os.path.join(work, name + ".fuse")
        with open(path, "w") as f:
            f.write(text)
        dims = torch_check.chain_dims(src)
        size = dict(torch_check.SHAPED_DIMS[1], **{d: 3 for d in dims if d not in torch_check.SHAPED_DIMS[1]})
        extra = ["--dims=" + ",".join("%s=%d" % (d, size[d]) for d in dims)] if dims else []
        desc = describe(fusec, path, extra)
        ins = []
        for k, i in enumerate(desc["inputs"]):
            shape = torch_check.sizes_of(i["shape"], size) if dims else 4099
            t = torch_check.make_input(i["dtype"], shape, 1000 + k, special, device="cpu")
            ins.append(t)
        params = [p["value"] for p in desc["params"]]
        want = fn(*ins, *params)
        want = want if isinstance(want, tuple) else (want,)
        prog = gpu_check.Eager(text)
        env = prog.run(ins, dict(zip(prog.param_order, params)))
        bad = [o["name"] for o, w in zip(desc["outputs"], want) if not same_dtype_and_bits(env[o["name"]], w)]
        if name in EXPECTED_DIFF:
            say("ok   %s: %s (%s: %s)" % (name, "differs in %s" % ", ".join(bad) if bad else "equal",
                                          "a documented difference", EXPECTED_DIFF[name]))
            passed += 1
        elif bad:
            o = desc["outputs"][[x["name"] for x in desc["outputs"]].index(bad[0])]
            g, w = env[o["name"]], want[[x["name"] for x in desc["outputs"]].index(bad[0])]
            say("FAIL %s: %d of %d outputs differ from the torch function (%s); the first, %s: interpreter %s %s, "
                "torch %s %s" % (name, len(bad), len(want), ", ".join(bad), bad[0],
                                 getattr(g, "dtype", type(g)), getattr(g, "shape", ""), w.dtype, tuple(w.shape)))
            failed += 1
        else:
            say("ok   %s: %d outputs bit for bit as the torch function" % (name, len(want)))
            passed += 1
    return passed, failed


def random_programs(fusec, work, count, seed, say):
    d = os.path.join(work, "rand")
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "randgen.py"), "--seed", str(seed), "--count",
                    str(count), "--out", d, "--ops-def", os.path.join(ROOT, "src", "ops.def")], check=True)
    passed = failed = 0
    refused = []
    for f in sorted(os.listdir(d)):
        path = os.path.join(d, f)
        text = open(path).read()
        m = re.match(r"# fusec-args: (.*)", text)
        desc = describe(fusec, path, m.group(1).split() if m else [])
        prog = gpu_check.Eager(text)
        shapes = gpu_check.Shapes(prog, text) if prog.shapes else None
        problems = []
        if [(n, gpu_check.DTYPES[d]) for n, d in prog.inputs] != \
                [(i["name"], gpu_check.DTYPES[i["dtype"]]) for i in desc["inputs"]]:
            problems.append("inputs %s, fusec's %s" % (prog.inputs, [(i["name"], i["dtype"]) for i in desc["inputs"]]))
        if prog.param_order != [p["name"] for p in desc["params"]]:
            problems.append("params %s, fusec's %s" % (prog.param_order, [p["name"] for p in desc["params"]]))
        if shapes and shapes.order != list(desc["shape"]["dims"]):
            problems.append("dims %s, fusec's %s" % (shapes.order, list(desc["shape"]["dims"])))
        if not problems:
            api = gpu_check.api_of(desc)
            ins = gpu_check.make_inputs(api, 1001, 7, shapes, device="cpu")
            try:
                env = prog.run(ins, {p[0]: p[2] for p in api.PARAMS})
            except RuntimeError as e:
                if "without overflow" not in str(e):
                    raise
                refused.append("%s (%s)" % (f, e))
                continue
            except Exception as e:  # noqa: BLE001 - the interpreter's bug: say which program
                problems.append("eager raised %s: %s" % (type(e).__name__, e))
            else:
                full = torch.Size(shapes.full() if shapes else (1001,))
                for o in desc["outputs"]:
                    v = env[o["name"]]
                    want = getattr(torch, gpu_check.DTYPES[o["dtype"]])
                    if not isinstance(v, torch.Tensor) or v.dtype != want or v.shape != full:
                        problems.append("%s: eager's %s %s, fusec's %s %s" % (
                            o["name"], getattr(v, "dtype", type(v)), list(getattr(v, "shape", [])), want, list(full)))
        if problems:
            failed += 1
            say("FAIL %s: %s" % (f, "; ".join(problems)))
        else:
            passed += 1
    say("%d random programs (randgen.py --seed %d): %d read and run with fusec's inputs, params, dtypes and shapes, "
        "%d not, %d refused by eager: %s" % (count, seed, passed, failed, len(refused), "; ".join(refused) or "none"))
    return passed, failed


def host_library(fusec, nvcc, src, work):
    """A program's C API built for the host (tests/shapes/cpu_emulate.py: each
    kernel launch a loop over its blocks and threads), as gpu_check.py's
    check_capi loads it: WORK/capi/libNAME.so, the chain named chain. Returns
    (name, fusec's JSON description or None, what failed)."""
    name = os.path.splitext(os.path.basename(src))[0]
    cu, host = os.path.join(work, "capi", name + ".cu"), os.path.join(work, "capi", name + "_cpu.cu")
    extra = gpu_check.fusec_args(open(src).read())
    steps = [[fusec, "-w", "--name=chain", src, "-o", cu],
             [sys.executable, os.path.join(ROOT, "tests", "shapes", "cpu_emulate.py"), cu, host],
             [nvcc, "-O1", "-w", "-Xcompiler", "-fPIC", "-shared", "-x", "cu", host, "-o",
              os.path.join(work, "capi", "lib%s.so" % name)]]
    for cmd in steps:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            return name, None, "%s: %s" % (os.path.basename(cmd[0]), (r.stdout + r.stderr)[-1000:])
    return name, describe(fusec, src, ["--name=chain"] + extra), ""


def capi_programs(fusec, nvcc, work, count, seed, jobs, say):
    """gpu_check.py's --random-capi path on the host: the first count programs of
    randgen.py --seed, each C API built for the host, both versions against the
    interpreter (check_capi) at n = 4099."""
    import concurrent.futures
    d = os.path.join(work, "rand")
    os.makedirs(os.path.join(work, "capi"), exist_ok=True)
    log = gpu_check.Log(os.path.join(work, "capi.log"))
    srcs = sorted(os.path.join(d, f) for f in os.listdir(d))[:count]
    passed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for fut in concurrent.futures.as_completed([pool.submit(host_library, fusec, nvcc, s, work) for s in srcs]):
            name, desc, what = fut.result()
            if desc is None:
                log.check("%s builds for the host" % name, False, what)
                continue
            passed += gpu_check.check_capi(log, work, name, os.path.join(d, name + ".fuse"), gpu_check.api_of(desc),
                                           os.path.join(work, "failures"), n=4099, device="cpu")
    say("random programs against eager, through a host build of their C API: %d of %d passed" % (passed, len(srcs)))
    return passed, len(srcs) - passed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fusec")
    ap.add_argument("--random", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--capi", metavar="NVCC", help="also run the first --capi-count programs through a host build "
                    "of their C API (nvcc compiles the kernels as host code)")
    ap.add_argument("--capi-count", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    fusec = os.path.abspath(a.fusec)
    with tempfile.TemporaryDirectory(prefix="eager_cpu_") as work:
        p1, f1 = torch_check_chains(fusec, work, print)
        p2, f2 = random_programs(fusec, work, a.random, a.seed, print)
        p3, f3 = capi_programs(fusec, a.capi, work, min(a.capi_count, a.random), a.seed, a.jobs, print) \
            if a.capi else (0, 0)
    print("eager_cpu: %d passed, %d failed" % (p1 + p2 + p3, f1 + f2 + f3))
    return 0 if f1 + f2 + f3 == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

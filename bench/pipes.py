#!/usr/bin/env python3
"""pipes.py: each op's instructions by pipe inside fusec's fused kernel, from Nsight Compute.

    bench/pipes.py FUSEC DIR_OR_TGZ [--device h100] [--n 2^24] [--terms 8] [--whole]

DIR_OR_TGZ holds one ncu --csv --page raw file a chain, NAME.csv, for the
chains of bench/opcost_fused.py (NAME = OP_TYPE, and OP_TYPE_base, the same
chain without the op), profiled at N elements with the metrics of
bench/results/2026-12-07-s37/ready/pipes/call.sh: the kernel's time, its warp
instructions and issue activity, and its warp instructions by pipe (ALU, FMA,
FP64, XU, LSU, CBU). For every op and type it prints the chain's time and the
base's, the chain's issue activity, one application's warp instructions an
element by pipe ((chain - base) / TERMS, a warp instruction covering 32
elements), the slots fusec's table gives one application (its report's slots,
undone as opcost_fused.py undoes them), cyc: those slots in cycles of an SM
sub-partition (an fp32 FMA slot is one warp instruction a cycle; an f64 row's
slots are fp64 FMAs, fp32_gflops / fp64_gflops cycles each) over the
instructions, and the chain's time against the model's (fusec --predict at N
with --device).

--whole reads profiles of whole chains instead (ncu/NAME.csv beside
src/NAME.fuse, as ready/mixed/call.sh of session 38 returns them, or both in
one folder): each fused kernel's warp instructions an element by pipe, its
fused slots (fp64 slots in fp32 cycles), their cycles an instruction, and its
time against the model's.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcost_fused as oc  # noqa: E402  (the chains, their base, the table's slots)
from kernels import ncu_launches  # noqa: E402
from fusion_bench import parse_sizes  # noqa: E402  (2^24 or a count)
from repredict import extract, shape_args  # noqa: E402  (a tarball into a folder; a source's # fusec-args)

PIPES = ("alu", "fma", "fp64", "xu", "lsu", "cbu")
METRICS = ("gpu__time_duration.sum", "smsp__inst_executed.sum",
           "smsp__issue_active.avg.pct_of_peak_sustained_active") + tuple(
               "smsp__inst_executed_pipe_%s.sum" % p for p in PIPES)


def fused_launch(path):
    """The metrics of the last launch of the chain's fused kernel (the harness may launch it more than once)."""
    rows = [vals for name, vals in ncu_launches(path, METRICS) if name.endswith("_fused_kernel")]
    return dict(zip(("us", "all", "issue") + PIPES, rows[-1])) if rows else None


def predict(fusec, device, n, src):
    """fusec's report of src at n elements (its "# fusec-args:" first line applied)."""
    return json.loads(subprocess.check_output([fusec, "--predict", "--format=json", "-w", "--device=" + device,
                                               "--sizes=%d" % n] + shape_args([], src) + [src]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fusec")
    ap.add_argument("ncu", help="a folder of NAME.csv or a .tgz of them")
    ap.add_argument("--device", default="h100", help="fusec's --device for the table's slots and the model's time")
    ap.add_argument("--n", default="2^24", help="the elements the chains were profiled at")
    ap.add_argument("--terms", type=int, default=8)
    ap.add_argument("--whole", action="store_true",
                    help="each profile is a whole chain's (ncu/NAME.csv beside src/NAME.fuse, or both in one folder): "
                         "its instructions an element by pipe against its fused slots, not one op's")
    a = ap.parse_args()
    n = parse_sizes(a.n)[0]
    with tempfile.TemporaryDirectory() as tmp:
        folder = a.ncu
        if a.ncu.endswith(".tgz"):
            extract(a.ncu, tmp)
            folder = tmp
        return whole(a, n, folder) if a.whole else table(a, n, folder, tmp)


def whole(a, n, folder):
    """Prints, for each chain's profile, its fused kernel's warp instructions an element by pipe, its fused slots
    (fp64 ones in fp32 cycles), the cycles a slot is an instruction, and the model's time against ncu's."""
    ncu = os.path.join(folder, "ncu") if os.path.isdir(os.path.join(folder, "ncu")) else folder
    src = os.path.join(folder, "src") if os.path.isdir(os.path.join(folder, "src")) else folder
    print("%-22s %8s %5s | %s %6s | %7s %5s | %8s %6s" % ("chain", "us", "iss%", " ".join("%6s" % p for p in PIPES),
                                                      "all", "slots", "cyc", "model us", "error"))
    ratios = []
    for csv in sorted(f for f in os.listdir(ncu) if f.endswith(".csv")):
        name = csv[:-4]
        fuse = os.path.join(src, name + ".fuse")
        c = fused_launch(os.path.join(ncu, csv))
        if c is None or not os.path.exists(fuse):
            print("%-22s no fused kernel in the profile, or no %s.fuse" % (name, name))
            continue
        rep = predict(a.fusec, a.device, n, fuse)
        f, d = rep["fused"], rep["device"]
        slots = f["fp32_slots_per_element"] + f["fp64_slots_per_element"] * d["fp32_gflops"] / d["fp64_gflops"]
        per = [c[p] * 32 / n for p in PIPES + ("all",)]
        model = rep["sweep"][0]["fused_us"]
        ratios.append(c["us"] / model)
        print("%-22s %8.1f %5.1f | %s %6.1f | %7.1f %5.2f | %8.1f %+5.1f%%" % (
            name, c["us"], c["issue"], " ".join("%6.1f" % v for v in per[:-1]), per[-1], slots, slots / per[-1],
            model, 100 * (model / c["us"] - 1)))
    if ratios:
        ratios.sort()
        print("%d chains: ncu's time over the model's, median %.3f, %.3f-%.3f" % (
            len(ratios), ratios[len(ratios) // 2], ratios[0], ratios[-1]))
    return 0


def table(a, n, folder, tmp):
    """Prints the table of the profiles in folder (the chains' sources are written to tmp)."""
    warps = n / 32
    print("%-16s %-4s %8s %7s %5s | one application, warp instructions an element (x32):" % ("op", "type", "us", "base", "iss%"))
    print("%-16s %-4s %8s %7s %5s | %s %6s %6s %6s | %8s %6s" % ("", "", "", "", "", " ".join("%6s" % p for p in PIPES),
                                                             "all", "slots", "cyc", "model us", "error"))
    errors = []
    for dt in ("f32", "f64", "i32", "i64"):
        ops = oc.INT_OPS if oc.is_int(dt) else [k for k in oc.OPS if k not in oc.BY_ZERO]
        for op in ops:
            name = "%s_%s" % (op, dt)
            chain, base = (os.path.join(folder, name + s + ".csv") for s in ("", "_base"))
            if not (os.path.exists(chain) and os.path.exists(base)):
                continue
            c, b = fused_launch(chain), fused_launch(base)
            if c is None or b is None:
                print("%-16s %-4s no fused kernel in the profile" % (op, dt))
                continue
            reps = []
            for is_base in (False, True):
                src = os.path.join(tmp, name + ("_base" if is_base else "") + ".fuse")
                with open(src, "w") as f:
                    f.write(oc.chain_source(op, dt, a.terms, is_base))
                reps.append(predict(a.fusec, a.device, n, src))
            slots = (oc.report_slots(reps[0], dt) - oc.report_slots(reps[1], dt) +
                     a.terms * oc.binary(op, dt)) / a.terms
            per = [(c[p] - b[p]) / warps / a.terms for p in PIPES + ("all",)]
            d = reps[0]["device"]
            cycles = slots * (d["fp32_gflops"] / d["fp64_gflops"] if dt == "f64" else 1)  # f64 slots: fp64 FMAs
            model = reps[0]["sweep"][0]["fused_us"]
            errors.append(abs(model / c["us"] - 1))
            print("%-16s %-4s %8.1f %7.1f %5.1f | %s %6.1f %6.1f %6.2f | %8.1f %+5.1f%%" % (
                op, dt, c["us"], b["us"], c["issue"], " ".join("%6.2f" % v for v in per[:-1]), per[-1], slots,
                cycles / per[-1] if per[-1] > 0.5 else float("nan"), model, 100 * (model / c["us"] - 1)))
    if errors:
        errors.sort()
        print("%d chains: the model's time against ncu's, median |error| %.1f%%, %d within 10%%, max %.1f%%" % (
            len(errors), 100 * errors[len(errors) // 2], sum(e <= 0.10 for e in errors), 100 * errors[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

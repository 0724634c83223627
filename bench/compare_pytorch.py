#!/usr/bin/env python3
"""Checks fusec's --host=pytorch prediction against PyTorch measured in one run.

    bench/compare_pytorch.py TORCH_CSV PROFILE_JSON [--chain seed] [--dtype f32]
                             [--mode hot] [--fusec build/fusec] [--limit 20]

TORCH_CSV is bench/torch_bench.py's --csv output; PROFILE_JSON the profile it
wrote with --profile-out (the GPU's calibrated rates plus the PyTorch host
costs measured on this host). For every n, the measured speedup (eager time /
torch.compile time) is set beside fusec's predicted speedup for
examples/CHAIN.fuse with --host=pytorch; the script fails when any error is
over --limit percent (the issue's bound is 20%).
"""
import argparse
import csv
import io
import subprocess
import sys


def measured(path, chain, dtype, mode):
    times = {}
    with open(path) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            if row["chain"] == chain and row["dtype"] == dtype and row["mode"] == mode:
                times.setdefault(int(row["n"]), {})[row["version"]] = float(row["us"])
    return {n: t["eager"] / t["compile"] for n, t in times.items() if "eager" in t and "compile" in t}


def predicted(fusec, chain, dtype, profile, sizes):
    out = subprocess.run([fusec, "--predict", "--format=csv", "--host=pytorch", "--dtype=" + dtype,
                          "--device=" + profile, "--sizes=" + ",".join(str(n) for n in sizes),
                          "examples/%s.fuse" % chain], check=True, capture_output=True, text=True).stdout
    return {int(r["n"]): float(r["speedup"]) for r in csv.DictReader(io.StringIO(out))}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("torch_csv")
    ap.add_argument("profile")
    ap.add_argument("--chain", default="seed")
    ap.add_argument("--dtype", default="f32")
    ap.add_argument("--mode", default="hot", help="hot (what a training loop sees) or cold")
    ap.add_argument("--fusec", default="build/fusec")
    ap.add_argument("--limit", type=float, default=20.0, help="largest |error| in percent that passes")
    a = ap.parse_args()
    meas = measured(a.torch_csv, a.chain, a.dtype, a.mode)
    if not meas:
        sys.exit("no %s %s %s rows with both eager and compile in %s" % (a.chain, a.dtype, a.mode, a.torch_csv))
    pred = predicted(a.fusec, a.chain, a.dtype, a.profile, sorted(meas))
    worst = 0.0
    print("%12s %10s %10s %8s" % ("n", "measured", "predicted", "error"))
    for n in sorted(meas):
        err = 100.0 * (meas[n] / pred[n] - 1.0)
        worst = max(worst, abs(err))
        print("%12d %9.2fx %9.2fx %+7.1f%%" % (n, meas[n], pred[n], err))
    print("worst |error| %.1f%% (limit %.0f%%): %s" % (worst, a.limit, "ok" if worst <= a.limit else "FAIL"))
    sys.exit(0 if worst <= a.limit else 1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks fusec's --host=pytorch prediction against PyTorch measured in one run.

    bench/compare_pytorch.py TORCH_CSV PROFILE_JSON [--chain seed] [--dtype f32]
                             [--mode hot] [--fusec build/fusec] [--limit 20]
                             [--passes-log TORCH_ERR --estimator min|median]

TORCH_CSV is bench/torch_bench.py's --csv output; PROFILE_JSON the profile it
wrote with --profile-out (the GPU's calibrated rates plus the PyTorch host
costs measured on this host). For every n, the measured speedup (eager time /
torch.compile time) is set beside fusec's predicted speedup for
examples/CHAIN.fuse with --host=pytorch; the script fails when any error is
over --limit percent (the issue's bound is 20%).

With --passes-log, the measured times come instead from torch_bench.py's log
(its standard error), which has each pass's median of every row: --estimator
picks how the passes combine (median, what torch_bench.py itself reports, or
min: a slow spell of the host only adds time, so the fastest pass is the
machine's speed). The host costs in the profile are then recomputed the same
way from the log's host-bound rows (seed chain, hot, n <= 2^16, all dtypes).
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
from torch_bench import ESTIMATORS, sweep_host_costs  # noqa: E402 (torch itself is not imported)

LOG_ROW = re.compile(r"\[\s*[\d.]+s\]\s+(\w+)\s+(\w+)\s+(\w+)\s+(\w+)\s+n=(\S+)\s+([\d.]+) us")


def measured(path, chain, dtype, mode):
    times = {}
    with open(path) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            if row["chain"] == chain and row["dtype"] == dtype and row["mode"] == mode:
                times.setdefault(int(row["n"]), {})[row["version"]] = float(row["us"])
    return {n: t["eager"] / t["compile"] for n, t in times.items() if "eager" in t and "compile" in t}


def size(text):
    base, _, exp = text.partition("^")
    return int(base) ** int(exp) if exp else int(base)


def log_times(path, estimator):
    """(chain, dtype, version, mode, n) -> the passes' medians combined by estimator."""
    passes = {}
    with open(path) as f:
        for line in f:
            m = LOG_ROW.match(line)
            if m:
                chain, dtype, version, mode, n, us = m.groups()
                passes.setdefault((chain, dtype, version, mode, size(n)), []).append(float(us))
    return {k: ESTIMATORS[estimator](v) for k, v in passes.items()}


def log_profile(times, profile, out):
    """The profile with its host costs recomputed from the log's host-bound rows,
    by the rule torch_bench.py itself uses."""
    rows = [dict(chain=c, dtype=d, version=v, mode=m, n=n, us=t) for (c, d, v, m, n), t in times.items()]
    with open(profile) as f:
        p = json.load(f)
    host = sweep_host_costs(rows)
    if host is None:
        sys.exit("compare_pytorch.py: no host-bound rows of the seed chain (hot, n <= 2^16) in the log")
    p.update(host)
    with open(out, "w") as f:
        json.dump(p, f)
    return p


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
    ap.add_argument("--passes-log", metavar="TORCH_ERR", help="torch_bench.py's log: measure from its passes")
    ap.add_argument("--estimator", choices=sorted(ESTIMATORS), default="median",
                    help="with --passes-log: how the passes combine (default median)")
    a = ap.parse_args()
    profile = a.profile
    if a.passes_log:
        times = log_times(a.passes_log, a.estimator)
        tmp = tempfile.TemporaryDirectory(prefix="compare_pytorch_")  # removed at exit
        profile = os.path.join(tmp.name, "profile.json")
        p = log_profile(times, a.profile, profile)
        print("passes of %s, %s of each row; host costs from them: eager op %.3f us, compiled call %.3f us"
              % (a.passes_log, a.estimator, p["eager_op_us"], p["compiled_call_us"]))
        meas = {n: times[(a.chain, a.dtype, "eager", a.mode, n)] / t for (c, d, v, m, n), t in times.items()
                if (c, d, v, m) == (a.chain, a.dtype, "compile", a.mode) and (a.chain, a.dtype, "eager", a.mode, n) in times}
    else:
        meas = measured(a.torch_csv, a.chain, a.dtype, a.mode)
    if not meas:
        sys.exit("no %s %s %s rows with both eager and compile in %s" % (a.chain, a.dtype, a.mode, a.torch_csv))
    pred = predicted(a.fusec, a.chain, a.dtype, profile, sorted(meas))
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

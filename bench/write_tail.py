#!/usr/bin/env python3
"""write_tail.py: what a write tail in L2 would do to the model's cold predictions.

    bench/write_tail.py DIR... [--tails 0,8,16,24,32] [--shares 0.5,1]

A kernel that runs alone after an L2 flush ends with part of its writes still
in L2 (Nsight Compute, call 8 of 2026-12-03: about 23-24 MB on the H200), so a
cold call's last kernel finishes before its last bytes reach HBM. The model
(runtime/fusec_model.h) charges every byte at the HBM rate. This re-predicts
every cold row of the harness CSVs under the DIRs (and in their .tgz files)
with the last kernel's first min(share * writes, tail) bytes of writes at the
L2 rate instead, for each tail and share: the unfused and the fused version
alike (their last kernels write the chain's outputs), the writes taken as
half of the fused kernel's bytes (the CSVs do not split them). Prints the
median |error| of the predicted speedup and the rows within 10% by size band,
the first line (tail 0) being the model as it is.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hot_share import harness_runs  # noqa: E402  (the harness CSVs, plain and in tarballs)

BANDS = (("n < 2^20", 0, 1 << 20), ("2^20..2^22", 1 << 20, 1 << 22), ("2^22..2^25", 1 << 22, 1 << 25),
         ("n >= 2^25", 1 << 25, 1 << 62))


def cold_rows(dirs):
    for _, prof, table in harness_runs(dirs):
        for r in table:
            if r["mode"] == "cold":
                yield {"n": int(r["n"]), "bytes": float(r["fused_gbps"]) * float(r["fused_us"]) * 1e3,
                       "hbm": prof["hbm_gbps"] * 1e3, "l2": prof["l2_gbps"] * 1e3,
                       "speedup": float(r["unfused_us"]) / float(r["fused_us"]),
                       "pu": float(r["predicted_unfused_us"]), "pf": float(r["predicted_fused_us"])}


def error(r, tail, share):
    saved = min(share * r["bytes"] / 2, tail) * (1 / r["hbm"] - 1 / r["l2"])
    return r["speedup"] / ((r["pu"] - saved) / (r["pf"] - saved)) - 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--tails", default="0,8,16,24,32", help="tails to try, MB")
    ap.add_argument("--shares", default="0.5,1", help="shares of the writes to try")
    a = ap.parse_args()
    rows = list(cold_rows(a.dirs))
    if not rows:
        raise SystemExit("write_tail.py: no cold rows")
    print("%d cold rows; |error| median and rows within 10%%, by band" % len(rows))
    print("%-8s %-6s" % ("tail MB", "share") + "".join(" %20s" % b[0] for b in BANDS))
    for tail in (float(t) for t in a.tails.split(",")):
        for share in (float(s) for s in a.shares.split(",")) if tail else (0.0,):
            cells = []
            for _, lo, hi in BANDS:
                e = [abs(error(r, tail * 1e6, share)) for r in rows if lo <= r["n"] < hi]
                cells.append("%5.1f%% %4d/%-4d" % (100 * statistics.median(e), sum(x <= 0.1 for x in e), len(e))
                             if e else "-")
            print("%-8g %-6g" % (tail, share) + "".join(" %20s" % c for c in cells))


if __name__ == "__main__":
    main()

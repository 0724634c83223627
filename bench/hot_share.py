#!/usr/bin/env python3
"""hot_share.py: how much of a fused kernel's footprint L2 keeps between calls back to back.

    bench/hot_share.py DIR... [--min-us 4]

Reads every harness CSV (`--csv`) under the DIRs, and inside their .tgz and
.tar.gz files, and for each size that has a cold and a hot row of a fused
kernel the model calls memory-bound, with at least --min-us of predicted
cold work: its footprint F (its bytes, in L2 sizes) and the share of its bytes
that behaved as L2 hits hot, from the run's own profile (the CSV's profile_
lines):

    work_hot  = measured hot - (predicted hot - bytes * (k / l2 + (1 - k) / hbm))
    share     = (bytes / hbm - work_hot) / (bytes / hbm - bytes / l2)

where k is the share the run's model assumed (its launch terms cancel that
way). Prints the median share by band of F, and the l2_hot_keep and
l2_hot_end whose line keep * clamp((end - F) / 0.25, 0, 1) fits the shares
best (least absolute deviations, as the harness's calibration fits its copy
kernels: a few rows at small n, where the host's time decides, are far off
any line): a check on the chains' own kernels of the terms the harness
calibrates (docs/model.md). Identical CSV files (copies kept in two places)
count once.
"""
import argparse
import csv
import glob
import os
import statistics
import tarfile


def csv_texts(dirs):
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "**", "*"), recursive=True)):
            if path.endswith(".csv"):
                with open(path, errors="replace") as f:
                    yield path, f.read()
            elif path.endswith((".tgz", ".tar.gz")):
                with tarfile.open(path) as t:
                    for m in t.getmembers():
                        if m.isfile() and m.name.endswith(".csv"):
                            yield path + ":" + m.name, t.extractfile(m).read().decode(errors="replace")


def harness_runs(dirs):
    """Each distinct harness CSV under dirs: its name, its profile (the
    profile_ lines, numbers) and its rows (dicts); one without a profile is
    skipped."""
    seen = set()
    for name, text in csv_texts(dirs):
        if text in seen:
            continue
        seen.add(text)
        prof = {}
        for line in text.splitlines():
            if line.startswith("# profile_"):
                key, _, val = line[2:].partition(",")
                try:
                    prof[key[len("profile_"):]] = float(val)
                except ValueError:
                    pass
        body = [l for l in text.splitlines() if not l.startswith("#")]
        if body and body[0].startswith("n,mode,") and "hbm_gbps" in prof:
            yield name, prof, list(csv.DictReader(body))


def share_line(keep, end, f):
    return keep * min(1.0, max(0.0, (end - f) / 0.25))


def points(dirs, min_us):
    for name, prof, table in harness_runs(dirs):
        hbm, l2r, l2 = prof["hbm_gbps"] * 1e3, prof["l2_gbps"] * 1e3, prof["l2_bytes"]  # bytes per us
        keep0, end0 = prof.get("l2_hot_keep", 1.0), prof.get("l2_hot_end", 1.1)
        rows = {}
        for r in table:
            rows.setdefault(r["n"], {})[r["mode"]] = r
        for n, by in rows.items():
            c, h = by.get("cold"), by.get("hot")
            if not c or not h or c["predicted_fused_regime"] != "memory":
                continue
            b = float(c["fused_gbps"]) * float(c["fused_us"]) * 1e3  # the model's bytes
            if b / hbm < min_us:
                continue
            f = b / l2
            k = share_line(keep0, end0, f)
            work_hot = float(h["fused_us"]) - (float(h["predicted_fused_us"]) - b * (k / l2r + (1 - k) / hbm))
            yield f, (b / hbm - work_hot) / (b / hbm - b / l2r), name, int(n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--min-us", type=float, default=4.0, help="least predicted cold work of a row, us")
    a = ap.parse_args()
    pts = sorted(points(a.dirs, a.min_us))
    if not pts:
        raise SystemExit("hot_share.py: no cold and hot rows of a memory-bound fused kernel")
    print("%d sizes of %d CSV files with cold and hot rows" % (len(pts), len({p[2] for p in pts})))
    print("%-12s %5s %14s %14s" % ("footprint", "rows", "share median", "min .. max"))
    edges = [0.0, 0.3, 0.45, 0.57, 0.7, 0.85, 1.0, 1.2, 10.0]
    for lo, hi in zip(edges, edges[1:]):
        s = [p[1] for p in pts if lo <= p[0] < hi]
        if s:
            print("%4.2f-%-7.2f %5d %14.2f %6.2f .. %.2f" % (lo, hi, len(s), statistics.median(s), min(s), max(s)))
    best = min((sum(abs(share_line(k / 100, e / 100, f) - s) for f, s, _, _ in pts), k / 100, e / 100)
               for k in range(101) for e in range(25, 201))
    print("the line that fits best: l2_hot_keep %.2f, l2_hot_end %.2f L2 sizes (mean |share - line| %.2f)"
          % (best[1], best[2], best[0] / len(pts)))


if __name__ == "__main__":
    main()

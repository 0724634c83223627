#!/usr/bin/env python3
"""ab.py: an A/B of two builds' harness CSVs from one call.

    bench/ab.py DIR [A B]

DIR holds A-NAME-pP.csv and B-NAME-pP.csv (the harness's --csv, one file a
chain, build and pass; A and B default to "before" and "after"), as
bench/results/2026-12-06-s29/call-3/call.sh writes them. Prints, per chain,
size and mode, each build's fused and unfused time (the mean over its
passes), A's time / B's (above 1: B is faster) and each build's predicted
fused time, then the median ratio of the fused times by whether n is a
multiple of 8 or not (n as the CSV gives it: a shaped chain's swept dim,
so rows of an odd last dim count by their row count).
"""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict


def load(folder, builds):
    """{(chain, n, mode, build): [(unfused us, fused us, predicted fused us), ...]}"""
    rows = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(folder, "*-p*.csv"))):
        base = os.path.basename(path)[:-4]
        build, rest = base.split("-", 1)
        if build not in builds:
            continue
        chain = rest.rsplit("-p", 1)[0]
        with open(path) as f:
            for r in csv.DictReader(line for line in f if not line.startswith("#")):
                rows[(chain, int(r["n"]), r["mode"], build)].append(
                    (float(r["unfused_us"]), float(r["fused_us"]), float(r["predicted_fused_us"])))
    return rows


def mean(xs):
    return sum(xs) / len(xs)


def main(argv):
    if len(argv) not in (2, 4):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    a, b = (argv[2], argv[3]) if len(argv) == 4 else ("before", "after")
    rows = load(argv[1], (a, b))
    keys = sorted({k[:3] for k in rows if (k[:3] + (a,)) in rows and (k[:3] + (b,)) in rows})
    if not keys:
        sys.exit("ab.py: no chain has CSVs of both %s and %s in %s" % (a, b, argv[1]))
    print("%-14s %10s %5s %9s %9s %7s | %9s %9s | %8s %8s" %
          ("chain", "n", "mode", "fused " + a[:2], "fused " + b[:2], a[:2] + "/" + b[:2], "unf " + a[:2],
           "unf " + b[:2], "pred " + a[:2], "pred " + b[:2]))
    ratios = defaultdict(list)
    for k in keys:
        ra, rb = rows[k + (a,)], rows[k + (b,)]
        fa, fb = mean([r[1] for r in ra]), mean([r[1] for r in rb])
        ratios[(k[1] % 8 == 0, k[2])].append(fa / fb)
        print("%-14s %10d %5s %9.2f %9.2f %7.3f | %9.2f %9.2f | %8.2f %8.2f" %
              (k[0], k[1], k[2], fa, fb, fa / fb, mean([r[0] for r in ra]), mean([r[0] for r in rb]), ra[0][2],
               rb[0][2]))
    for (whole, mode), rs in sorted(ratios.items()):
        print("median fused %s / %s, n %s 8, %s: %.3f (%d rows)" %
              (a, b, "a multiple of" if whole else "not a multiple of", mode, statistics.median(rs), len(rs)))


if __name__ == "__main__":
    main(sys.argv)

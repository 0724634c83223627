#!/usr/bin/env python3
"""ab.py: an A/B of two builds' harness CSVs from one call.

    bench/ab.py DIR [A B]

DIR holds A-NAME-pP.csv and B-NAME-pP.csv (the harness's --csv, one file a
chain, build and pass; A and B default to "before" and "after"), as
bench/results/2026-12-06-s29/call-3/call.sh writes them. Prints, per chain,
size and mode, each build's fused and unfused time (the mean over its
passes), A's time / B's (above 1: B is faster) and each build's predicted
fused time, then the median ratio of the fused times by whether the
elements (n, or a shaped chain's n rows times its other dims:
fidelity.py's row_elements) are a multiple of 8 or not. Rows that only one
build has, and rows whose builds ran different numbers of passes, are
named after the table.
"""
import glob
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fidelity import read_rows, row_elements  # noqa: E402  (a harness CSV's rows; a shaped one's elements per step of n)


def load(folder, builds):
    """{(chain, n, mode, build): [(unfused us, fused us, predicted fused us), ...]} and
    {chain: elements per step of n}"""
    rows, per_n = defaultdict(list), {}
    for path in sorted(glob.glob(os.path.join(folder, "*-p*.csv"))):
        base = os.path.basename(path)[:-4]
        if "-" not in base:
            continue
        build, rest = base.split("-", 1)
        if build not in builds:
            continue
        chain = rest.rsplit("-p", 1)[0]
        per_n[chain] = row_elements(path)
        try:
            for r in read_rows(path):
                rows[(chain, int(r["n"]), r["mode"], build)].append(
                    (float(r["unfused_us"]), float(r["fused_us"]), float(r["predicted_fused_us"])))
        except (KeyError, ValueError) as e:
            sys.exit("ab.py: %s: not a harness CSV (%s)" % (path, e))
    return rows, per_n


def mean(xs):
    return sum(xs) / len(xs)


def main(argv):
    if len(argv) not in (2, 4):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    a, b = (argv[2], argv[3]) if len(argv) == 4 else ("before", "after")
    rows, per_n = load(argv[1], (a, b))
    keys = sorted({k[:3] for k in rows if (k[:3] + (a,)) in rows and (k[:3] + (b,)) in rows})
    alone = sorted({k for k in rows if k[:3] not in keys})
    uneven = [k for k in keys if len(rows[k + (a,)]) != len(rows[k + (b,)])]
    if not keys:
        sys.exit("ab.py: no chain has CSVs of both %s and %s in %s" % (a, b, argv[1]))
    print("%-14s %10s %5s %9s %9s %7s | %9s %9s | %8s %8s" %
          ("chain", "n", "mode", "fused " + a[:2], "fused " + b[:2], a[:2] + "/" + b[:2], "unf " + a[:2],
           "unf " + b[:2], "pred " + a[:2], "pred " + b[:2]))
    ratios = defaultdict(list)
    for k in keys:
        ra, rb = rows[k + (a,)], rows[k + (b,)]
        fa, fb = mean([r[1] for r in ra]), mean([r[1] for r in rb])
        ratios[(k[1] * per_n[k[0]] % 8 == 0, k[2])].append(fa / fb)
        print("%-14s %10d %5s %9.2f %9.2f %7.3f | %9.2f %9.2f | %8.2f %8.2f" %
              (k[0], k[1], k[2], fa, fb, fa / fb, mean([r[0] for r in ra]), mean([r[0] for r in rb]), ra[0][2],
               rb[0][2]))
    for (whole, mode), rs in sorted(ratios.items()):
        print("median fused %s / %s, elements %s 8, %s: %.3f (%d rows)" %
              (a, b, "a multiple of" if whole else "not a multiple of", mode, statistics.median(rs), len(rs)))
    for k in alone:
        print("only %s: %s at n = %d, %s" % (k[3], k[0], k[1], k[2]))
    for k in uneven:
        print("passes differ: %s at n = %d, %s: %s %d, %s %d" %
              (k[0], k[1], k[2], a, len(rows[k + (a,)]), b, len(rows[k + (b,)])))


if __name__ == "__main__":
    main(sys.argv)

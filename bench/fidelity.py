#!/usr/bin/env python3
"""fidelity.py: how close fusec's predicted speedups are to the measured ones.

Reads the CSV files of emitted harnesses (one per chain, from bench/fidelity.sh
or any harness run with --csv) in a folder and prints, by mode (cold, hot,
graph) and size band (n < 2^22, n >= 2^22 elements: a shaped chain's swept
dim times its other dims), the median and largest
|error| (error = measured speedup / predicted speedup - 1, the harness's
error_pct), the rows within the targets of issue 12 (10% cold and graph, 15%
hot), per chain and over all, and the worst rows.

  bench/fidelity.py DIR [--worst N]
"""
import argparse
import csv
import glob
import os
import re
import shlex
import statistics
import sys

TARGET = {"cold": 10.0, "graph": 10.0, "hot": 15.0}


def read_rows(path):
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines))


def band(n):
    return "n<2^22" if n < (1 << 22) else "n>=2^22"


def summary(errs):
    a = [abs(e) for e in errs]
    return statistics.median(a), max(a), len(a)


def parse_size(text):
    """A harness size: 4096, 4K, 1M, 1G, 2^20 (fusec_sizes_parse's forms)."""
    t = text.strip()
    if "^" in t:
        b, e = t.split("^", 1)
        return int(b) ** int(e)
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:].upper())
    return int(t[:-1]) * mult if mult else int(t)


def row_elements(path):
    """The elements of one step of a CSV's n: 1 for a flat chain; for a shaped one (its harness
    command's --dims and --sweep, either as --dims=... or --dims ...), the product of the dims
    other than the swept one (the harness's default: the chain's first dim, read from the
    program line), so that a shaped chain's rows fall in the size band of their element count,
    not of their swept dim."""
    cmd, prog = [], ""
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                break
            if line.startswith("# command,"):
                cmd = shlex.split(line[len("# command,"):].strip().strip('"'))
            elif line.startswith("# program,"):
                prog = line
    opts = {}
    for i, tok in enumerate(cmd):
        for name in ("--dims", "--sweep"):
            if tok.startswith(name + "="):
                opts[name] = tok[len(name) + 1:]
            elif tok == name and i + 1 < len(cmd):
                opts[name] = cmd[i + 1]
    if "--dims" not in opts:
        return 1
    dims = dict(kv.split("=", 1) for kv in opts["--dims"].split(",") if "=" in kv)
    sweep = opts.get("--sweep")
    if sweep is None:  # the chain's first dim: the first name in a declared shape (not in a comment)
        for stmt in prog[len("# program,"):].strip().strip('"').split(" ; "):
            m = None if stmt.lstrip().startswith("#") else re.search(r"\[\s*([A-Za-z_]\w*)", stmt.split("#")[0])
            if m:
                sweep = m.group(1)
                break
    e = 1
    for d, v in dims.items():
        if d != sweep:
            e *= parse_size(v)
    return e


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--worst", type=int, default=12)
    args = ap.parse_args(argv)
    rows = []
    for path in sorted(glob.glob(os.path.join(args.dir, "*.csv"))):
        chain, per = os.path.basename(path)[:-4], row_elements(path)
        for r in read_rows(path):
            rows.append((chain, int(r["n"]) * per, r["mode"], float(r["error_pct"]), float(r["speedup"]),
                         float(r["predicted_speedup"])))
    if not rows:
        print("fidelity.py: no harness rows in %s" % args.dir, file=sys.stderr)
        return 1
    status = os.path.join(args.dir, "status.txt")
    if os.path.exists(status):
        bad = [line.split()[1] for line in open(status) if not line.startswith("0 ")]
        print("harness runs: %d, failed or stopped: %d %s" % (sum(1 for _ in open(status)), len(bad),
                                                            " ".join(bad[:10])))
    chains = sorted({r[0] for r in rows})
    groups = [(m, b) for m in ("cold", "hot", "graph") for b in ("n<2^22", "n>=2^22")]
    print("|error| of the predicted speedup, %: median / max (rows), by mode and size band")
    print("%-28s" % "chain" + "".join("%18s" % ("%s %s" % g) for g in groups))

    def line(name, sel):
        cells = []
        for m, b in groups:
            e = [r[3] for r in sel if r[2] == m and band(r[1]) == b]
            cells.append("%18s" % ("%.1f / %.1f (%d)" % summary(e) if e else "-"))
        print("%-28s" % name[:28] + "".join(cells))

    for c in chains:
        line(c, [r for r in rows if r[0] == c])
    line("ALL", rows)
    ok = {m: sum(1 for r in rows if r[2] == m and abs(r[3]) <= TARGET[m]) for m in TARGET}
    tot = {m: sum(1 for r in rows if r[2] == m) for m in TARGET}
    print("within target: " + ", ".join("%s %d/%d (<= %.0f%%)" % (m, ok[m], tot[m], TARGET[m]) for m in TARGET))
    allmed = statistics.median(abs(r[3]) for r in rows)
    print("median |error| over all rows: %.1f%%" % allmed)
    print("worst rows (chain, elements, mode, measured, predicted, error %):")
    for r in sorted(rows, key=lambda r: -abs(r[3]))[:args.worst]:
        print("  %-28s %10d %-5s %7.2fx %7.2fx %+6.1f" % (r[0][:28], r[1], r[2], r[4], r[5], r[3]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

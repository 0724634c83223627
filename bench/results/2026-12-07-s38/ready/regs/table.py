#!/usr/bin/env python3
"""The table of ready/regs/call.sh's runs: python3 table.py OUT (regs.tgz extracted there).

For each chain and size, the fused kernel's cold time as emitted and each variant's over it (< 1: the
variant is faster), the median of the rounds; beside it the registers and spill bytes ptxas gave the
fused kernel's instance that large n runs (the 32-bit index, the largest E) in each build
(OUT/ptxas/NAME_V.ptxas). Run from the repository's root."""
import glob
import os
import re
import statistics
import sys

sys.path.insert(0, "bench")  # run from the repository's root
from regs import parse  # noqa: E402  (ptxas -v's report of the fused kernels)

out = sys.argv[1]
VARIANTS = ("as", "r8", "r4", "r1")
times = {}  # (chain, variant, n) -> [fused us]
for path in glob.glob(os.path.join(out, "runs", "*.txt")):
    m = re.match(r"(.+)_(as|r8|r4|r1)_(\d)\.txt$", os.path.basename(path))
    for line in open(path):
        row = re.match(r"\s*(2\^\d+)\s+cold\s+([\d.]+)\s+([\d.]+)\s", line)
        if m and row:
            times.setdefault((m.group(1), m.group(2), row.group(1)), []).append(float(row.group(3)))


def ptxas(chain, v):
    """Registers/spill bytes of the fused kernel's instance that large n runs: the 32-bit index ("j") with the
    largest E, as bench/regs.py parses ptxas's report (a shaped chain: the larger of its ROW and other one)."""
    path = os.path.join(out, "ptxas", "%s_%s.ptxas" % (chain, v))
    if not os.path.exists(path):
        return "?"
    found = [(int(re.match(r"jLi(\d+)", inst).group(1)), r) for (_, inst), r in parse(open(path).read()).items()
             if re.match(r"jLi\d+", inst)]
    return "%d/%d" % max(found)[1] if found else "?"


chains = sorted({k[0] for k in times})
print("%-18s %5s %9s %s   regs/spill: %s" % ("chain", "n", "as us", " ".join("%7s" % v for v in VARIANTS[1:]),
                                              " ".join("%8s" % v for v in VARIANTS)))
for c in chains:
    for n in ("2^20", "2^24", "2^26"):
        base = times.get((c, "as", n))
        if not base:
            continue
        b = statistics.median(base)
        rel = ["%7.3f" % (statistics.median(times[(c, v, n)]) / b) if (c, v, n) in times else "      -" for v in VARIANTS[1:]]
        print("%-18s %5s %9.1f %s   %s" % (c, n, b, " ".join(rel), " ".join("%8s" % ptxas(c, v) for v in VARIANTS)))

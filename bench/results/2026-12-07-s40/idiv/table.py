#!/usr/bin/env python3
"""The table of call.sh's runs: python3 bench/results/2026-12-07-s40/idiv/table.py [idiv.tgz]

Each chain's fused kernel, cold, as 8968b53's fusec (old) and 0dfe8d1's (new) emitted it: the harness's time
(the lowest of three passes' medians of 10 calls) and new / old."""
import os
import re
import sys
import tarfile

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "idiv.tgz")
rows = {}  # (chain, n) -> {version: us}
with tarfile.open(path) as t:
    for m in t.getmembers():
        g = re.match(r"(?:\./)?(.+)_(old|new)_1\.txt$", m.name)
        if not g:
            continue
        for line in t.extractfile(m).read().decode().splitlines():
            r = re.match(r"\s*(2\^\d+)\s+cold\s+([\d.]+)\s+([\d.]+)\s", line)
            if r:
                rows.setdefault((g.group(1), r.group(1)), {})[g.group(2)] = float(r.group(3))
print("fused kernel, cold us (harness: lowest of 3 passes' medians of 10 calls); old: 8968b53, new: 0dfe8d1's rule")
print("%-18s %5s %9s %9s %8s" % ("chain", "n", "old", "new", "new/old"))
for (c, n), v in sorted(rows.items()):
    print("%-18s %5s %9.2f %9.2f %8.3f" % (c, n, v["old"], v["new"], v["new"] / v["old"]))

#!/usr/bin/env python3
"""The table of call.sh's runs: python3 bench/results/2026-12-07-s40/idiv/table.py

Each chain's fused kernel, cold, as 8968b53's fusec (old) and 0dfe8d1's (new) emitted it: the harness's time
(the lowest of three passes' medians of 10 calls) and new / old, from idiv.tgz's harness CSVs."""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", ".."))  # bench/
from hot_share import harness_runs  # noqa: E402  (the harness CSVs of a folder or its tarballs)

rows = {}  # (chain, n) -> {version: us}
for path, _, csv_rows in harness_runs([here]):
    g = re.search(r"([^/]+)_(old|new)_1\.csv$", path)
    for r in csv_rows:
        if g and r["mode"] == "cold":
            rows.setdefault((g.group(1), int(r["n"])), {})[g.group(2)] = float(r["fused_us"])
print("fused kernel, cold us (harness: lowest of 3 passes' medians of 10 calls); old: 8968b53, new: 0dfe8d1's rule")
print("%-18s %5s %9s %9s %8s" % ("chain", "n", "old", "new", "new/old"))
for (c, n), v in sorted(rows.items()):
    print("%-18s %5s %9.2f %9.2f %8.3f" % (c, "2^%d" % (n.bit_length() - 1), v["old"], v["new"], v["new"] / v["old"]))

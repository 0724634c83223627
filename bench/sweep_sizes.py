#!/usr/bin/env python3
"""sweep_sizes.py: a harness's --sizes (and a shaped chain's --dims) for given element counts.

    bench/sweep_sizes.py FUSEC FILE.fuse SIZES

SIZES is a comma list of element counts (4096,65536,...). A chain without
shapes prints `--sizes=SIZES`. A shaped one (its first line `# fusec-args:
--dims=...`) prints its --dims and --sweep and the sizes of the swept dim
that make about those counts with its other dims (each count over their
product, at least 1, each size once), so that bench/fidelity.sh times a
shaped chain at the same element counts as the others, not at the 17 sizes
its harness sweeps by default.
"""
import json
import math
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.strip().split("\n")[2].strip())
    fusec, path, sizes = sys.argv[1:]
    with open(path) as f:
        first = f.readline()
    args = first[len("# fusec-args:"):].split() if first.startswith("# fusec-args:") else []
    dims = [a for a in args if a.startswith(("--dims=", "--sweep="))]
    if not dims:
        print("--sizes=" + sizes)
        return
    desc = json.loads(subprocess.run([fusec, "-w", "--predict", "--format=json", *dims, path], check=True,
                                     capture_output=True, text=True).stdout)
    sweep = desc["shape"]["sweep"]
    others = math.prod(v for d, v in desc["shape"]["dims"].items() if d != sweep)
    swept = sorted({max(1, int(s) // others) for s in sizes.split(",")})
    print(" ".join(dims + ["--sweep=" + sweep] * (not any(a.startswith("--sweep=") for a in dims)) +
                   ["--sizes=" + ",".join(map(str, swept))]))


if __name__ == "__main__":
    main()

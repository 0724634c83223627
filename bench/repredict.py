#!/usr/bin/env python3
"""repredict.py: kept harness measurements against this fusec's model.

    bench/repredict.py FUSEC DIR_OR_TGZ... [--chains]

Each argument is a folder or tarball that bench/fidelity.sh wrote (its
`fidelity/NAME.csv` harness CSVs beside `fidelity/src/NAME.fuse`). For every
cold and graph row, predicts the speedup again with FUSEC (fusec --predict
--format=json, the CSV's own calibrated profile, its --dims and --sweep) and
prints, by mode and size band, the median |measured / predicted speedup - 1|
and the rows within 10%: as the run recorded it, and with FUSEC. A change to
the model (runtime/fusec_model.h) is checked this way on every kept run
before a GPU sees it (docs/model.md). --chains adds each chain's signed
cold errors by log2 n.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hot_share import harness_runs  # noqa: E402  (the harness CSVs and their profiles)

BANDS = (("n < 2^22", 0, 1 << 22), ("n >= 2^22", 1 << 22, 1 << 62))
HOSTS = (("cold", "c"), ("graph", "graph"))


def header(text, key):
    for line in text.splitlines():
        if line.startswith("# %s," % key):
            return line.split(",", 1)[1].strip().strip('"')
    return ""


def repredict(fusec, folder):
    """(chain, mode, n, recorded error %, error % with fusec) of every row."""
    for path, prof, rows in harness_runs([folder]):
        name = os.path.basename(path)[:-4]
        src = os.path.join(os.path.dirname(path), "src", name + ".fuse")
        if not os.path.exists(src):
            continue
        with open(path) as f:
            cmd = header(f.read(), "command").split()
        dims = [a for a in cmd if a.startswith(("--dims", "--sweep"))]
        with open(src) as f:
            first = f.readline()
        if first.startswith("# fusec-args:"):
            dims += [a for a in first.split()[2:] if not a.startswith(("--dims", "--sweep"))]
        profile = dict(prof, name="recorded", note="a harness CSV's profile")
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(profile, f)
        sizes = ",".join(sorted({r["n"] for r in rows}, key=int))
        for mode, host in HOSTS:
            out = subprocess.run([fusec, "--predict", "--format=json", "-w", "--device=" + f.name, "--host=" + host,
                                  "--sizes=" + sizes] + dims + [src], capture_output=True, text=True)
            if out.returncode:
                print("repredict.py: %s: %s" % (name, out.stderr.strip()), file=sys.stderr)
                continue
            pred = {s["n"]: s["speedup"] for s in json.loads(out.stdout)["sweep"]}
            for r in rows:
                n = int(r["n"])
                if r["mode"] == mode and n in pred:
                    yield name, mode, n, float(r["error_pct"]), 100 * (float(r["speedup"]) / pred[n] - 1)
        os.unlink(f.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fusec")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--chains", action="store_true")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, run in enumerate(a.runs):
            folder = run
            if run.endswith((".tgz", ".tar.gz")):
                folder = os.path.join(tmp, str(i))
                with tarfile.open(run) as t:
                    t.extractall(folder, filter="data")
            rows += list(repredict(a.fusec, folder))
    if not rows:
        raise SystemExit("repredict.py: no harness CSVs with their sources")
    print("%d rows; |error| median and rows within 10%%: recorded | with %s" % (len(rows), a.fusec))
    for mode, _ in HOSTS:
        for band, lo, hi in BANDS:
            sel = [r for r in rows if r[1] == mode and lo <= r[2] < hi]
            if sel:
                cells = [(statistics.median(abs(r[k]) for r in sel), sum(abs(r[k]) <= 10 for r in sel)) for k in (3, 4)]
                print("%-6s %-10s %5.1f%% %4d/%-4d | %5.1f%% %4d/%-4d" % (mode, band, cells[0][0], cells[0][1], len(sel),
                                                                        cells[1][0], cells[1][1], len(sel)))
    if a.chains:
        for name in sorted({r[0] for r in rows}):
            print("%-28s %s" % (name, " ".join("%d:%+.0f" % (r[2].bit_length() - 1, r[4]) for r in rows
                                                 if r[0] == name and r[1] == "cold")))


if __name__ == "__main__":
    main()

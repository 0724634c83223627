#!/usr/bin/env python3
"""repredict.py: kept harness measurements against this fusec's model.

    bench/repredict.py FUSEC DIR_OR_TGZ... [--chains]

Each argument is a tarball that bench/fidelity.sh wrote (fidelity.tgz, its
`fidelity/NAME.csv` harness CSVs beside `fidelity/src/NAME.fuse`), a folder
holding such tarballs (a kept run's folder), or one they were extracted to. For every
row, predicts the speedup again with FUSEC (fusec --predict
--format=json, the CSV's own calibrated profile, its --dims and --sweep; a
cold row with --mode=cold, a hot one with --mode=hot, a graph one with
--host=graph --mode=hot) and prints, by mode and size band, the median
|measured / predicted speedup - 1| and the rows within issue 12's targets
(10%, hot 15%): as the run recorded it, and with FUSEC. A change to
the model (runtime/fusec_model.h) is checked this way on every kept run
before a GPU sees it (docs/model.md). --chains adds each chain's signed
cold errors by log2 n; --versions each version's signed median time error
(measured / predicted time - 1) by mode and log2 n, to tell which version
a band's error is in. --set FIELD=VALUE (repeatable) overrides a profile
field in every CSV's profile: a term those runs' harnesses did not calibrate
yet, or a what-if.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hot_share import harness_runs  # noqa: E402  (the harness CSVs and their profiles)
from fidelity import TARGET, row_elements  # noqa: E402  (issue 12's targets; a shaped CSV's elements per step of n)

BANDS = (("n < 2^22", 0, 1 << 22), ("n >= 2^22", 1 << 22, 1 << 62))
# each of the harness's modes as fusec --predict's --host and --mode: its graph
# rows are replays back to back (L2 kept between them), as its hot rows are calls
MODES = (("cold", "c", "cold"), ("hot", "c", "hot"), ("graph", "graph", "hot"))


def header(text, key):
    for line in text.splitlines():
        if line.startswith("# %s," % key):
            return line.split(",", 1)[1].strip().strip('"')
    return ""


def shape_args(cmd, src):
    """fusec's --dims and --sweep for a harness command line (either form,
    --dims=X or --dims X) and the source's own # fusec-args."""
    args = []
    for i, a in enumerate(cmd):
        if a in ("--dims", "--sweep") and i + 1 < len(cmd):
            args.append(a + "=" + cmd[i + 1])
        elif a.startswith(("--dims=", "--sweep=")):
            args.append(a)
    with open(src) as f:
        first = f.readline()
    if first.startswith("# fusec-args:"):
        given = {a.split("=")[0] for a in args}
        args += [a for a in first.split()[2:] if a.split("=")[0] not in given]
    return args


def repredict(fusec, folder, tmp, overrides):
    """(chain, mode, n, recorded error %, error % with fusec, unfused and fused
    time error % with fusec) of every row."""
    for path, prof, rows in harness_runs([folder]):
        name = os.path.basename(path)[:-4]
        src = os.path.join(os.path.dirname(path), "src", name + ".fuse")
        if not os.path.exists(src):
            continue
        with open(path) as f:
            cmd = header(f.read(), "command").split()
        device = os.path.join(tmp, "profile.json")
        with open(device, "w") as f:
            json.dump(dict(prof, name="recorded", note="a harness CSV's profile", **overrides), f)
        sizes = ",".join(sorted({r["n"] for r in rows}, key=int))
        for mode, host, fmode in MODES:
            if not any(r["mode"] == mode for r in rows):
                continue
            out = subprocess.run([fusec, "--predict", "--format=json", "-w", "--device=" + device, "--host=" + host,
                                  "--mode=" + fmode, "--sizes=" + sizes] + shape_args(cmd, src) + [src],
                                 capture_output=True, text=True)
            if out.returncode:
                print("repredict.py: %s: %s" % (name, out.stderr.strip()), file=sys.stderr)
                continue
            pred = {s["n"]: s for s in json.loads(out.stdout)["sweep"]}
            per = row_elements(path)  # banded by elements, as fidelity.py does
            for r in rows:
                n = int(r["n"])
                if r["mode"] == mode and n in pred:
                    p = pred[n]
                    yield (name, mode, n * per, float(r["error_pct"]), 100 * (float(r["speedup"]) / p["speedup"] - 1),
                           100 * (float(r["unfused_us"]) / p["unfused_us"] - 1),
                           100 * (float(r["fused_us"]) / p["fused_us"] - 1))


def extract(tarball, into):
    """Extracts tarball, and the tarballs inside it, into the folder into,
    keeping none (a CSV is read where its src/ folder is)."""
    with tarfile.open(tarball) as t:
        if hasattr(tarfile, "data_filter"):  # Python 3.12, and 3.11.4 on
            t.extractall(into, filter="data")
        else:
            t.extractall(into)
    for i, inner in enumerate(glob.glob(os.path.join(into, "**", "*.tgz"), recursive=True)):
        extract(inner, os.path.join(os.path.dirname(inner), "%s.%d" % (os.path.basename(inner), i)))
        os.unlink(inner)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fusec")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--chains", action="store_true")
    ap.add_argument("--versions", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE")
    a = ap.parse_args()
    overrides = {k: float(v) for k, v in (x.split("=", 1) for x in a.set)}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, run in enumerate(a.runs):
            folder = os.path.join(tmp, str(i))
            tarballs = [run] if run.endswith((".tgz", ".tar.gz")) else \
                glob.glob(os.path.join(run, "**", "*.tgz"), recursive=True)
            for j, t in enumerate(tarballs):
                extract(t, os.path.join(folder, str(j)))
            rows += list(repredict(a.fusec, folder if tarballs else run, tmp, overrides))
    if not rows:
        raise SystemExit("repredict.py: no harness CSVs with their sources")
    print("%d rows; |error| median and rows within target (10%%, hot 15%%): recorded | with %s" % (len(rows), a.fusec))
    for mode, _, _ in MODES:
        for band, lo, hi in BANDS:
            sel = [r for r in rows if r[1] == mode and lo <= r[2] < hi]
            if sel:
                cells = [(statistics.median(abs(r[k]) for r in sel), sum(abs(r[k]) <= TARGET[mode] for r in sel))
                         for k in (3, 4)]
                print("%-6s %-10s %5.1f%% %4d/%-4d | %5.1f%% %4d/%-4d" % (mode, band, cells[0][0], cells[0][1], len(sel),
                                                                        cells[1][0], cells[1][1], len(sel)))
    if a.versions:
        print("signed median error of each version's time, %, by log2 n (rows): unfused / fused")
        for mode, _, _ in MODES:
            cells = []
            for b in sorted({r[2].bit_length() - 1 for r in rows if r[1] == mode}):
                sel = [r for r in rows if r[1] == mode and r[2].bit_length() - 1 == b]
                if len(sel) >= 5:
                    cells.append("%d:%+.1f/%+.1f(%d)" % (b, statistics.median(r[5] for r in sel),
                                                        statistics.median(r[6] for r in sel), len(sel)))
            print("%-6s %s" % (mode, " ".join(cells)))
    if a.chains:
        for name in sorted({r[0] for r in rows}):
            print("%-28s %s" % (name, " ".join("%d:%+.0f" % (r[2].bit_length() - 1, r[4]) for r in rows
                                                 if r[0] == name and r[1] == "cold")))


if __name__ == "__main__":
    main()

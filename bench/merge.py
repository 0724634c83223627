#!/usr/bin/env python3
"""One table from a bench/device.sh run: every harness CSV and the torch CSVs.

    bench/merge.py RESULTS_DIR [--csv FILE] [--json FILE]

RESULTS_DIR is the results folder of a run (the harnesses' --csv files, the
torch_bench.py CSVs and h200-calibrated.json). Each output row is one version
of one chain at one size and timing mode:

  tool      fusec (the emitted harness), torch (bench/torch_bench.py) or copy
  chain     the example's name (seed, swiglu, ...); dtype its element type
            (f32 when it declares none, mixed when its inputs differ)
  version   unfused | fused (fusec), eager | compile (torch), cudaMemcpy (copy)
  mode      cold | hot | graph
  n, us     elements and the median time per call
  gb_s      the bytes the version must move / us; pct_copy that over the copy
            bandwidth calibrated in the same run (h200-calibrated.json)
  speedup   unfused (or eager) time / this version's time, same n and mode
  predicted fusec's predicted speedup (fused rows of the harness)
  date_utc  when the file's run started

The copy row has no n: it is the calibrated ceiling.
"""
import argparse
import csv
import glob
import json
import os
import re
import sys

COLUMNS = ["tool", "chain", "dtype", "version", "mode", "n", "us", "gb_s", "pct_copy", "speedup",
           "predicted", "date_utc"]


def harness_rows(path, copy):
    with open(path) as f:
        lines = f.read().splitlines()
    meta = {}
    for l in lines:
        if l.startswith("# ") and "," in l:
            cells = next(csv.reader([l[2:]]))
            meta.setdefault(cells[0], ",".join(cells[1:]))
    name, source = meta.get("chain", ""), meta.get("source", "")
    m = re.search(r"_(f16|bf16|f32|f64)$", name)
    if m:
        dtype = m.group(1)
    else:
        decl = set(re.findall(r"^\s*in\s+\w+\s*:\s*(\w+)", meta.get("program", "").replace(" ; ", "\n"), re.M))
        dtype = decl.pop() if len(decl) == 1 else "mixed" if decl else "f32"
    chain = os.path.splitext(os.path.basename(source))[0] or name
    out = []
    for r in csv.DictReader(l for l in lines if not l.startswith("#")):
        for v in ("unfused", "fused"):
            out.append(dict(tool="fusec", chain=chain, dtype=dtype, version=v, mode=r["mode"], n=r["n"],
                            us=r[v + "_us"], gb_s=r[v + "_gbps"], pct_copy=r[v + "_pct_copy"],
                            speedup=r["speedup"] if v == "fused" else "1",
                            predicted=r["predicted_speedup"] if v == "fused" else "",
                            date_utc=meta.get("date_utc", "")))
    return out


def torch_rows(path, copy, date):
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            out.append(dict(tool="torch", chain=r["chain"], dtype=r["dtype"], version=r["version"],
                            mode=r["mode"], n=r["n"], us=r["us"], gb_s=r["gb_s"],
                            pct_copy="%.1f" % (100 * float(r["gb_s"]) / copy),
                            speedup=r["speedup"], predicted="", date_utc=date))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--csv", metavar="FILE", default=None, help="default RESULTS/sweep.csv")
    ap.add_argument("--json", metavar="FILE", default=None, help="default RESULTS/sweep.json")
    a = ap.parse_args()
    prof_path = os.path.join(a.results, "h200-calibrated.json")
    try:
        with open(prof_path) as f:
            prof = json.load(f)
    except OSError as e:
        sys.exit("merge.py: %s" % e)
    copy = float(prof["hbm_gbps"])
    rows = [dict(tool="copy", chain="", dtype="", version="cudaMemcpy", mode="", n="", us="",
                 gb_s="%.1f" % copy, pct_copy="100.0", speedup="", predicted="",
                 date_utc=re.sub(r".*calibrated (\S+) .*", r"\1", prof.get("note", "")))]
    for path in sorted(glob.glob(os.path.join(a.results, "*.csv"))):
        with open(path) as f:
            first = f.readline()
        base = os.path.basename(path)
        if first.startswith("# fusec harness run"):
            rows += harness_rows(path, copy)
        elif first.startswith("chain,dtype,version") and base.startswith("torch"):
            js = path[:-4] + ".json"
            date = json.load(open(js))["header"]["date_utc"] if os.path.exists(js) else ""
            rows += torch_rows(path, copy, date)
    out_csv = a.csv or os.path.join(a.results, "sweep.csv")
    out_json = a.json or os.path.join(a.results, "sweep.json")
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    with open(out_json, "w") as f:
        json.dump(dict(columns=COLUMNS, copy_profile=prof, rows=rows), f, indent=1)
        f.write("\n")
    print("merge.py: %d rows -> %s, %s" % (len(rows), out_csv, out_json))


if __name__ == "__main__":
    main()

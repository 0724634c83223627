#!/usr/bin/env python3
"""regs.py: the fused kernels' registers and blocks an SM, one build or two.

    bench/regs.py FUSEC [--against FUSEC_B] FILE.fuse ...
    bench/regs.py --log PTXAS_LOG [--against-log PTXAS_LOG_B]

Emits each FILE.fuse with FUSEC (its "# fusec-args:" line applied), compiles
the library (nvcc -O3 -arch=sm_90 -cubin -DFUSEC_NO_HARNESS -Xptxas -v, no
GPU) and prints, for each instance of the fused kernel (its template
arguments as ptxas names them: j/m for the 32/64-bit index, E, a shaped
chain's ROW), the registers ptxas gave it, the bytes it spills and the
blocks of FX_THREADS (128) threads an SM holds at that count (65536
registers an SM, allocated 8 to a thread at a time, at most 16 blocks): a
kernel whose registers cross one of those steps changes its occupancy,
which is what a change to the kernel's shape can cost a compute-heavy chain
(session 30's call 1: random program 7's E = 4 instance 66 -> 80 registers,
7 -> 6 blocks, 4-6% slower). With --against, the same for a second build
and the instances whose blocks an SM went down or up. --log reads ptxas
output that was written already (nvcc -Xptxas -v's stderr) instead.
"""
import argparse
import os
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_count import cubin  # noqa: E402  (a chain emitted and built as a cubin, ptxas's report)

THREADS = 128  # FX_THREADS
SM_REGS, MAX_BLOCKS, GRANULE = 65536, 16, 8


def blocks(regs):
    """Blocks of THREADS an SM holds at regs registers a thread."""
    per_thread = -(-max(regs, 1) // GRANULE) * GRANULE
    return min(MAX_BLOCKS, SM_REGS // (per_thread * THREADS))


def parse(text):
    """{(chain, instance): (registers, spill bytes)} of the fused kernels in ptxas -v output."""
    out = {}
    for part in text.split("Compiling entry function '")[1:]:
        name = part.split("'", 1)[0]
        m = re.match(r"_Z\d+(\w+?)_fused_kernelI(\w+?)EEv", name)
        regs = re.search(r"Used (\d+) registers", part)
        if not m or not regs:
            continue
        spill = re.search(r"(\d+) bytes spill stores", part)
        out[(m.group(1), m.group(2))] = (int(regs.group(1)), int(spill.group(1)) if spill else 0)
    return out


def compile_log(job):
    fusec, src, work = job
    return cubin(fusec, src, os.path.join(work, os.path.basename(src)[:-5]), os.environ.get("NVCC", "nvcc"))


def build(fusec, files, jobs):
    with tempfile.TemporaryDirectory() as work:
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            return parse("".join(ex.map(compile_log, [(fusec, f, work) for f in files])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fusec", nargs="?")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--against", metavar="FUSEC_B")
    ap.add_argument("--log")
    ap.add_argument("--against-log")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_intermixed_args()
    if a.log:
        with open(a.log) as f:
            one = parse(f.read())
        two = None
        if a.against_log:
            with open(a.against_log) as f:
                two = parse(f.read())
    else:
        if not a.fusec or not a.files:
            ap.error("give FUSEC and FILE.fuse ..., or --log")
        one = build(a.fusec, a.files, a.jobs)
        two = build(a.against, a.files, a.jobs) if a.against else None
    if not one:
        raise SystemExit("regs.py: no fused kernel in the ptxas output")
    keys = sorted(set(one) | set(two or {}))
    width = max(len(c) for c, _ in keys)
    down = up = 0
    for c, inst in keys:
        cells = []
        for side in (one, two) if two is not None else (one,):
            r = side.get((c, inst))
            cells.append("%4s %2s blocks%s" % (r[0], blocks(r[0]), " spills %d B" % r[1] if r[1] else "")
                         if r else "   -")
        line = "%-*s %-10s %s" % (width, c, inst, "  ->  ".join(cells))
        if two is not None and (c, inst) in one and (c, inst) in two:
            b1, b2 = blocks(one[(c, inst)][0]), blocks(two[(c, inst)][0])
            down += b2 < b1
            up += b2 > b1
            line += "  fewer blocks" if b2 < b1 else "  more blocks" if b2 > b1 else ""
        print(line.rstrip())
    if two is not None:
        print("instances in both: %d; fewer blocks an SM with the second: %d, more: %d"
              % (len(set(one) & set(two)), down, up))
    return 0


if __name__ == "__main__":
    sys.exit(main())

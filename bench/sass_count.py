#!/usr/bin/env python3
"""sass_count.py: the machine instructions a fused kernel runs per element, beside the model's issue slots.

    bench/sass_count.py FUSEC CHAIN.fuse... [--nvcc nvcc] [--nvdisasm nvdisasm] [--no-row]

Emits each chain (fusec -w; a `# fusec-args:` first line is honoured), builds
it for sm_90 as a cubin (nvcc -O3 -cubin -DFUSEC_NO_HARNESS), disassembles it
(nvdisasm -c) and takes the fused kernel's instance that large n runs: the
32-bit-index one of whole chunks with the largest E, a shaped chain's ROW
instance where it has one (--no-row: the one without, which a last dim not a
multiple of E runs). One chunk a thread, no loop: its instructions up
to the first EXIT that is not predicated are the path a thread runs (the fast
paths inline; the slow paths' subroutines, a division's or an erf's, come
after it, and loops such as fmodf's count once). The kernel's first
predicated branch parts a whole chunk from one element of the tail (the
threads past the whole chunks): of its two ways, the longer is the whole
chunk's, which is counted. Prints per chain E, that
count over E (SASS an element) and its mix (fp32: FFMA, FADD, FMUL, FSEL,
... and the half-pair ops; fp64: D*; mufu: MUFU; int: integer and logic ops;
mem: loads, stores and constant reads; ctl: branches, barriers, calls;
cvt: conversions), beside the model's fp32 and fp64 issue slots per element
(fusec --predict --format=json), the units of src/opcost.def. No GPU: a
static view, for reading a kernel's code beside the model's price (docs/cuda.md
"What the winners do", docs/model.md); the times are the bench's.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repredict import shape_args  # noqa: E402  (a source's # fusec-args)

INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)(?:.*`\((\.L_x_\d+)\))?")
LABEL = re.compile(r"^(\.L_x_\d+):$")
SECTION = re.compile(r"^\.text\.(\S+):$")
CLASSES = (
    ("fp64", re.compile(r"^D(FMA|ADD|MUL|SETP|MNMX)$")),
    ("mufu", re.compile(r"^MUFU$")),
    ("cvt", re.compile(r"^(F2F|F2I|I2F|F2FP|I2I|FRND)$")),
    ("fp32", re.compile(r"^(FFMA|FADD|FMUL|FSEL|FSETP|FMNMX|FCHK|HFMA2|HADD2|HMUL2|HSETP2|HMNMX2|FSWZADD)$")),
    ("mem", re.compile(r"^(LDG|STG|LDC|ULDC|LDS|STS|LDL|STL|LD|ST|ATOM|RED)$")),
    ("ctl", re.compile(r"^(BRA|EXIT|BSSY|BSYNC|CALL|RET|BREAK|WARPSYNC|BAR|NOP|YIELD|JMP)$")),
)
NAMES = ("fp32", "fp64", "mufu", "int", "mem", "ctl", "cvt")


def klass(op):
    for name, rx in CLASSES:
        if rx.match(op):
            return name
    return "int"  # IMAD, IADD3, LOP3, SHF, ISETP, LEA, PRMT, SEL, MOV, S2R, VIADD, ...


def cubin(fusec, src, base, nvcc="nvcc", name=None):
    """Emits src with fusec (its # fusec-args applied, and --name where given) as base.cu, builds the library
    as base.cubin (nvcc -O3 -arch=sm_90 -cubin -DFUSEC_NO_HARNESS -Xptxas -v, no GPU) and returns ptxas's
    report (nvcc's stderr); a failure of either ends the script with its message."""
    r = subprocess.run([fusec, "-w"] + (["--name=" + name] if name else []) + shape_args([], src) +
                       [src, "-o", base + ".cu"], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("fusec failed on %s:\n%s" % (src, r.stderr.strip()))
    r = subprocess.run([nvcc, "-O3", "-arch=sm_90", "-cubin", "-DFUSEC_NO_HARNESS", "-Xptxas", "-v", base + ".cu",
                        "-o", base + ".cubin"], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("nvcc failed on %s:\n%s" % (src, r.stderr[-2000:]))
    return r.stderr


def kernels(sass):
    """{mangled name: ([(predicated, opcode, branch target or None)], {label: index})} of every function
    in nvdisasm -c's output."""
    out, cur = {}, None
    for line in sass.splitlines():
        m = SECTION.match(line.strip())
        if m:
            cur = out.setdefault(m.group(1), ([], {}))
            continue
        m = LABEL.match(line.strip())
        if m and cur is not None:
            cur[1][m.group(1)] = len(cur[0])
            continue
        m = INSN.match(line)
        if m and cur is not None:
            cur[0].append((bool(m.group(1)), m.group(2), m.group(3)))
    return out


def large_n_instance(prefix, fns, row=True):
    """(name, E) of the fused kernel's whole-chunk, 32-bit instance with the largest E (ROW where there is
    one, unless row is False: then the instance an odd last dim runs, each broadcast input gathered an element)."""
    best = None
    pat = re.compile(r"^_Z\d+%s_fused_kernelIjLi(\d+)E(Lb([01])E)?E" % re.escape(prefix))
    for name in fns:
        m = pat.match(name)
        if m:
            key = (int(m.group(1)), (m.group(3) == "1") == row)
            if best is None or key > best[0]:
                best = (key, name)
    return (best[1], best[0][0]) if best else (None, 0)


def run_to_exit(insns, start):
    """The instructions from start up to the first EXIT that is not predicated."""
    out = []
    for pred, op, _ in insns[start:]:
        out.append(op)
        if op == "EXIT" and not pred:
            break
    return out


def count(fn):
    """The mix of a whole chunk's path: the instructions up to the first predicated branch, then the
    longer of its two ways (fall through, or the branch's target) up to an EXIT that is not predicated."""
    insns, labels = fn
    path = run_to_exit(insns, 0)
    for k, (pred, op, target) in enumerate(insns):
        if op == "EXIT" and not pred:
            break
        if op == "BRA" and pred and target in labels:
            head = [o for _, o, _ in insns[:k + 1]]
            path = head + max(run_to_exit(insns, k + 1), run_to_exit(insns, labels[target]), key=len)
            break
    mix = dict.fromkeys(NAMES, 0)
    for op in path:
        mix[klass(op)] += 1
    return mix


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fusec")
    ap.add_argument("chains", nargs="+")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--nvdisasm", default="nvdisasm")
    ap.add_argument("--no-row", action="store_true",
                    help="a shaped chain's instance without ROW (a last dim not a multiple of E)")
    a = ap.parse_args()
    print("%-24s %3s %7s %7s  %s   %9s %9s" % ("chain", "E", "SASS/el", "regs", " ".join("%6s" % n for n in NAMES),
                                               "slots32", "slots64"))
    with tempfile.TemporaryDirectory() as tmp:
        for src in a.chains:
            prefix = "c%d" % a.chains.index(src)
            base = os.path.join(tmp, prefix)
            ptx = cubin(a.fusec, src, base, a.nvcc, prefix)
            fns = kernels(subprocess.run([a.nvdisasm, "-c", base + ".cubin"], check=True, capture_output=True,
                                         text=True).stdout)
            name, e = large_n_instance(prefix, fns, not a.no_row)
            if not name:
                print("%-24s no fused kernel instance found" % os.path.basename(src)[:24])
                continue
            regs = re.search(r"entry function '%s'.*?Used (\d+) registers" % re.escape(name), ptx, re.S)
            mix = count(fns[name])
            rep = json.loads(subprocess.run([a.fusec, "--predict", "--format=json", "-w", src] + shape_args([], src),
                                            check=True, capture_output=True, text=True).stdout)["fused"]
            print("%-24s %3d %7.1f %7s  %s   %9.1f %9.1f" % (
                os.path.basename(src)[:-5][:24], e, sum(mix.values()) / e, regs.group(1) if regs else "?",
                " ".join("%6.1f" % (mix[n] / e) for n in NAMES), rep["fp32_slots_per_element"],
                rep["fp64_slots_per_element"]))


if __name__ == "__main__":
    main()

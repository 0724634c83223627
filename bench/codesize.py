#!/usr/bin/env python3
"""codesize.py: how large fusec's unfused kernels' code is, against their issue slots.

    bench/codesize.py FUSEC OUT CHAIN.fuse...

Emits each chain (fusec -w; a `# fusec-args:` first line is honoured), builds
it for sm_90 as a cubin (nvcc -O3 -cubin -DFUSEC_NO_HARNESS), reads each
unfused kernel's code size from the cubin's section headers (readelf: the
kernel's 32-bit-index form, the one that runs below 2^31 elements) and fits
    KiB = a + b * fp32 slots + c * fp64 slots
over every kernel by least squares (the slots are `fusec --predict
--format=json`'s per kernel). Prints the fit, its median |error|, and the
harness's calibration kernel's size (fh_cal_kernel, from the seed chain's
harness). runtime/fusec_model.h's FUSEC_CODE_KB_* constants are this fit:
the model's code-fetch term (docs/model.md). Needs nvcc and readelf; no GPU.
"""
import json
import os
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repredict import shape_args  # noqa: E402  (a source's # fusec-args)

SECTION = re.compile(r"\.text\.(\S+)\s+PROGBITS\s+\S+\s+\S+\s+([0-9a-f]+)")


def sections(cubin):
    out = subprocess.run(["readelf", "-SW", cubin], capture_output=True, text=True).stdout
    return {m.group(1): int(m.group(2), 16) / 1024 for m in map(SECTION.search, out.splitlines()) if m}


def build(fusec, out, src, harness=False):
    """The chain's C name and its cubin's code sections, KiB by kernel symbol
    (with harness, the .cu built as the harness, its calibration kernels in it)."""
    name = re.sub(r"\W", "_", os.path.basename(src)[:-5])
    cu, cubin = os.path.join(out, name + ".cu"), os.path.join(out, name + (".h" if harness else "") + ".cubin")
    subprocess.run([fusec, "-w", "--name=" + name, src, "-o", cu], check=True, capture_output=True)
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-cubin"] + ([] if harness else ["-DFUSEC_NO_HARNESS"]) +
                   [cu, "-o", cubin], check=True, capture_output=True)
    return name, sections(cubin)


def kernel_list(fusec, src):
    """fusec --predict's unfused kernels of the chain (its # fusec-args honoured)."""
    pred = subprocess.run([fusec, "--predict", "--format=json", "-w", "--sizes=4096"] + shape_args([], src) + [src],
                          check=True, capture_output=True, text=True).stdout
    return json.loads(pred)["unfused"]["kernel_list"]


def solve3(rows):
    """Least squares y = a + b x1 + c x2 by the normal equations."""
    A = [[1.0, x1, x2] for x1, x2, _ in rows]
    y = [r[2] for r in rows]
    M = [[sum(a[i] * a[j] for a in A) for j in range(3)] for i in range(3)]
    v = [sum(a[i] * t for a, t in zip(A, y)) for i in range(3)]
    for i in range(3):  # Gauss-Jordan, the matrix is small and well conditioned
        p = max(range(i, 3), key=lambda r: abs(M[r][i]))
        M[i], M[p], v[i], v[p] = M[p], M[i], v[p], v[i]
        for r in range(3):
            if r != i and M[i][i]:
                f = M[r][i] / M[i][i]
                M[r] = [x - f * z for x, z in zip(M[r], M[i])]
                v[r] -= f * v[i]
    return [v[i] / M[i][i] for i in range(3)]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    fusec, out, srcs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as ex:
        built = list(ex.map(lambda s: build(fusec, out, s) + (kernel_list(fusec, s),), srcs))
    rows = []
    for name, secs, kernels in built:
        for i, k in enumerate(kernels, 1):
            size = [v for s, v in secs.items() if re.search(r"\d%s_k%d_[a-z0-9]+IjE" % (re.escape(name), i), s)]
            if len(size) == 1:
                rows.append((k["fp32_slots"], k["fp64_slots"], size[0]))
    a, b, c = solve3([(r[0], r[1], r[2]) for r in rows])
    err = [abs(r[2] - (a + b * r[0] + c * r[1])) / r[2] for r in rows]
    print("%d kernels of %d chains: KiB = %.3f + %.4f * fp32 slots + %.4f * fp64 slots; median |error| %.1f%%" %
          (len(rows), len(built), a, b, c, 100 * statistics.median(err)))
    print("sizes: median %.2f KiB, %.2f-%.2f" % (statistics.median(r[2] for r in rows), min(r[2] for r in rows),
                                                  max(r[2] for r in rows)))
    cal = [v for s, v in build(fusec, out, srcs[0], harness=True)[1].items() if "fh_cal_kernelILi0ELi0E" in s]
    if cal:
        print("the harness's calibration kernel: %.2f KiB" % cal[0])


if __name__ == "__main__":
    main()

#!/bin/sh
# The GPU check of the CUB version (issue 13: -DFUSEC_CUB, P_cub), in one
# command, from the repository root of an H200 machine with nvcc 13 and PyTorch:
#   bench/cub_gpu.sh OUT
# 1. builds fusec (build/), unless FUSEC names a built one;
# 2. harness: seed (one f32 input and output), two_out (two outputs: the zip
#    iterator) and mixed (f16 and bf16 inputs, f16 and bool outputs, a param)
#    compiled with -DFUSEC_CUB; each verifies all three versions (unfused,
#    fused, cub) against the double reference, then times them cold, hot and
#    graph with the CUB columns (cub us, vs cub, %copy): OUT/NAME.txt (the
#    printout), NAME.csv and NAME.json in the tarball;
# 3. fusion: bench/fusion_bench.py on bench/chains/*.fuse, which builds each
#    library with -DFUSEC_CUB, checks that P_cub writes what P_fused writes,
#    bit for bit, and prints the cub columns (cub us, cub/fu, cub%cp, its ulps)
#    beside eager, torch.compile and fused: OUT/fusion_table.txt; its log,
#    results.csv and accuracy.csv in the tarball.
# STEPS (default "harness fusion") picks the steps, so that each fits a time
# limit per command. OUT/summary.txt has each step's exit status; everything
# else is in OUT/cub_gpu.tar.gz (at most 7 files land in OUT).
set -u
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fusec=${FUSEC:-}
if [ -z "$fusec" ]; then
  cmake -S . -B build -G Ninja >/dev/null && cmake --build build >/dev/null || { echo "build failed" >&2; exit 1; }
  fusec=build/fusec
fi
steps=${STEPS:-harness fusion}
s1=- s2=-
case " $steps " in *" harness "*)
  s1=0
  for name in seed two_out mixed; do
    "$fusec" -w "examples/$name.fuse" -o "$work/$name.cu" &&
      nvcc -O3 -arch=sm_90 -DFUSEC_CUB "$work/$name.cu" -o "$work/$name" &&
      "$work/$name" --seed 1 --sizes 2^12,2^16,2^20,2^24,2^28 --csv "$work/$name.csv" --json "$work/$name.json" \
        >"$work/$name.txt" 2>&1 || { echo "harness $name failed: $out/$name.txt" >&2; s1=1; }
    cp "$work/$name.txt" "$out/$name.txt" 2>/dev/null
    rm -f "$work/$name" "$work/$name.cu"
  done ;;
esac
case " $steps " in *" fusion "*)
  python3 bench/fusion_bench.py --fusec "$fusec" --sizes 2^12,2^16,2^20,2^24,2^28 --passes 3 --reps 15 \
    --out "$work/fusion" --build "$work/fusion_build" bench/chains/*.fuse >"$work/fusion.log" 2>&1
  s2=$?
  cp "$work/fusion/table.txt" "$out/fusion_table.txt" 2>/dev/null
  rm -rf "$work/fusion_build" ;;
esac
echo "harness $s1, fusion_bench.py $s2" | tee "$out/summary.txt"
tar czf "$out/cub_gpu.tar.gz" -C "$work" .
for s in $s1 $s2; do [ "$s" = - ] || [ "$s" = 0 ] || exit 1; done

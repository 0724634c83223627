#!/bin/sh
# Compile-time figures (no GPU needed):
#  1. fusec --predict on generated chains of 10^3 .. 10^5 statements (2 ops
#     each): the median of 5 runs, to show time grows linearly;
#  2. fusec + nvcc wall time for the seed chain, as a harness and as a library,
#     to set beside torch.compile's first call (8.24 s on the H200 host,
#     bench/results/h200-reference.md).
#   bench/compile_time.sh [FUSEC] [NVCC]
set -eu
fusec=${1:-build/fusec}
nvcc=${2:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
median5() { sort -g | sed -n 3p; }
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "statements  ops      predict s (median of 5)   us per statement"
for n in 1000 3000 10000 30000 100000; do
  awk -v n=$n 'BEGIN { print "v0 = x * 1.5"; for (i = 1; i < n; i++) printf "v%d = v%d * 0.5 + %d\n", i, i - 1, i % 7 }' >"$tmp/c.fuse"
  for r in 1 2 3 4 5; do
    t0=$(now); "$fusec" -w --predict "$tmp/c.fuse" >/dev/null; t1=$(now)
    echo "$t1 - $t0" | bc -l
  done | median5 >"$tmp/t"
  t=$(cat "$tmp/t")
  printf "%10d %6d %20.4f %18.2f\n" $n $((2 * n - 1)) "$t" "$(echo "$t * 1000000 / $n" | bc -l)"
done
echo
echo "seed chain: fusec + nvcc -O3 -arch=sm_90, wall seconds (median of 3)"
for form in harness library; do
  for r in 1 2 3; do
    t0=$(now)
    "$fusec" examples/seed.fuse -o "$tmp/seed.cu"
    if [ $form = harness ]; then "$nvcc" -O3 -arch=sm_90 "$tmp/seed.cu" -o "$tmp/seed"
    else "$nvcc" -O3 -arch=sm_90 -DFUSEC_NO_HARNESS -c "$tmp/seed.cu" -o "$tmp/seed.o"; fi
    t1=$(now)
    echo "$t1 - $t0" | bc -l
  done | sort -g | sed -n 2p >"$tmp/t"
  printf "  %-8s %6.2f s   (torch.compile first call: 8.24 s)\n" $form "$(cat "$tmp/t")"
done

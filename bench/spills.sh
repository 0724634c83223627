#!/bin/sh
# Each kernel that spills registers to local memory (nvcc -Xptxas -v), for
# fusec's emitted .cu of each FILE.fuse (its "# fusec-args:" line applied):
# one line "chain kernel bytes" per spilling kernel of the 32-bit-index
# instantiation, then a count. Needs nvcc, no GPU. docs/cuda.md ("Full
# occupancy where it fits") quotes it on the examples and golden chains.
#   bench/spills.sh FUSEC FILE.fuse ...
set -u
fusec=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc=${NVCC:-nvcc}
total=0
for f in "$@"; do
  b=$(basename "$f" .fuse)
  args=$(sed -n '1s/^# fusec-args: //p' "$f")
  # shellcheck disable=SC2086 # the fusec-args line is a list of arguments
  "$fusec" -w $args "$f" -o "$work/$b.cu" || { echo "$b: fusec failed"; continue; }
  "$nvcc" -O3 -arch=sm_90 -DFUSEC_NO_HARNESS -Xptxas -v -c "$work/$b.cu" -o "$work/$b.o" 2>"$work/$b.log" ||
    { echo "$b: nvcc failed"; continue; }
  # ptxas names the function, then its properties: "N bytes spill stores"
  awk -f "$(dirname "$0")/spills.awk" "$work/$b.log" | sed "s/^/$b /" >"$work/$b.spills"
  cat "$work/$b.spills"
  total=$((total + $(wc -l <"$work/$b.spills")))
done
echo "kernels that spill: $total"

#!/bin/sh
# Random valid programs (tests/randgen.py) through the whole tool chain: each
# must compile with fusec (--predict, the .cu and the header) and the .cu
# with nvcc, as a library (-DFUSEC_NO_HARNESS -c, where no unfused kernel may
# spill registers: ptxas -v) and as the harness. When a
# GPU is present, each harness also verifies both versions against its
# double reference (--verify-only).
#   randgen.sh FUSEC NVCC N         NVCC '-': fusec only
# Environment: RANDGEN_SEED (default 1), NVCC_ARCH (default sm_90),
# FUSEC_RANDGEN_VERIFY=0/1 (default: 1 when nvidia-smi sees a GPU),
# FUSEC_RANDGEN_KEEP=DIR keeps the programs and the builds there.
set -u
fusec=$1 nvcc=$2 count=$3
root=$(cd "$(dirname "$0")/.." && pwd)
seed=${RANDGEN_SEED:-1}
arch=${NVCC_ARCH:-sm_90}
if [ -n "${FUSEC_RANDGEN_KEEP:-}" ]; then
  work=$FUSEC_RANDGEN_KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
verify=${FUSEC_RANDGEN_VERIFY:-}
if [ -z "$verify" ]; then
  verify=0
  [ "$nvcc" != - ] && nvidia-smi -L >/dev/null 2>&1 && verify=1
fi
fails=0
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

python3 "$root/tests/randgen.py" --seed "$seed" --count "$count" --out "$work" --ops-def "$root/src/ops.def" ||
  { echo "FAIL: randgen.py"; exit 1; }
for src in "$work"/*.fuse; do
  name=$(basename "$src" .fuse)
  b=$work/$name
  # a shaped program's first line gives its dims: for --predict and the harness
  dims=$(sed -n '1s/^# fusec-args: //p' "$src") # randgen.py writes only --dims there
  "$fusec" -w --predict $dims "$src" >"$b.report" 2>"$b.err" || { fail "$name: fusec --predict"; cat "$b.err"; continue; }
  "$fusec" -w --emit=header "$src" -o "$b.h" 2>"$b.err" || { fail "$name: fusec --emit=header"; cat "$b.err"; continue; }
  "$fusec" -w "$src" -o "$b.cu" 2>"$b.err" || { fail "$name: fusec"; cat "$b.err"; continue; }
  if [ "$nvcc" = - ]; then
    echo "ok: $name (fusec)"
    continue
  fi
  if ! "$nvcc" -O3 -arch="$arch" -DFUSEC_NO_HARNESS -Xptxas -v -c "$b.cu" -o "$b.o" >"$b.nvcc" 2>&1; then
    fail "$name: nvcc -DFUSEC_NO_HARNESS -c"
    grep -m5 error "$b.nvcc"
    continue
  fi
  # no unfused kernel (P_k<k>_<op>) spills registers in its 32-bit-index instance (ptxas -v)
  spills=$(awk -v only='_k[0-9]+_' -f "$root/bench/spills.awk" "$b.nvcc")
  [ -z "$spills" ] || { fail "$name: unfused kernels that spill (ptxas -v): $spills"; continue; }
  if ! "$nvcc" -O3 -arch="$arch" "$b.cu" -o "$b" >"$b.nvcc" 2>&1; then
    fail "$name: nvcc (harness)"
    grep -m5 error "$b.nvcc"
    continue
  fi
  if [ "$verify" = 1 ]; then
    sizes=4096,1M
    [ -n "$dims" ] && sizes=5,127 # the swept dim's sizes: rows, with the other dims at --dims
    if ! "$b" --verify-only --sizes $sizes $dims --seed 1 >"$b.verify" 2>&1; then
      fail "$name: the harness's verification"
      tail -15 "$b.verify"
      continue
    fi
  fi
  echo "ok: $name"
done
if [ $fails -gt 0 ]; then
  echo "$fails of $count random programs failed (RANDGEN_SEED=$seed; FUSEC_RANDGEN_KEEP=DIR keeps them)"
  exit 1
fi
echo "all $count random programs passed (RANDGEN_SEED=$seed)"

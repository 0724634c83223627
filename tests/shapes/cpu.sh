#!/bin/sh
# Chains run on the host (tests/shapes/cpu_emulate.py, cpu_check.cu): both
# versions, vector and scalar paths and the vector path with the broadcast
# inputs misaligned (a misaligned vector access aborts), every element against
# the chain's double reference. A shaped chain at four sets of dims: every dim 5 and the last 37
# and every dim 40 and the last 3 (rows that are not whole chunks: the fused
# kernel finds each broadcast element's place), every dim 2 and the last 64,
# and every dim 40 and the last 8 (its ROW instances: one place a chunk, short
# rows); built a second time with FX_SMALL_BLOCKS, FX_WIDE_BLOCKS and
# FX_TINY_BLOCKS 1, so that these small grids take the full E (the instances
# that large n takes on the GPU), at 5,37, 40,8 and 5,12 (E / 2 a thread, ROW,
# where the last dim is a multiple of E / 2 only), 3,64 and 3,48 (E of 16 and
# 32 in one row: 1-byte and wide chains); and a third time with FX_INDEX32_MAX 0 as well, so that
# every launch takes its 64-bit (size_t) instance, at 5,37, 40,8 and 3,64. A flat one at n = 20011
# and 64. The chains: the shaped goldens and examples, golden param_jump (flat: none
# of its elements may be fragile) and all 16 random
# programs of tests/randgen.py. No GPU: nvcc compiles the kernels as host code.
#   cpu.sh FUSEC NVCC
set -u
fusec=$1 nvcc=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() { # check BIN DIMS...: the chain built as BIN at each set of dims
  bin=$1
  shift
  for dims in "$@"; do
    if "$work/$bin" --auto=$dims >"$work/$bin.out" 2>&1 && cat "$work/$bin.out" >>"$work/$bin.all"; then
      echo "ok: $bin at $dims: $(tail -1 "$work/$bin.out")"
    else
      echo "FAIL: $bin at $dims"; cat "$work/$bin.out"; fails=$((fails + 1))
    fi
  done
}
python3 "$root/tests/randgen.py" --seed 16 --count 16 --out "$work/rand" || { echo "FAIL: randgen.py"; exit 1; }
for src in "$root"/tests/golden/*.fuse "$root"/examples/*.fuse "$work"/rand/*.fuse; do
  sets="5,37 2,64 40,3 40,8"
  if ! grep -q '^in .*\[' "$src"; then
    case $src in "$work"/rand/* | */param_jump.fuse) sets="1,20011 1,64" ;; *) continue ;; esac # flat: n
  fi
  name=$(basename "$src" .fuse)
  "$fusec" -w --name=chain "$src" -o "$work/$name.cu" &&
    python3 "$root/tests/shapes/cpu_emulate.py" "$work/$name.cu" "$work/${name}_cpu.cu" &&
    "$nvcc" -O1 -DCHAIN_CPU="\"$work/${name}_cpu.cu\"" "$root/tests/shapes/cpu_check.cu" -o "$work/$name" \
      >"$work/$name.log" 2>&1 || { echo "FAIL: $name: build"; tail -5 "$work/$name.log"; fails=$((fails + 1)); continue; }
  check "$name" $sets
  # a jump among params alone is the same on both sides: every element compared (docs/language.md)
  case $src in */param_jump.fuse)
    [ "$(grep -c ' 0 fragile' "$work/$name.all")" = 2 ] || { echo "FAIL: $name: fragile elements"; fails=$((fails + 1)); } ;;
  esac
  case $sets in 5,37*)
    "$nvcc" -O1 -DFX_SMALL_BLOCKS=1 -DFX_WIDE_BLOCKS=1 -DFX_TINY_BLOCKS=1 -DCHAIN_CPU="\"$work/${name}_cpu.cu\"" \
      "$root/tests/shapes/cpu_check.cu" -o "$work/${name}_fullE" >"$work/$name.log" 2>&1 &&
      check "${name}_fullE" 5,37 40,8 5,12 3,64 3,48 || { echo "FAIL: $name: build (full E)"; fails=$((fails + 1)); }
    "$nvcc" -O1 -DFX_INDEX32_MAX=0 -DFX_SMALL_BLOCKS=1 -DFX_WIDE_BLOCKS=1 -DFX_TINY_BLOCKS=1 \
      -DCHAIN_CPU="\"$work/${name}_cpu.cu\"" "$root/tests/shapes/cpu_check.cu" -o "$work/${name}_i64" >"$work/$name.log" 2>&1 &&
      check "${name}_i64" 5,37 40,8 3,64 || { echo "FAIL: $name: build (64-bit indices)"; fails=$((fails + 1)); } ;;
  esac
done
[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "every chain agrees with its reference on the host"

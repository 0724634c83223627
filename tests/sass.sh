#!/bin/sh
# Compiles tests/sass/nan_compare.fuse to machine code and checks that every
# comparison constant of its fused kernel is still there: ptxas once folded
# abs(x) > -1.25 and exp2(x) > -4.75 to true, which is wrong for NaN. Then
# bench/sass_count.py's count of two examples' fused kernels, and bench/regs.py's registers of
# tests/sass/idiv_i64.fuse's (no spill), and a where that nvcc settles at compile time.
#   sass.sh FUSEC NVCC NVDISASM WORKDIR
set -eu
fusec=$1 nvcc=$2 nvdisasm=$3 work=$4
src=$(dirname "$0")/sass/nan_compare.fuse
mkdir -p "$work"
fails=0
for dt in f32 f64 f16 bf16; do
  "$fusec" -w --dtype=$dt --name=nanc "$src" -o "$work/nanc_$dt.cu"
  "$nvcc" -O3 -arch=sm_90 -DFUSEC_NO_HARNESS -cubin "$work/nanc_$dt.cu" -o "$work/nanc_$dt.cubin"
  "$nvdisasm" -c "$work/nanc_$dt.cubin" | awk '/nanc_fused_kernelIj/ { f = 1 } /nanc_k[0-9]/ { f = 0 } f' >"$work/nanc_$dt.sass"
  for c in 1.25 1.5 1.75 2.25 2.75 3.25 3.75 4.25 4.75 5.25; do
    if ! grep -q -- "-$c" "$work/nanc_$dt.sass"; then
      echo "FAIL: $dt: the comparison with -$c was folded away"
      fails=$((fails + 1))
    fi
  done
done
[ $fails = 0 ] && echo "ok: every comparison kept, in f32, f64, f16 and bf16"
# bench/sass_count.py on two examples: bias_gelu's fused kernel (E = 16, its ROW instance) runs one
# MUFU an element (erff's exp2) among about 30 instructions; the seed's a handful, none a MUFU
root=$(cd "$(dirname "$0")/.." && pwd)
python3 "$root/bench/sass_count.py" "$fusec" "$root/examples/bias_gelu.fuse" "$root/examples/seed.fuse" \
  --nvcc "$nvcc" --nvdisasm "$nvdisasm" >"$work/count.txt" || fails=$((fails + 1))
awk '$1 == "bias_gelu" && $2 == 16 && $3 > 20 && $3 < 40 && $7 == "1.0" { ok++ }
     $1 == "seed" && $2 == 4 && $3 > 3 && $3 < 12 && $7 == "0.0" { ok++ } END { exit ok != 2 }' "$work/count.txt" ||
  { echo "FAIL: sass_count.py:"; cat "$work/count.txt"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "ok: sass_count.py: one MUFU an element in bias_gelu's fused kernel, none in the seed's"
# bench/regs.py (ptxas -v) on four i64 // by divisors computed from one 8-byte input: no instance of its
# fused kernel spills (under the 32-register bound its bytes alone would give, 4 bytes at E = 4)
NVCC="$nvcc" python3 "$root/bench/regs.py" "$fusec" "$(dirname "$0")/sass/idiv_i64.fuse" >"$work/regs.txt" 2>&1 &&
  awk '$2 == "jLi4" && $3 > 32 { ok = 1 } END { exit !ok }' "$work/regs.txt" && ! grep -q spills "$work/regs.txt" ||
  { echo "FAIL: regs.py: idiv_i64's fused kernel:"; cat "$work/regs.txt"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "ok: regs.py: idiv_i64's fused kernel takes over 32 registers and spills nothing"
# what src/traffic.c's fused_folds takes nvcc to settle: sign(x) == 1.5 and f32(q) == 0.5 of an i32
# are never true, so the where's sin is dropped (and q's load) and the kernel is x + erf(x)'s,
# instruction for instruction
printf 'in x: f32\ny = x + where(sign(x) == 1.5, sin(x), erf(x))\n' >"$work/where_sign.fuse"
printf 'in x: f32\nin q: i32\ny = x + where(f32(q) == 0.5, sin(x), erf(x))\n' >"$work/where_cast.fuse"
printf 'in x: f32\ny = x + erf(x)\n' >"$work/where_erf.fuse"
python3 "$root/bench/sass_count.py" "$fusec" "$work/where_sign.fuse" "$work/where_cast.fuse" "$work/where_erf.fuse" \
  --nvcc "$nvcc" --nvdisasm "$nvdisasm" >"$work/where.txt" &&
  awk '{ n[$1] = $3 } END { exit !(n["where_erf"] > 0 && n["where_sign"] == n["where_erf"] && n["where_cast"] == n["where_erf"]) }' \
    "$work/where.txt" ||
  { echo "FAIL: sass_count.py: where(sign(x) == 1.5, ...), where(f32(q) == 0.5, ...):"; cat "$work/where.txt"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "ok: where(sign(x) == 1.5, sin(x), erf(x)) and its f32(q) == 0.5 twin compile to x + erf(x)'s instructions"
[ $fails = 0 ]

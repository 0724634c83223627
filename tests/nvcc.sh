#!/bin/sh
# Emits one chain and compiles it with nvcc in both forms: the harness
# executable and the library (-DFUSEC_NO_HARNESS); then both again with the
# CUB version (-DFUSEC_CUB), for sm_90 only (NVCC_CUB=0 skips them; a shaped
# chain has no CUB version, and its .cu no such section). NVCC_ARCHS
# overrides the targets (default sm_90; the full check adds sm_80 and sm_89).
# No kernel's 32-bit instance may spill registers on sm_90.
#   nvcc.sh FUSEC NVCC FILE.fuse WORKDIR
set -eu
fusec=$1 nvcc=$2 src=$3 work=$4
mkdir -p "$work"
name=$(basename "$src" .fuse)
"$fusec" -w "$src" -o "$work/$name.cu"
"$fusec" -w --emit=header "$src" -o "$work/$name.h"
for arch in ${NVCC_ARCHS:-sm_90}; do
  "$nvcc" -O3 -arch=$arch -Werror all-warnings "$work/$name.cu" -o "$work/$name.$arch"
  "$nvcc" -O3 -arch=$arch -Werror all-warnings -DFUSEC_NO_HARNESS -Xptxas -v -c "$work/$name.cu" \
    -o "$work/$name.$arch.o" 2>"$work/$name.$arch.ptxas" || { cat "$work/$name.$arch.ptxas" >&2; exit 1; }
done
# No kernel's 32-bit-index instance spills registers on sm_90 (ptxas -v; the
# instances that large n takes: bench/spills.sh, docs/cuda.md).
spills=
[ ! -f "$work/$name.sm_90.ptxas" ] || spills=$(awk -f "$(dirname "$0")/../bench/spills.awk" "$work/$name.sm_90.ptxas")
[ -z "$spills" ] || { echo "FAIL: $name: kernels that spill (ptxas -v, sm_90): $spills" >&2; exit 1; }
# The harness parses its options before it looks for a GPU (none here): --help
# exits 0 and lists them, a bad value or an unknown option exits 2.
h=$work/$name.sm_90
if [ -x "$h" ]; then
  "$h" --help | grep -q -- '--passes N' || { echo "FAIL: $name: the harness's --help lists no --passes" >&2; exit 1; }
  for bad in "--passes 0" "--passes=x" "--reps 0" "--no-such-option"; do
    st=0; "$h" $bad >/dev/null 2>&1 || st=$?
    [ $st = 2 ] || { echo "FAIL: $name: the harness's exit status for $bad is $st, not 2" >&2; exit 1; }
  done
fi
if [ "${NVCC_CUB:-1}" = 1 ] && grep -q '^#ifdef FUSEC_CUB$' "$work/$name.cu"; then
  "$nvcc" -O3 -arch=sm_90 -Werror all-warnings -DFUSEC_CUB "$work/$name.cu" -o "$work/$name.cub"
  "$nvcc" -O3 -arch=sm_90 -Werror all-warnings -DFUSEC_CUB -DFUSEC_NO_HARNESS -c "$work/$name.cu" -o "$work/$name.cub.o"
  nm "$work/$name.cub.o" | grep -q " T ${name}_cub\$" ||
    { echo "FAIL: $name.cu compiled with -DFUSEC_CUB defines no ${name}_cub" >&2; exit 1; }
fi
# The header is plain C: it must compile as C11 against the CUDA headers,
# with its CUB declaration too.
cudainc=$(dirname "$(dirname "$nvcc")")/include
printf '#include "%s.h"\nint main(void) { return 0; }\n' "$name" >"$work/use_h.c"
cc -std=c11 -Wall -Werror -I"$work" -I"$cudainc" -c "$work/use_h.c" -o "$work/use_h.o"
cc -std=c11 -Wall -Werror -DFUSEC_CUB -I"$work" -I"$cudainc" -c "$work/use_h.c" -o "$work/use_h.o"
echo "ok: $name"

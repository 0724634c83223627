#!/bin/sh
# Emits one chain and compiles it with nvcc in both forms: the harness
# executable and the library (-DFUSEC_NO_HARNESS). NVCC_ARCHS overrides the
# targets (default sm_90; the full check adds sm_80 and sm_89).
#   nvcc.sh FUSEC NVCC FILE.fuse WORKDIR
set -eu
fusec=$1 nvcc=$2 src=$3 work=$4
mkdir -p "$work"
name=$(basename "$src" .fuse)
"$fusec" -w "$src" -o "$work/$name.cu"
"$fusec" -w --emit=header "$src" -o "$work/$name.h"
for arch in ${NVCC_ARCHS:-sm_90}; do
  "$nvcc" -O3 -arch=$arch -Werror all-warnings "$work/$name.cu" -o "$work/$name.$arch"
  "$nvcc" -O3 -arch=$arch -Werror all-warnings -DFUSEC_NO_HARNESS -c "$work/$name.cu" -o "$work/$name.$arch.o"
done
# The header is plain C: it must compile as C11 against the CUDA headers.
cudainc=$(dirname "$(dirname "$nvcc")")/include
printf '#include "%s.h"\nint main(void) { return 0; }\n' "$name" >"$work/use_h.c"
cc -std=c11 -Wall -Werror -I"$work" -I"$cudainc" -c "$work/use_h.c" -o "$work/use_h.o"
echo "ok: $name"

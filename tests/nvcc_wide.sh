#!/bin/sh
# A chain of 64 tensors (40 inputs of three dtypes, 12 params, 12 outputs)
# through tests/nvcc.sh: its .cu compiles with nvcc as the harness and as the
# library, and its header as C11 (issue 15.6: every accepted program's .cu
# compiles; bench/nvcc_width.sh times nvcc up to the limit of 1024).
#   nvcc_wide.sh FUSEC NVCC WORKDIR
set -eu
fusec=$1 nvcc=$2 work=$3
mkdir -p "$work"
awk 'BEGIN {
  printf "in h0"; for (i = 1; i < 8; i++) printf ", h%d", i; print ": f16"
  printf "in b0"; for (i = 1; i < 8; i++) printf ", b%d", i; print ": bf16"
  for (k = 0; k < 12; k++) printf "param p%d = %d.25\n", k, k + 1
  printf "s = x0"; for (i = 1; i < 24; i++) printf " + x%d", i
  for (i = 0; i < 8; i++) printf " + h%d + b%d", i, i; print ""
  for (k = 0; k < 12; k++) printf "y%d = s * p%d\n", k, k }' >"$work/wide64.fuse"
sh "$(dirname "$0")/nvcc.sh" "$fusec" "$nvcc" "$work/wide64.fuse" "$work"

#!/bin/sh
# Hostile input (issue 15) that the error programs, cli.sh and limits.sh do
# not cover: odd but valid programs, warnings, device profiles, and the
# emitted code of awkward names and comments.
#   hostile.sh FUSEC SOURCE_DIR [NVCC]     (NVCC '-' or absent: no CUDA compile)
set -u
fusec=$1 root=$2 nvcc=${3:--}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
# expect NAME RC TEXT ARGS...: fusec ARGS exits RC and TEXT (a fixed string)
# appears in standard error
expect() {
  name=$1 want=$2 text=$3
  shift 3
  "$fusec" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc != "$want" ]; then fail "$name: exit $rc, expected $want"; sed 's/^/    /' "$tmp/err" | head -5; return; fi
  if [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err"; then
    fail "$name: no '$text' in:"; sed 's/^/    /' "$tmp/err" | head -5; return
  fi
  ok "$name"
}
cd "$tmp"

# ---- 15.10, 15.11: params in their dtype ----
printf 'param s: f16 = 1e-10\ny = x * s\n' >p16_tiny.fuse
expect "an f16 param that rounds to 0 warns" 0 \
  "p16_tiny.fuse:1:16: warning: 1e-10 rounds to 0 in f16 (the smallest nonzero f16 is 5.9604644775390625e-08)" --predict p16_tiny.fuse
printf 'param s: f16 = 65519\ny = x * s\n' >p16_max.fuse
expect "65519 rounds to f16's 65504: accepted" 0 "" --predict p16_max.fuse
printf 'param s: f16 = 65520\ny = x * s\n' >p16_over.fuse
expect "65520 rounds to infinity in f16" 1 "65520 is out of range for f16: it rounds to infinity (the largest f16 is 65504)" \
  --predict p16_over.fuse
printf 'param s: f32 = 3.4028235e38\ny = x * s\n' >p32_max.fuse
expect "3.4028235e38 rounds to f32's largest: accepted" 0 "" --predict p32_max.fuse

if [ $fails -gt 0 ]; then
  echo "$fails hostile-input check(s) failed"
  exit 1
fi
echo "all hostile-input checks passed"

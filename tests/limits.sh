#!/bin/sh
# The documented limits of the language (docs/language.md, "Limits"), at and
# just over each boundary. The large inputs are generated here, in a
# temporary folder, never committed.
#   limits.sh FUSEC
# Prints one ok/FAIL line per check; exits 1 when any check failed.
# FUSEC_LIMITS_TIMEOUT: seconds allowed per fusec run (default 30).
set -u
fusec=$1
limit_s=${FUSEC_LIMITS_TIMEOUT:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

# run EXPECTED_RC NAME ARGS...: runs fusec (bounded in time, and in memory
# unless it is built with ASan, which needs a large address space), stderr to
# $tmp/err, and checks the exit status.
run() {
  want=$1 name=$2
  shift 2
  (
    if ! grep -q __asan_init "$fusec" 2>/dev/null; then ulimit -v 8388608 2>/dev/null; fi
    exec timeout "$limit_s" "$fusec" "$@"
  ) >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc = 124 ]; then fail "$name: still running after $limit_s s"; return 1; fi
  if [ $rc != "$want" ]; then
    fail "$name: exit $rc, expected $want"
    head -5 "$tmp/err" | sed 's/^/    /'
    return 1
  fi
  return 0
}
# expect_err NAME TEXT: the first line of stderr is exactly TEXT.
expect_err() {
  first=$(head -1 "$tmp/err")
  if [ "$first" = "$2" ]; then ok "$1"; else fail "$1: got '$first', expected '$2'"; fi
}

cd "$tmp"

# ---- file size: 64 MiB is read, one byte more is an error at 1:1 ----
mib64=$((64 * 1024 * 1024))
printf 'y = x * 2\n' >prog.txt
{ cat prog.txt; head -c $((mib64 - $(wc -c <prog.txt))) /dev/zero | tr '\0' ' '; } >size_max.fuse
{ cat size_max.fuse; printf ' '; } >size_over.fuse
[ "$(wc -c <size_max.fuse)" -eq $mib64 ] || fail "generator: size_max.fuse is not 64 MiB"
run 0 "a 64 MiB file compiles" --predict size_max.fuse && ok "a 64 MiB file compiles"
run 1 "a file over 64 MiB" --predict size_over.fuse &&
  expect_err "a file over 64 MiB is an error at 1:1" "size_over.fuse:1:1: error: the file is larger than the 64 MiB limit"
run 1 "standard input over 64 MiB" --predict - <size_over.fuse &&
  expect_err "standard input over 64 MiB is an error at 1:1" "<stdin>:1:1: error: the file is larger than the 64 MiB limit"
[ -s out ] && fail "a file over 64 MiB wrote output"
rm -f size_max.fuse size_over.fuse

# ---- statements: 1,000,000 are accepted, one more is a located error ----
# one statement per line, each ending in a newline as editors write them
awk 'BEGIN { print "v0 = x * 1.5"; for (i = 1; i < 1000000; i++) printf "v%d = v%d * 0.5\n", i, i - 1 }' >stmt_max.fuse
run 0 "1,000,000 statements" -w --predict stmt_max.fuse && ok "1,000,000 statements compile (--predict)"
{ cat stmt_max.fuse; echo "w = v999999 + 1"; } >stmt_over.fuse
run 1 "1,000,001 statements" -w --predict stmt_over.fuse &&
  expect_err "1,000,001 statements are a located error" "stmt_over.fuse:1000001:1: error: more than 1000000 statements"
# blank lines and empty statements are not statements (issue 15.11)
{ printf '\n\n;;\n# a comment\n\n'; cat stmt_max.fuse; printf '\n\n'; } >stmt_blank.fuse
run 0 "1,000,000 statements among blank lines" -w --predict stmt_blank.fuse &&
  ok "1,000,000 statements among blank lines and empty statements compile"
rm -f stmt_max.fuse stmt_over.fuse stmt_blank.fuse

# ---- a 100,000-statement chain compiles, to every backend but CUDA ----
awk 'BEGIN { print "v0 = x * 1.5"; for (i = 1; i < 100000; i++) printf "v%d = v%d * 0.5 + %d\n", i, i - 1, i % 7 }' >chain.fuse
for emit in report json csv dot header; do
  run 0 "100,000-statement chain, --emit=$emit" -w --emit=$emit chain.fuse -o chain.$emit &&
    ok "100,000-statement chain, --emit=$emit"
done
# ---- unfused kernels of a chain emitted as CUDA: 1024, one more is a
# located error at its op, --emit=cuda and torch alike (hostile round three:
# nvcc took about an hour on 20,000 ops); the error comes in time on the
# 100,000-statement chain, whose report and header stay ----
run 1 "100,000-statement chain, --emit=cuda" -w --emit=cuda chain.fuse -o chain.cu &&
  expect_err "100,000-statement chain, --emit=cuda: the kernel limit" "chain.fuse:513:19: error: this op makes unfused kernel 1025; CUDA output is limited to 1024 unfused kernels (nvcc compiles each: about 4 CPU minutes at the limit); --predict and --emit=header have no such limit"
[ -e chain.cu ] && fail "over the kernel limit, chain.cu was written"
awk 'BEGIN { print "v0 = x * 1.5"; for (i = 1; i < 1024; i++) printf "v%d = v%d * 0.5\n", i, i - 1 }' >kernels_max.fuse
{ cat kernels_max.fuse; echo "y = relu(v1023)"; } >kernels_over.fuse
for emit in cuda torch; do
  run 0 "1024 unfused kernels, --emit=$emit" -w --emit=$emit kernels_max.fuse -o kernels_max.$emit &&
    ok "1024 unfused kernels, --emit=$emit"
  run 1 "1025 unfused kernels, --emit=$emit" -w --emit=$emit kernels_over.fuse -o kernels_over.$emit &&
    expect_err "1025 unfused kernels, --emit=$emit: a located error" "kernels_over.fuse:1025:5: error: this op makes unfused kernel 1025; CUDA output is limited to 1024 unfused kernels (nvcc compiles each: about 4 CPU minutes at the limit); --predict and --emit=header have no such limit"
done
run 0 "1025 unfused kernels, --emit=header" -w --emit=header kernels_over.fuse -o kernels_over.h &&
  ok "1025 unfused kernels, --emit=header: no limit"
rm -rf kernels_*
# ... and a shaped one of 30,000 (hostile round two: the per-kernel byte
# formulas took memory quadratic in the chain: 17 GB at 3000 statements; now
# about 2 CPU seconds), and of 512 statements (1024 kernels) to CUDA
awk 'BEGIN { print "in x: f32[A, B, C, D]"; print "in b: f32[B, 1, D]"; print "v0 = x * b";
  for (i = 1; i < 30000; i++) printf "v%d = v%d * b + x\n", i, i - 1 }' >shaped.fuse
head -n 514 shaped.fuse >shaped_cu.fuse
run 0 "30,000-statement shaped chain, --emit=header" -w --emit=header shaped.fuse -o shaped.h &&
  ok "30,000-statement shaped chain, --emit=header"
for emit in cuda torch; do
  out=shaped.$emit
  [ $emit = torch ] && out=shaped_torch
  run 0 "512-statement shaped chain, --emit=$emit" -w --emit=$emit shaped_cu.fuse -o $out &&
    ok "512-statement shaped chain (1023 kernels), --emit=$emit"
done
run 0 "30,000-statement shaped chain, --predict" -w --predict --dims=B=2,C=3,D=4 shaped.fuse &&
  ok "30,000-statement shaped chain, --predict"
rm -rf shaped*
rm -f chain.*

# ---- inputs, outputs and params: 1024 in all, one more is a located error
# (issue 15.6: 4100 outputs overflowed CUDA's kernel argument space). Many
# outputs stay linear (issue 15.9: 100,000 outputs took 19 s to predict, each
# operand's name was looked up by scanning every output); a long declaration
# list is read in linear time up to the error ----
awk 'BEGIN { printf "in a0"; for (i = 1; i < 1000; i++) printf ", a%d", i; print ": f16";
  for (i = 0; i < 20; i++) printf "param p%d = %d.5\n", i, i;
  print "v0 = a0 * p0"; for (i = 1; i < 20000; i++) printf "v%d = v%d * 0.5 + a%d\n", i, i - 1, i % 1000;
  for (k = 0; k < 4; k++) printf "y%d = v%d + 1\n", k, 19999 - k }' >tensors_max.fuse
for emit in report dot header; do
  run 0 "1024 tensors, --emit=$emit" -w --emit=$emit tensors_max.fuse -o tensors.$emit && ok "1024 inputs, outputs and params, --emit=$emit"
done
# to CUDA, in 1023 unfused kernels: 999 adds, 20 multiplies, 4 outputs
awk 'BEGIN { printf "in a0"; for (i = 1; i < 1000; i++) printf ", a%d", i; print ": f16";
  for (i = 0; i < 20; i++) printf "param p%d = %d.5\n", i, i;
  printf "s = (a0"; for (i = 1; i < 1000; i++) printf " + a%d", i; printf ")"; for (i = 0; i < 20; i++) printf " * p%d", i; print "";
  for (k = 0; k < 4; k++) printf "y%d = s + %d\n", k, k; print "out y0, y1, y2, y3" }' >tensors_cu.fuse
run 0 "1024 tensors, --emit=cuda" -w --emit=cuda tensors_cu.fuse -o tensors.cu && ok "1024 inputs, outputs and params, --emit=cuda"
{ cat tensors_max.fuse; echo "param one_more = 1"; } >tensors_over.fuse
run 1 "1025 tensors" -w --predict tensors_over.fuse &&
  expect_err "1025 inputs, outputs and params are a located error" "tensors_over.fuse:20026:7: error: 'one_more' makes 1025 inputs, outputs and params; the limit is 1024 (the fused kernel takes each as an argument)"
awk 'BEGIN { printf "in a0"; for (i = 1; i < 100000; i++) printf ", a%d", i; print ": f16"; print "y = a0 * 2" }' >inputs.fuse
run 1 "100,000 declared inputs" -w --predict inputs.fuse && ok "100,000 declared inputs: a located error, in time"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "y%d = x * %d.5\n", i, i }' >outputs.fuse
run 1 "100,000 outputs" -w --predict outputs.fuse && ok "100,000 outputs: a located error, in time"
awk 'BEGIN { print "v0 = x * 1.5"; for (i = 1; i < 200000; i++) printf "v%d = v%d * 0.5\n", i, i - 1;
  for (k = 0; k < 1023; k++) printf "y%d = v%d + 1\n", k, 199999 - k }' >outputs_max.fuse
run 0 "1023 outputs of a 200,000-statement chain" -w --predict outputs_max.fuse && ok "1023 outputs of a 200,000-statement chain (--predict)"
rm -f tensors* inputs.fuse outputs*

# ---- 200,000 integer literals: the common-subexpression table stays linear
# (issue 15.8: literals with integer values all hashed to one bucket, and
# 80,000 of them took 12.6 s) ----
awk 'BEGIN { printf "y = x"; for (i = 0; i < 200000; i++) printf " + x * %d", i; print "" }' >literals.fuse
run 0 "200,000 integer literals" -w --predict literals.fuse && ok "200,000 integer literals (--predict)"
rm -f literals.fuse

# ---- names: 255 characters are a name, 256 an error ----
n255=$(awk 'BEGIN { for (i = 0; i < 255; i++) printf "a" }')
printf 'y = %s * 2\n' "$n255" >name_max.fuse
printf 'y = %sa * 2\n' "$n255" >name_over.fuse
run 0 "a 255-character name" --predict name_max.fuse && ok "a 255-character name"
run 1 "a 256-character name" --predict name_over.fuse &&
  expect_err "a 256-character name is a located error" "name_over.fuse:1:5: error: name is 256 characters long; the limit is 255"

# ---- parentheses: 256 deep are accepted, the 257th '(' is the error ----
nest() { awk -v n="$1" -v open="$2" 'BEGIN { printf "y = "; for (i = 0; i < n; i++) printf "%s", open; printf "x"; for (i = 0; i < n; i++) printf ")"; print "" }'; }
nest 256 "(" >paren_max.fuse
nest 256 "relu(" >call_max.fuse
nest 257 "(" >paren_over.fuse
run 0 "256 nested parentheses" --predict paren_max.fuse && ok "256 nested parentheses"
run 0 "256 nested calls, to CUDA" -w call_max.fuse -o call_max.cu && ok "256 nested calls, to CUDA"
run 1 "257 nested parentheses" --predict paren_over.fuse &&
  expect_err "257 nested parentheses are an error at the 257th '('" "paren_over.fuse:1:261: error: parentheses nested more than 256 deep"

# ---- the parser's stack: 900 unary minuses parse, 2000 are a located error ----
minus() { awk -v n="$1" 'BEGIN { printf "y = "; for (i = 0; i < n; i++) printf "-"; print "x" }'; }
minus 900 >minus_ok.fuse
minus 2000 >minus_over.fuse
run 0 "900 unary minuses" -w --predict minus_ok.fuse && ok "900 unary minuses"
if run 1 "2000 unary minuses" --predict minus_over.fuse; then
  # the column is where lemon's stack fills, somewhere near the 1000th '-'
  if head -1 "$tmp/err" | grep -q '^minus_over\.fuse:1:[0-9]*: error: expression nested too deeply for the parser'; then
    ok "2000 unary minuses are a located error"
  else
    fail "2000 unary minuses: got '$(head -1 "$tmp/err")'"
  fi
fi

if [ $fails -gt 0 ]; then
  echo "$fails limit check(s) failed"
  exit 1
fi
echo "all limit checks passed"

#!/bin/sh
# The hostile corpus of round three (issue 15; docs/testing.md): the cases of
# tests/hostile/malformed.txt and valid.txt, each a "=== NAME" block written
# to NAME.fuse (a valid block's first line may be "# fusec-args: ...").
#   hostile_corpus.sh FUSEC SOURCE_DIR [NVCC]     (NVCC '-' or absent: no C or CUDA compile)
# Malformed: --predict exits 1 with NAME.fuse:LINE:COL: error: ..., and the
# first lines of the messages are malformed.expected's (FUSEC_REGEN=1 rewrites
# it, on purpose); -o FILE and --emit=torch -o DIR exit 1 and leave the file,
# the folder and the source as they were.
# Valid: every backend exits 0 (--predict with the block's arguments); the
# .cu, the header, the torch folder and the JSON report are the same bytes run
# after run; the JSON parses and the module compiles (python3); with NVCC the
# header compiles under cc -std=c11 -Wall -Werror, and with
# FUSEC_CORPUS_NVCC=1 (not a ctest: about 30 CPU s a case) each .cu under
# nvcc -O3 -arch=sm_90 -Werror all-warnings, as the library
# (-DFUSEC_NO_HARNESS -c), and with FUSEC_CORPUS_HARNESS=1 as the harness too.
set -u
fusec=$1 root=$(cd "$2" && pwd) nvcc=${3:--}
here=$root/tests/hostile
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
# split FILE DIR: each "=== NAME" block of FILE into DIR/NAME.fuse; prints the names
split() {
  mkdir -p "$2"
  awk -v dir="$2" '/^=== / { if (f) close(f); f = dir "/" $2 ".fuse"; print $2; printf "" >f; next }
    f { print >f }' "$1"
}

# ---- malformed ----
cd "$tmp"
split "$here/malformed.txt" bad >names
: >messages
n=0
while read -r name; do
  n=$((n + 1))
  f=bad/$name.fuse
  cp "$f" src.copy
  (cd bad && "$fusec" --predict "$name.fuse") >out 2>err
  rc=$?
  first=$(head -1 err)
  echo "$name: $first" >>messages
  case $first in
    "$name.fuse:"[0-9]*:[0-9]*": error: "*) ;;
    *) fail "$name: not a located error: '$first'"; continue ;;
  esac
  [ $rc = 1 ] || { fail "$name: exit $rc, expected 1"; continue; }
  [ -s out ] && { fail "$name: --predict wrote a report"; continue; }
  echo sentinel >keep.cu
  mkdir -p keep.dir && echo sentinel >"keep.dir/$name.py"
  "$fusec" "$f" -o keep.cu 2>/dev/null; rc1=$?
  "$fusec" --emit=torch "$f" -o keep.dir 2>/dev/null; rc2=$?
  if [ $rc1 != 1 ] || [ $rc2 != 1 ]; then fail "$name: -o exit $rc1, --emit=torch exit $rc2, expected 1"; continue; fi
  if [ "$(cat keep.cu)" != sentinel ] || [ "$(ls keep.dir)" != "$name.py" ] || [ "$(cat "keep.dir/$name.py")" != sentinel ] ||
    ! cmp -s "$f" src.copy || [ -n "$(ls -a | grep '\.tmp')" ]; then
    fail "$name: the output, the folder or the source changed"; continue
  fi
  rm -rf keep.dir
done <names
if [ "${FUSEC_REGEN:-0}" = 1 ]; then
  cp messages "$here/malformed.expected"
  echo "rewrote $here/malformed.expected"
elif diff -u "$here/malformed.expected" messages; then
  ok "$n malformed programs: located errors, exit 1, nothing written, the messages as expected"
else
  fail "the messages differ from malformed.expected (above)"
fi

# ---- valid ----
split "$here/valid.txt" good >names
cudainc=
[ "$nvcc" != - ] && cudainc=$(dirname "$(dirname "$nvcc")")/include
n=0
while read -r name; do
  n=$((n + 1))
  f=good/$name.fuse
  extra=$(sed -n '1s/^# fusec-args: //p' "$f")
  bad=
  for run in 1 2; do
    mkdir -p r$run
    # shellcheck disable=SC2086
    "$fusec" -w $extra --predict --format=json "$f" >r$run/j.json 2>r$run/err || bad="$bad json"
    "$fusec" -w $extra --predict "$f" >/dev/null 2>>r$run/err || bad="$bad report"
    "$fusec" -w "$f" -o r$run/$name.cu 2>>r$run/err || bad="$bad cuda"
    "$fusec" -w --emit=header "$f" -o r$run/$name.h 2>>r$run/err || bad="$bad header"
    "$fusec" -w --emit=torch "$f" -o r$run/torch 2>>r$run/err || bad="$bad torch"
  done
  if [ -n "$bad" ]; then fail "$name: exit not 0 for$bad"; sed 's/^/    /' r1/err | head -4; rm -rf r1 r2; continue; fi
  diff -r r1 r2 >/dev/null || { fail "$name: output differs run after run"; rm -rf r1 r2; continue; }
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' r1/j.json 2>/dev/null || { fail "$name: the JSON report does not parse"; continue; }
  python3 -m py_compile r1/torch/*.py 2>/dev/null || { fail "$name: the torch module does not compile"; continue; }
  if [ -n "$cudainc" ]; then
    printf '#include "%s.h"\nint main(void) { return 0; }\n' "$name" >r1/use.c
    cc -std=c11 -Wall -Werror -Ir1 -I"$cudainc" -c r1/use.c -o r1/use.o 2>r1/cc ||
      { fail "$name: the header fails cc -std=c11 -Wall -Werror"; sed 's/^/    /' r1/cc | head -4; rm -rf r1 r2; continue; }
  fi
  if [ -n "$cudainc" ] && [ "${FUSEC_CORPUS_NVCC:-0}" = 1 ]; then
    "$nvcc" -O3 -arch=sm_90 -Werror all-warnings -DFUSEC_NO_HARNESS -c r1/$name.cu -o r1/lib.o 2>r1/nv ||
      { fail "$name: nvcc -Werror all-warnings (library)"; sed 's/^/    /' r1/nv | head -6; rm -rf r1 r2; continue; }
    if [ "${FUSEC_CORPUS_HARNESS:-0}" = 1 ]; then
      "$nvcc" -O3 -arch=sm_90 -Werror all-warnings r1/$name.cu -o r1/harness 2>r1/nv ||
        { fail "$name: nvcc -Werror all-warnings (harness)"; sed 's/^/    /' r1/nv | head -6; rm -rf r1 r2; continue; }
    fi
    echo "ok: $name compiles with nvcc"
  fi
  rm -rf r1 r2
done <names
[ $fails = 0 ] && ok "$n valid programs: every backend, the same bytes twice, JSON, module and header compile"

if [ $fails -gt 0 ]; then
  echo "$fails hostile-corpus check(s) failed"
  exit 1
fi
echo "all hostile-corpus checks passed"

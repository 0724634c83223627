#!/bin/sh
# Builds the libFuzzer target with clang, ASan and UBSan in a separate build
# directory, and fuzzes the whole pipeline for SECONDS (default 60) with the
# dictionary and a copy of the seed programs (the repository is not modified).
# Fails (non-zero) on any crash, leak, sanitizer report or timeout.
#   tests/fuzz/run.sh [SECONDS [LIBFUZZER_ARGS...]]
# e.g. tests/fuzz/run.sh 3600 -jobs=2 -workers=2 -runs=5000000
# Environment: FUSEC_FUZZ_BUILD (build directory, default build-fuzz in the
# source tree). Crash inputs are kept in $FUSEC_FUZZ_BUILD/fuzz-artifacts/.
set -eu
secs=${1:-60}
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${FUSEC_FUZZ_BUILD:-$root/build-fuzz}

# clang with libFuzzer: install it only when missing and running as root.
have_fuzzer() {
  command -v clang >/dev/null 2>&1 || return 1
  t=$(mktemp -d)
  printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$t/t.c"
  clang -fsanitize=fuzzer,address,undefined "$t/t.c" -o "$t/t" >/dev/null 2>&1
  rc=$?
  rm -rf "$t"
  return $rc
}
if ! have_fuzzer; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "run.sh: installing clang and libclang-rt-14-dev"
    apt-get install -y clang libclang-rt-14-dev >/dev/null || { apt-get update >/dev/null && apt-get install -y clang libclang-rt-14-dev >/dev/null; }
  fi
  have_fuzzer || { echo "run.sh: FAIL: clang with -fsanitize=fuzzer is not available" >&2; exit 1; }
fi

gen=
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
CC=clang cmake -S "$root" -B "$build" $gen -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFUSEC_FUZZ=ON \
  -DFUSEC_SANITIZE=ON -DBUILD_TESTING=OFF -DFUSEC_NVCC_TESTS=OFF >/dev/null
cmake --build "$build" --target fuzz_fusec >/dev/null
fuzzer=$build/tests/fuzz/fuzz_fusec

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/corpus" "$build/fuzz-artifacts"
# The seeds: the fuzzer's own (tests/fuzz/corpus) and, read at run time so
# that new ones join at once, every program of tests/errors, tests/golden,
# tests/sass and examples.
cp "$root"/tests/fuzz/corpus/* "$tmp/corpus/"
for dir in tests/errors tests/golden tests/sass examples; do
  tag=$(basename "$dir")
  for f in "$root/$dir"/*.fuse; do
    cp "$f" "$tmp/corpus/${tag}_$(basename "$f")"
  done
done
echo "run.sh: $(ls "$tmp/corpus" | wc -l) seed programs"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# -jobs writes one fuzz-N.log per job into the working directory.
cd "$tmp"
set +e
"$fuzzer" -max_len=4096 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 \
  -print_final_stats=1 -dict="$root/tests/fuzz/fusec.dict" \
  -artifact_prefix="$build/fuzz-artifacts/" "$@" "$tmp/corpus" >"$tmp/main.log" 2>&1
rc=$?
set -e
sed "/^###### Recommended/,/^###### End/d" "$tmp/main.log" | grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" | tail -40
for log in "$tmp"/fuzz-*.log; do
  [ -f "$log" ] || continue
  echo "---- $(basename "$log")"
  sed "/^###### Recommended/,/^###### End/d" "$log" | grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" | tail -25
done
# With -jobs the main log repeats each job's log: count the job logs alone.
logs=$(ls "$tmp"/fuzz-*.log 2>/dev/null || echo "$tmp/main.log")
runs=$(cat $logs | sed -n 's/^Done \([0-9]*\) runs.*/\1/p' | awk '{s += $1} END {print s + 0}')
echo "executions: $runs"
if [ $rc -ne 0 ] || cat "$tmp/main.log" "$tmp"/fuzz-*.log 2>/dev/null |
     grep -q 'ERROR: \(AddressSanitizer\|LeakSanitizer\|libFuzzer\)\|runtime error:\|SUMMARY: \|deadly signal'; then
  echo "FAIL: the fuzzer found a problem; inputs in $build/fuzz-artifacts/" >&2
  exit 1
fi
echo "ok: no crash, leak or timeout in $runs executions"

#!/bin/sh
# Builds the libFuzzer targets with clang, ASan and UBSan in a separate build
# directory, and fuzzes each for SECONDS (default 60) with its dictionary and
# a copy of its seed corpus (the repository is not modified): fuzz_fusec the
# whole pipeline, fuzz_cli the command line and the device-profile reader.
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
cmake --build "$build" --target fuzz_fusec fuzz_cli >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/fuzz-artifacts"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0

# fuzz TARGET CORPUS DICT [LIBFUZZER_ARGS...]: one target for $secs seconds on
# a copy of CORPUS; adds its executions to $total, or fails.
fuzz() {
  target=$1 corpus=$2 dict=$3
  shift 3
  work=$tmp/$target
  mkdir -p "$work/corpus"
  cp "$corpus"/* "$work/corpus/"
  if [ "$target" = fuzz_fusec ]; then
    # and, read at run time so that new ones join at once, every program of
    # tests/errors, tests/golden, tests/sass and examples
    for dir in tests/errors tests/golden tests/sass examples; do
      tag=$(basename "$dir")
      for f in "$root/$dir"/*.fuse; do
        cp "$f" "$work/corpus/${tag}_$(basename "$f")"
      done
    done
  fi
  echo "run.sh: $(ls "$work/corpus" | wc -l) seeds for $target"
  echo "== $target"
  # -jobs writes one fuzz-N.log per job into the working directory.
  cd "$work"
  set +e
  "$build/tests/fuzz/$target" -max_len=4096 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 \
    -print_final_stats=1 -dict="$dict" -artifact_prefix="$build/fuzz-artifacts/$target-" "$@" "$work/corpus" \
    >"$work/main.log" 2>&1
  rc=$?
  set -e
  sed "/^###### Recommended/,/^###### End/d" "$work/main.log" | grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" | tail -40
  for log in "$work"/fuzz-*.log; do
    [ -f "$log" ] || continue
    echo "---- $(basename "$log")"
    sed "/^###### Recommended/,/^###### End/d" "$log" | grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" | tail -25
  done
  # With -jobs the main log repeats each job's log: count the job logs alone.
  logs=$(ls "$work"/fuzz-*.log 2>/dev/null || echo "$work/main.log")
  runs=$(cat $logs | sed -n 's/^Done \([0-9]*\) runs.*/\1/p' | awk '{s += $1} END {print s + 0}')
  echo "executions of $target: $runs"
  total=$((total + runs))
  if [ $rc -ne 0 ] || cat "$work/main.log" "$work"/fuzz-*.log 2>/dev/null |
       grep -q 'ERROR: \(AddressSanitizer\|LeakSanitizer\|libFuzzer\)\|runtime error:\|SUMMARY: \|deadly signal'; then
    echo "FAIL: $target found a problem; inputs in $build/fuzz-artifacts/" >&2
    exit 1
  fi
}

# FUSEC_FUZZ_TARGETS picks the targets (default both): fuzz_fusec, the whole
# pipeline from a program's bytes; fuzz_cli, the command line and the device
# profile reader.
for t in ${FUSEC_FUZZ_TARGETS:-fuzz_fusec fuzz_cli}; do
  case $t in
    fuzz_fusec) fuzz fuzz_fusec "$root/tests/fuzz/corpus" "$root/tests/fuzz/fusec.dict" "$@" ;;
    fuzz_cli) fuzz fuzz_cli "$root/tests/fuzz/corpus_cli" "$root/tests/fuzz/cli.dict" "$@" ;;
    *) echo "run.sh: unknown target $t" >&2; exit 2 ;;
  esac
done
echo "executions: $total"
echo "ok: no crash, leak or timeout in $total executions"

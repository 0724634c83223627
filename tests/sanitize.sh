#!/bin/sh
# Builds fusec with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DFUSEC_SANITIZE=ON) in BUILD_DIR and runs the whole ctest suite under it
# with leak detection. Any sanitizer report fails the test that triggered it.
#   tests/sanitize.sh [BUILD_DIR]          (default: build-sanitize in the source tree)
# Environment: CC picks the compiler (gcc or clang); FUSEC_SANITIZE_NVCC=1 also
# runs the nvcc_* tests (they compile CUDA, slow, and add nothing sanitizer-wise:
# the golden CUDA tests already run the emitter); CTEST_PARALLEL_LEVEL as usual.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-sanitize}
gen=
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
nvcc_tests=OFF
[ "${FUSEC_SANITIZE_NVCC:-0}" = 1 ] && nvcc_tests=ON
cmake -S "$root" -B "$build" $gen -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFUSEC_SANITIZE=ON \
  -DFUSEC_NVCC_TESTS=$nvcc_tests >/dev/null
cmake --build "$build"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
# Sanitized code runs several times slower (the 100,000-statement --emit=cuda
# of tests/limits.sh: 15 s of CPU under ASan against 3 s without): limits.sh
# checks linear time with a per-run cap meant for the optimised build.
export FUSEC_LIMITS_TIMEOUT=${FUSEC_LIMITS_TIMEOUT:-120}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-}
cd "$build"
ctest --output-on-failure -j "${CTEST_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}" -E '^nvcc_'

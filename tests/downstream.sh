#!/bin/sh
# Build-system integration, end to end, as a user sees it:
#   1. build fusec and `cmake --install` it into a temporary prefix;
#   2. build examples/cmake against that prefix with Ninja and with Unix Makefiles;
#      a no-op rebuild does nothing, an edit of the .fuse file regenerates and rebuilds;
#   3. an unknown fusec_add_chain() argument, a call without CUDA, a bad FORMAT and
#      two chains of one C prefix fail to configure, with a message that names the problem;
#   4. the same chains through add_subdirectory(<fusec source>), nothing installed;
#   5. examples/make with FUSEC pointing at the installed fusec.
# Needs cmake, ninja, make, nvcc; no GPU (nothing is run).
#   downstream.sh FUSEC_SOURCE_DIR SCRATCH_DIR       (NVCC=... to pick nvcc)
set -eu
src=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
case "$src/" in "$work"/*) echo "FAIL: the scratch dir $work holds the source" >&2; exit 1 ;; esac
rm -rf "$work"
mkdir -p "$work"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
prefix=$work/prefix
cudaopts="-DCMAKE_CUDA_COMPILER=$nvcc -DCMAKE_CUDA_ARCHITECTURES=90"
jobs=$(nproc 2>/dev/null || echo 2)

fail() { echo "FAIL: $*" >&2; exit 1; }
# quiet LOG CMD...: runs CMD into LOG; on failure shows the end of LOG and stops.
quiet() {
  log=$1; shift
  if ! "$@" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    fail "$* (log: $log)"
  fi
}
exists() { for f; do [ -e "$f" ] || fail "missing: $f"; done; }
mtime() { stat -c %Y "$1"; }

# The harness main() needs runtime/harness/main.cuh; while that is a stub the
# HARNESS targets are left out (the library API does not depend on it).
harness=ON
if ! grep -q fusec_harness_main "$src/runtime/harness/main.cuh"; then
  harness=OFF
  echo "SKIP: runtime/harness/main.cuh is a stub: harness executables not built"
fi

echo "== install fusec into $prefix"
quiet "$work/fusec-configure.log" cmake -S "$src" -B "$work/fusec" -G Ninja -DBUILD_TESTING=OFF
quiet "$work/fusec-build.log" cmake --build "$work/fusec"
quiet "$work/fusec-install.log" cmake --install "$work/fusec" --prefix "$prefix"
exists "$prefix/bin/fusec" "$prefix/lib/cmake/fusec/fusecConfig.cmake" \
  "$prefix/lib/cmake/fusec/fusecConfigVersion.cmake" "$prefix/lib/cmake/fusec/FusecFunctions.cmake"
# The installed docs keep the source tree's layout: every image a page shows is there.
doc=$prefix/share/doc/fusec
exists "$doc/README.md" "$doc/docs/model.md" "$doc/examples/seed.fuse"
for page in "$doc/README.md" "$doc"/docs/*.md; do
  for img in $(grep -o '([a-z/]*img/[a-z-]*\.png)' "$page" | tr -d '()'); do
    exists "$(dirname "$page")/$img"
  done
done
echo "ok: installed docs and their images"

# check_project DIR GENERATOR: the outputs of examples/cmake's targets, a no-op
# rebuild, then an edit of the (copied) .fuse file.
check_project() {
  dir=$1 b=$1/build gen=$2
  quiet "$dir/build.log" cmake --build "$b" --parallel "$jobs"
  exists "$b/seedlib.fusec/seed.cu" "$b/seedlib.fusec/seed.h" "$b/seed_demo" "$b/seed.json"
  [ $harness = OFF ] || exists "$b/seed_harness.fusec/seed_h.cu" "$b/seed_harness"
  grep -q '"traffic_ratio": 4,' "$b/seed.json" || fail "$gen: seed.json is not the seed report"

  quiet "$dir/noop.log" cmake --build "$b"
  if grep -E 'fusec:|Building|Linking' "$dir/noop.log"; then fail "$gen: a second build did work"; fi
  if [ "$gen" = Ninja ]; then
    ninja -C "$b" -n | grep -q 'no work to do' || fail "Ninja: ninja -n has work after a build"
  fi

  cu=$(mtime "$b/seedlib.fusec/seed.cu") demo=$(mtime "$b/seed_demo") json=$(mtime "$b/seed.json")
  sleep 1
  echo "# edited by downstream.sh" >>"$dir/src/seed.fuse"
  quiet "$dir/rebuild.log" cmake --build "$b" --parallel "$jobs"
  [ "$(mtime "$b/seedlib.fusec/seed.cu")" != "$cu" ] || fail "$gen: editing seed.fuse did not regenerate seed.cu"
  grep -q 'edited by downstream.sh' "$b/seedlib.fusec/seed.cu" || fail "$gen: seed.cu does not hold the edit"
  [ "$(mtime "$b/seed_demo")" != "$demo" ] || fail "$gen: editing seed.fuse did not relink seed_demo"
  [ "$(mtime "$b/seed.json")" != "$json" ] || fail "$gen: editing seed.fuse did not redo seed.json"
  quiet "$dir/noop2.log" cmake --build "$b"
  if grep -E 'fusec:|Building|Linking' "$dir/noop2.log"; then fail "$gen: a build after the rebuild did work"; fi
  echo "ok: $gen"
}

for gen in Ninja "Unix Makefiles"; do
  echo "== examples/cmake against the installed package, $gen"
  dir=$work/example-$(echo "$gen" | tr -d ' ')
  mkdir -p "$dir"
  cp -R "$src/examples/cmake" "$dir/src"
  quiet "$dir/configure.log" cmake -S "$dir/src" -B "$dir/build" -G "$gen" \
    -DCMAKE_PREFIX_PATH="$prefix" $cudaopts -DSEED_HARNESS=$harness -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
  check_project "$dir" "$gen"
done

# optimised CMD_JSON FILE: the compile command of FILE in CMD_JSON has -O3.
optimised() {
  python3 - "$1" "$2" <<'PY'
import json, sys
cmds = [c["command"] for c in json.load(open(sys.argv[1])) if c["file"].endswith(sys.argv[2])]
sys.exit(0 if cmds and all(" -O3 " in c + " " for c in cmds) else 1)
PY
}
echo "== no build type: the chains compile with -O3; a build type is left alone"
cc=$work/example-Ninja/build/compile_commands.json
optimised "$cc" seedlib.fusec/seed.cu || fail "no build type: seedlib's seed.cu is compiled without -O3"
[ $harness = OFF ] || optimised "$cc" seed_harness.fusec/seed_h.cu || fail "no build type: the harness is compiled without -O3"
dir=$work/example-debug
cp -R "$src/examples/cmake" "$dir"
quiet "$dir/configure.log" cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" $cudaopts \
  -DSEED_HARNESS=$harness -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_BUILD_TYPE=Debug
optimised "$dir/build/compile_commands.json" seedlib.fusec/seed.cu && fail "CMAKE_BUILD_TYPE=Debug: -O3 was added"
echo "ok: optimisation flags"

echo "== configuration errors"
# expect_error NAME TEXT CMAKE-LINES: configuring must fail and print TEXT.
expect_error() {
  d=$work/error-$1
  mkdir -p "$d"
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(e LANGUAGES C)\nfind_package(fusec 0.1 REQUIRED)\n%s\n' \
    "$3" >"$d/CMakeLists.txt"
  if cmake -S "$d" -B "$d/build" -DCMAKE_PREFIX_PATH="$prefix" >"$d/log" 2>&1; then
    fail "$1: configuring succeeded"
  fi
  # CMake wraps long messages: match on the message as one line.
  tr -s '\n ' '  ' <"$d/log" | grep -q "$2" || { cat "$d/log" >&2; fail "$1: the error does not say '$2'"; }
  echo "ok: $1"
}
seed=$src/examples/cmake/seed.fuse
expect_error unknown_argument "unknown arguments: BOGUS_ARG" "fusec_add_chain(a_long_target_name $seed BOGUS_ARG)"
expect_error no_cuda "CUDA language is not enabled" "fusec_add_chain(x $seed)"
expect_error bad_format "FORMAT must be json, csv or text" "fusec_predict($seed OUTPUT r FORMAT xml)"
# issue 15.7: two chains of one prefix (one file's default NAME, f16 and f32)
expect_error same_prefix "the C prefix 'seed' is already the chain of target seed16" \
  "set(CMAKE_CUDA_COMPILER $nvcc)
set(CMAKE_CUDA_ARCHITECTURES 90)
enable_language(CUDA)
fusec_add_chain(seed16 $seed DTYPE f16)
fusec_add_chain(seed32 $seed DTYPE f32)"

# a .fuse made at build time by a custom command (hostile round two: configuring
# failed, "no such file"); a missing one that nothing makes is still that error
expect_error missing_fuse "no such file: .*/nosuch.fuse" "fusec_predict(nosuch.fuse OUTPUT r)"
dir=$work/generated
mkdir -p "$dir"
cat >"$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(gen LANGUAGES C CUDA)
find_package(fusec 0.1 REQUIRED)
add_custom_command(OUTPUT \${CMAKE_CURRENT_BINARY_DIR}/gen.fuse
  COMMAND \${CMAKE_COMMAND} -E copy $seed \${CMAKE_CURRENT_BINARY_DIR}/gen.fuse DEPENDS $seed VERBATIM)
fusec_add_chain(genlib \${CMAKE_CURRENT_BINARY_DIR}/gen.fuse)
fusec_predict(\${CMAKE_CURRENT_BINARY_DIR}/gen.fuse OUTPUT gen.json FORMAT json)
add_custom_target(gen_report ALL DEPENDS \${CMAKE_CURRENT_BINARY_DIR}/gen.json)
EOF
quiet "$dir/configure.log" cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" $cudaopts
quiet "$dir/build.log" cmake --build "$dir/build"
exists "$dir/build/genlib.fusec/gen.cu" "$dir/build/libgenlib.a" "$dir/build/gen.json"
echo "ok: a .fuse made at build time"

echo "== the same chains through add_subdirectory(<fusec source>), nothing installed"
dir=$work/subdir
mkdir -p "$dir"
cp -R "$src/examples/cmake" "$dir/src"
cat >"$dir/src/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(fusec_subdir LANGUAGES C CUDA)
add_subdirectory($src fusec)
if(NOT COMMAND fusec_add_chain)
  message(FATAL_ERROR "fusec's CMakeLists.txt does not include(cmake/FusecFunctions.cmake)")
endif()
fusec_add_chain(seedlib seed.fuse)
add_executable(seed_demo main.c)
target_link_libraries(seed_demo PRIVATE seedlib)
if(SEED_HARNESS)
  fusec_add_chain(seed_harness seed.fuse HARNESS NAME seed_h)
endif()
fusec_predict(seed.fuse OUTPUT seed.json FORMAT json)
add_custom_target(seed_report ALL DEPENDS \${CMAKE_CURRENT_BINARY_DIR}/seed.json)
EOF
quiet "$dir/configure.log" cmake -S "$dir/src" -B "$dir/build" -G Ninja -DBUILD_TESTING=OFF \
  $cudaopts -DSEED_HARNESS=$harness
check_project "$dir" Ninja
exists "$dir/build/fusec/fusec"

echo "== examples/make with the installed fusec"
dir=$work/make
cp -R "$src/examples/make" "$dir"
mk="make -C $dir FUSEC=$prefix/bin/fusec NVCC=$nvcc"
quiet "$dir/lib.log" $mk lib
exists "$dir/seed.cu" "$dir/seed.h" "$dir/seed.o"
targets=lib
if [ $harness = ON ]; then
  quiet "$dir/all.log" $mk all
  exists "$dir/seed"
  targets="all lib"
fi
$mk -q $targets || fail "make: a second make has work to do"
quiet "$dir/clean.log" $mk clean
[ ! -e "$dir/seed.cu" ] || fail "make clean left seed.cu"
echo "ok: make"

echo "downstream: all passed"

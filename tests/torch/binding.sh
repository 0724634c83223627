#!/bin/sh
# The PyTorch extension of fusec --emit=torch, without a GPU and without an
# importable torch (docs/testing.md):
#   binding.sh FUSEC module             every example, golden chain and 8 random
#                                       programs: --emit=torch, and P.py passes
#                                       python3 -m py_compile
#   binding.sh FUSEC binding NVCC       the binding (P_torch.cpp) of seed, mixed,
#                                       scalars and torch_names compiles against
#                                       torch's headers with -Wall -Wextra -Werror,
#                                       the .cu with the flags cpp_extension adds,
#                                       and both link into P_torch.so with
#                                       -Wl,--no-undefined against torch's libraries;
#                                       fusec_add_chain(... TORCH) builds seed's
#                                       extension with torch's CMake package
# torch's headers and libraries come from FUSEC_TORCH_DIR (the folder holding
# include/ and lib/), else an importable torch, else the cache folder
# FUSEC_TORCH_CACHE (default ~/.cache/fusec/torch-2.11), which the test fills
# with `pip install --no-deps torch==2.11.*` (the wheel only, about 530 MB)
# unless FUSEC_TORCH_FETCH=0. Where none of these works, the binding test
# prints why and exits 77, which ctest reports as skipped.
set -u
fusec=$1 mode=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

if [ "$mode" = module ]; then
  python3 "$root/tests/randgen.py" --seed 1 --count 8 --out "$work/rand" --ops-def "$root/src/ops.def" ||
    { echo "FAIL: randgen.py"; exit 1; }
  mkdir -p "$work/ext"
  for src in "$root"/examples/*.fuse "$root"/tests/golden/*.fuse "$work"/rand/*.fuse; do
    extra=$(sed -n '1s/^# fusec-args: //p' "$src")
    name=$(basename "$src" .fuse)
    out=$work/ext/$name
    # shellcheck disable=SC2086
    if ! "$fusec" -w $extra --emit=torch "$src" -o "$out" 2>"$work/err"; then
      fail "$name: fusec --emit=torch"; cat "$work/err"; continue
    fi
    py=$(ls "$out"/*.py)
    if python3 -m py_compile "$py" 2>"$work/err"; then
      echo "ok: $name: $(basename "$py") compiles"
    else
      fail "$name: python3 -m py_compile $(basename "$py")"; cat "$work/err"
    fi
  done
  [ $fails = 0 ] && echo "all modules compile" && exit 0
  exit 1
fi

[ "$mode" = binding ] || { echo "binding.sh: unknown mode $mode" >&2; exit 2; }
nvcc=$3
tdir=${FUSEC_TORCH_DIR:-}
if [ -z "$tdir" ]; then
  tdir=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))' 2>/dev/null) || tdir=
fi
if [ -z "$tdir" ] || [ ! -f "$tdir/include/torch/library.h" ]; then
  cache=${FUSEC_TORCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fusec/torch-2.11}
  if [ ! -f "$cache/torch/include/torch/library.h" ] && [ "${FUSEC_TORCH_FETCH:-1}" = 1 ]; then
    echo "fetching torch's wheel (no dependencies) into $cache"
    rm -rf "$cache.tmp"
    if timeout 900 python3 -m pip install -q --no-deps --no-compile --no-cache-dir --target "$cache.tmp" \
      'torch==2.11.*' >"$work/pip.log" 2>&1; then
      rm -rf "$cache" && mv "$cache.tmp" "$cache"
    else
      tail -3 "$work/pip.log"
      rm -rf "$cache.tmp"
    fi
  fi
  tdir=$cache/torch
fi
if [ ! -f "$tdir/include/torch/library.h" ]; then
  echo "SKIP: no torch headers: set FUSEC_TORCH_DIR, install torch, or let the test fetch it (FUSEC_TORCH_FETCH=1, needs PyPI)"
  exit 77
fi
if [ "$nvcc" = - ] || ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "SKIP: no nvcc"
  exit 77
fi
cuda=$(cd "$(dirname "$(command -v "$nvcc")")/.." && pwd)
echo "torch: $tdir ($(sed -n "s/^__version__ = '\(.*\)'/\1/p" "$tdir/version.py" 2>/dev/null)); CUDA: $cuda"
cxx=${CXX:-c++}
# cpp_extension's nvcc flags (torch/utils/cpp_extension.py COMMON_NVCC_FLAGS): the .cu
# must compile with the half operators and conversions turned off.
nvflags="-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__
  -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr"
for name in seed mixed scalars torch_names; do
  out=$work/$name
  "$fusec" -w --emit=torch "$root/tests/golden/$name.fuse" -o "$out" || { fail "$name: fusec"; continue; }
  # shellcheck disable=SC2086
  if ! "$cxx" -std=c++17 -O2 -fPIC -Wall -Wextra -Werror -DTORCH_API_INCLUDE_EXTENSION_H \
    "-DTORCH_EXTENSION_NAME=fusec_$name" -isystem "$tdir/include" -isystem "$tdir/include/torch/csrc/api/include" \
    -isystem "$cuda/include" -c "$out/${name}_torch.cpp" -o "$out/binding.o" >"$out/cxx.log" 2>&1; then
    fail "$name: the binding does not compile against torch's headers"; head -20 "$out/cxx.log"; continue
  fi
  # shellcheck disable=SC2086
  if ! "$nvcc" -O3 -arch=sm_90 -std=c++17 -DFUSEC_NO_HARNESS $nvflags -Xcompiler -fPIC -c "$out/$name.cu" \
    -o "$out/kernels.o" >"$out/nvcc.log" 2>&1; then
    fail "$name: the .cu does not compile with cpp_extension's flags"; head -20 "$out/nvcc.log"; continue
  fi
  if ! "$cxx" -shared -o "$out/${name}_torch.so" "$out/binding.o" "$out/kernels.o" -Wl,--no-undefined \
    -L"$tdir/lib" -lc10 -lc10_cuda -ltorch_cpu -ltorch_cuda -ltorch -L"$cuda/lib64" -lcudart >"$out/ld.log" 2>&1; then
    fail "$name: ${name}_torch.so does not link"; head -20 "$out/ld.log"; continue
  fi
  echo "ok: $name: ${name}_torch.cpp compiles and ${name}_torch.so links"
done

# fusec_add_chain(... TORCH) in a project that adds fusec's source tree: without
# torch's CMake package it must refuse to configure, saying so; with it, it builds
# seed_torch.so beside seed.py, and a second build has nothing to do.
proj=$work/cmake
mkdir -p "$proj"
cp "$root/examples/seed.fuse" "$proj/"
cat >"$proj/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(torch_ext LANGUAGES CXX CUDA)
add_subdirectory("$root" fusec)
if(WITH_TORCH)
  find_package(Torch REQUIRED)
endif()
fusec_add_chain(seed_ext seed.fuse TORCH)
EOF
gen="-G Ninja -DCMAKE_CUDA_COMPILER=$(command -v "$nvcc") -DFUSEC_INSTALL=OFF"
# shellcheck disable=SC2086
if cmake -S "$proj" -B "$proj/no" $gen >"$proj/no.log" 2>&1; then
  fail "cmake: TORCH without find_package(Torch) configured"
elif ! grep -q "TORCH needs PyTorch's CMake package" "$proj/no.log"; then
  fail "cmake: TORCH without find_package(Torch): no message naming it"; tail -5 "$proj/no.log"
else
  echo "ok: cmake: TORCH without torch's package stops with a message"
fi
# shellcheck disable=SC2086
if ! cmake -S "$proj" -B "$proj/b" $gen -DWITH_TORCH=ON "-DCMAKE_PREFIX_PATH=$tdir/share/cmake" \
  -DTORCH_CUDA_ARCH_LIST=9.0 >"$proj/cfg.log" 2>&1; then
  fail "cmake: configuring with torch's package"; tail -20 "$proj/cfg.log"
elif ! cmake --build "$proj/b" --target seed_ext >"$proj/build.log" 2>&1; then
  fail "cmake: building seed_ext"; tail -20 "$proj/build.log"
else
  ext=$proj/b/seed_ext.fusec
  [ -f "$ext/seed_torch.so" ] && [ -f "$ext/seed.py" ] && [ -f "$ext/seed_torch.cpp" ] ||
    fail "cmake: seed_torch.so and seed.py not side by side in seed_ext.fusec: $(ls "$ext")"
  python3 -m py_compile "$ext/seed.py" || fail "cmake: seed.py does not compile"
  ninja -C "$proj/b" -n seed_ext | grep -q "no work to do" || fail "cmake: a second build has work to do"
  echo "ok: cmake: fusec_add_chain(seed_ext seed.fuse TORCH) built seed_ext.fusec/seed_torch.so"
fi
[ $fails = 0 ] && echo "all bindings compile and link; the CMake route builds" && exit 0
exit 1

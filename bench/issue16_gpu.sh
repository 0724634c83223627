#!/bin/sh
# The GPU checks of issue 16's landed stages, in one command, from the
# repository root of an H200 machine with nvcc and PyTorch:
#   bench/issue16_gpu.sh OUT
# 1. builds fusec (build/), unless FUSEC names a built one (the GPU machine may
#    have no re2c or lemon: build here, carry the binary);
# 2. bench/device.sh with EXAMPLES="seed mask_combine bias_gelu layernorm_affine
#    rmsnorm_scale quantize_i8 dequantize_i8 fp8_quantize fp8_dequantize" and RANDOM_N=250: each new
#    example's harness verifies both versions and times them (its fused
#    kernel's % of the copy rate; the shaped ones at their --dims, C = 4096, R
#    swept), every test chain (tests/golden/operators.fuse, shapes.fuse,
#    layernorm.fuse, ints.fuse, fp8.fuse among them) verifies at four sizes, and 250
#    random programs of tests/randgen.py (every new operator, bool casts, about
#    a third with shapes, integer inputs and casts in and out of every integer
#    dtype, fp8 inputs and casts) verify against the reference (integers and fp8
#    outputs exactly):
#    OUT/device/results.tar.gz;
# 3. bench/torch_check.py: both versions against PyTorch eager on the same
#    inputs (unfused bit for bit), the shaped examples and a 3-D chain at two
#    sets of dims each, and the integer chains: ints.fuse, the two int8
#    examples, int_corners (// and % by zero, shifts by negative and too large
#    counts, float -> integer of NaN, inf and out-of-range values, integer ->
#    float past 2^24 and 2^53: one output per rule, so a FAIL line names the
#    rule) and int_literals (a Python int out of the tensor's range), and the
#    fp8 chains: fp8.fuse, the two fp8 examples and fp8_corners (each path
#    into and out of f8e4m3 and f8e5m2 on 448, 464, 480, 57344, 61440, inf,
#    NaN, subnormals, -0 and every code) and fp8_all_floats (all 2^32 f32
#    bit patterns into both formats, bit for bit): OUT/torch_check.txt;
# 4. bench/torch_bench.py --chain mask_combine: eager and torch.compile timed,
#    the compiled outputs checked against eager: OUT/torch_mask_combine.csv;
# 5. tests/torch/gpu_check.py --random GPU_CHECK_N (default 50): every example
#    (the shaped ones too) and the random programs, shaped ones among them, as
#    PyTorch ops against the C API (bit for bit) and against eager running the
#    same program: OUT/gpu_check/gpu_check.log.
# STEPS (default "device torch_check torch_bench gpu_check") picks steps, and RANDOM_N
# (default 250) the random programs, so that the work fits a time limit per
# command: the device step builds about 270 harnesses with nvcc.
# OUT/summary.txt has each step's exit status; device.sh's verdicts are status.txt
# and random_summary.txt inside its tarball ("random programs verified: P of N").
set -u
out=$1
mkdir -p "$out/device"
fusec=${FUSEC:-}
if [ -z "$fusec" ]; then
  cmake -S . -B build -G Ninja >/dev/null && cmake --build build >/dev/null || { echo "build failed" >&2; exit 1; }
  fusec=build/fusec
fi
steps=${STEPS:-device torch_check torch_bench gpu_check}
s1=- s2=- s3=- s4=-
case " $steps " in *" device "*)
  EXAMPLES="seed mask_combine bias_gelu layernorm_affine rmsnorm_scale quantize_i8 dequantize_i8 fp8_quantize fp8_dequantize" \
    RANDOM_N=${RANDOM_N:-250} bench/device.sh "$out/device" "$fusec" examples tests random
  s1=$? ;;
esac
case " $steps " in *" torch_check "*) python3 bench/torch_check.py "$fusec" "$out"; s2=$? ;; esac
case " $steps " in *" torch_bench "*)
  python3 bench/torch_bench.py --chain mask_combine --sizes 2^20,2^24,2^28 --passes 1 --csv "$out/torch_mask_combine.csv"
  s3=$? ;;
esac
case " $steps " in *" gpu_check "*)
  python3 tests/torch/gpu_check.py --fusec "$fusec" --out "$out/gpu_check" --random "${GPU_CHECK_N:-50}"
  s4=$? ;;
esac
echo "device.sh $s1, torch_check.py $s2, torch_bench.py $s3, gpu_check.py $s4" | tee "$out/summary.txt"
for s in $s1 $s2 $s3 $s4; do [ "$s" = - ] || [ "$s" = 0 ] || exit 1; done

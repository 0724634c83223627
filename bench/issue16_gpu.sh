#!/bin/sh
# The GPU checks of issue 16's landed stages, in one command, from the
# repository root of an H200 machine with nvcc and PyTorch:
#   bench/issue16_gpu.sh OUT
# 1. builds fusec (build/), unless FUSEC names a built one (the GPU machine may
#    have no re2c or lemon: build here, carry the binary);
# 2. bench/device.sh with EXAMPLES="seed mask_combine" and RANDOM_N=250: the new
#    example's harness verifies both versions and times them (its fused
#    kernel's % of the copy rate), every test chain (tests/golden/operators.fuse
#    among them: ** % // & | ^ ~) verifies at four sizes, and 250 random
#    programs of tests/randgen.py (every new operator and bool casts) verify
#    against the double reference: OUT/device/results.tar.gz;
# 3. bench/torch_check.py: both versions against PyTorch eager on the same
#    inputs (unfused bit for bit): OUT/torch_check.txt;
# 4. bench/torch_bench.py --chain mask_combine: eager and torch.compile timed,
#    the compiled outputs checked against eager: OUT/torch_mask_combine.csv.
# STEPS (default "device torch_check torch_bench") picks steps, and RANDOM_N
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
steps=${STEPS:-device torch_check torch_bench}
s1=- s2=- s3=-
case " $steps " in *" device "*)
  EXAMPLES="seed mask_combine" RANDOM_N=${RANDOM_N:-250} bench/device.sh "$out/device" "$fusec" examples tests random
  s1=$? ;;
esac
case " $steps " in *" torch_check "*) python3 bench/torch_check.py "$fusec" "$out"; s2=$? ;; esac
case " $steps " in *" torch_bench "*)
  python3 bench/torch_bench.py --chain mask_combine --sizes 2^20,2^24,2^28 --passes 1 --csv "$out/torch_mask_combine.csv"
  s3=$? ;;
esac
echo "device.sh $s1, torch_check.py $s2, torch_bench.py $s3" | tee "$out/summary.txt"
for s in $s1 $s2 $s3; do [ "$s" = - ] || [ "$s" = 0 ] || exit 1; done

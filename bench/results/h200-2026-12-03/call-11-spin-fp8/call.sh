# Session 9, call A: (1) cold mode with the host's dispatch hidden (a spin queued before the L2 flush, in the
# calibration and in the chain timings) against the harness as it is, on five examples at 4K-16M; (2) fp8_quantize
# of the final build (sign or) against fbe5127 (call 8's timed build) and Inductor; torch_check fp8 chains;
# (3) bench/launchcost.cu (cold with and without the spin, calibration-like kernels).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
export TORCHINDUCTOR_CACHE_DIR=/tmp/ind
mkdir -p /tmp/h $OUT/spin $OUT/q
C="seed mixed mask_combine swiglu softplus_f64"
( for n in $C; do ( $F -w --name=$n examples/$n.fuse -o /tmp/h/$n.cu && sed -f .dev/spin.sed /tmp/h/$n.cu > /tmp/h/${n}_spin.cu &&
    nvcc -O3 -arch=sm_90 /tmp/h/$n.cu -o /tmp/h/$n && nvcc -O3 -arch=sm_90 /tmp/h/${n}_spin.cu -o /tmp/h/${n}_spin ) & done
  nvcc -O3 -arch=sm_90 -I bench bench/launchcost.cu -o /tmp/h/launchcost & wait ) > $OUT/spin/build.txt 2>&1 &
timeout 100 python3 bench/fusion_bench.py examples/fp8_quantize.fuse --fusec $F --baseline $PWD/.dev/bin/fusec_base --sizes 2^20,2^24,2^28 --passes 3 --reps 9 --modes cold --out $OUT/q > $OUT/q/stdout.txt 2>&1; el "q rc=$?"
rm -rf $OUT/q/build
timeout 90 python3 bench/torch_check.py $F $OUT/tc --chain fp8_all_floats,fp8_quantize,fp8_corners,fp8 > $OUT/tc_stdout.txt 2>&1; el "torch_check rc=$?"
wait; el "builds"
timeout 40 /tmp/h/launchcost > $OUT/spin/launchcost.csv 2>&1; el "launchcost rc=$?"
S=4096,65536,1048576,16777216
for round in 1 2; do for n in $C; do for v in $n ${n}_spin; do
  timeout 40 /tmp/h/$v --no-verify --seed 7 --reps 30 --modes cold --sizes $S --csv $OUT/spin/${v}_$round.csv > $OUT/spin/${v}_$round.txt 2>&1
done; done; el "round $round"; [ $(( $(date +%s) - t0 )) -gt 380 ] && break; done
cd $OUT && tar czf callA.tgz spin q tc *.txt 2>/dev/null; rm -rf spin q tc; el done

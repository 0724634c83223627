# Session 6, call 1: the fast-division corner (divtest), then 250 random programs (randgen --seed 2026)
# against the reference (bench/device.sh random) and against eager through their C API (gpu_check).
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s6
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/rnd $OUT/g
nvcc -O3 -arch=sm_90 .dev/divtest.cu -o /tmp/divtest && /tmp/divtest > $OUT/divtest.txt 2>&1; el "divtest rc=$?"; cat $OUT/divtest.txt
RANDOM_N=250 PHASE_LIMIT=100 timeout 300 bench/device.sh $OUT/rnd $F random > $OUT/rnd/stdout.txt 2>&1; el "random rc=$?"
cat $OUT/rnd/*/random_summary.txt 2>/dev/null | head -30
tar -C $OUT/rnd -xzf $OUT/rnd/results.tar.gz 2>/dev/null; cat $OUT/rnd/results/random_summary.txt | head -40
rem=$(( 560 - ($(date +%s) - t0) ))
timeout $rem python3 tests/torch/gpu_check.py --fusec $F --out $OUT/g --only-capi --random 0 --random-capi 250 --jobs 15 > $OUT/g/stdout.txt 2>&1; el "gpu_check rc=$?"
tail -25 $OUT/g/stdout.txt
cd $OUT && tar czf s6call1.tgz divtest.txt rnd g && rm -rf rnd g
el done

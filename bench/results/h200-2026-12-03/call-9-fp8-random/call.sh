# Session 8, call 9: fp8 on every float (the sign fix of the bounded e4m3 conversion); the fidelity table with
# the calibrated hot L2 terms on every example, tests/golden chain and bench chain; 250 random programs.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
timeout 70 python3 bench/torch_check.py $F $OUT/tc --chain fp8_all_floats,fp8_quantize,fp8 > $OUT/tc_stdout.txt 2>&1; el "torch_check rc=$?"
EXTRA="bench/chains/*.fuse" RANDOM_N=0 LIMIT=12 REPS=5 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout 330 bash bench/fidelity.sh $OUT $F > $OUT/fid_stdout.txt 2>&1; el "fidelity rc=$?"
rem=$(( 560 - ($(date +%s) - t0) ))
mkdir -p $OUT/rnd
RANDOM_N=250 PHASE_LIMIT=60 timeout $rem bench/device.sh $OUT/rnd $F random > $OUT/rnd/stdout.txt 2>&1; el "random rc=$?"
tar -C $OUT/rnd -xzf $OUT/rnd/results.tar.gz 2>/dev/null; head -30 $OUT/rnd/results/random_summary.txt
cd $OUT && tar czf call9.tgz tc rnd/results/random_summary.txt rnd/results/random_status.txt rnd/stdout.txt 2>/dev/null; rm -rf tc rnd; el done

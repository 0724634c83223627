# Session 34 call 3, after call 2 in one command (build 4312152, HEAD, kernels as aaf8520; device.sh limited to 230 s): session 30's call 2 again: the 250 random programs of
# bench/device.sh random (tests/randgen.py --seed 2026: shapes, integers, fp8 casts), built with nvcc -O3 -arch=sm_90
# and verified (--verify-only at 1000003 elements, a shaped one at 4099 rows). Carry .dev. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s34c3out; rm -rf $T; mkdir -p $T/rnd; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz machine.txt times.txt random_summary.txt random_status.txt stdout.txt 2>/dev/null; }; trap save EXIT
RANDOM_N=250 PHASE_LIMIT=150 timeout 230 bench/device.sh $T/rnd $F random > $T/stdout.txt 2>&1; el "random rc=$?"
tar -C $T/rnd -xzf $T/rnd/results.tar.gz 2>/dev/null; cp $T/rnd/results/random_summary.txt $T/rnd/results/random_status.txt $T/ 2>/dev/null
head -30 $T/random_summary.txt

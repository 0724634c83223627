# Session 9, call C: the 250 random programs of bench/device.sh random (randgen --seed 2026), built and verified
# (--verify-only at 1000003 elements, a shaped one at 4099 rows), with the final build.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
mkdir -p $OUT/rnd
RANDOM_N=250 PHASE_LIMIT=60 timeout 540 bench/device.sh $OUT/rnd $F random > $OUT/rnd/stdout.txt 2>&1; el "random rc=$?"
tar -C $OUT/rnd -xzf $OUT/rnd/results.tar.gz 2>/dev/null; head -30 $OUT/rnd/results/random_summary.txt
cd $OUT && tar czf callC.tgz rnd/results/random_summary.txt rnd/results/random_status.txt rnd/stdout.txt 2>/dev/null; rm -rf rnd; el done

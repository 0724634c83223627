# Session 24 call 2: this session's build (session 23's, with the code fetch charged to graph replays:
# .dev/bin/fusec). (1) each kernel of eager and of fusec's unfused version at 2^24, now each call after an
# L2 flush (fusion_bench --kernels; call 1 timed them back to back), every flat example and bench chain;
# (2) the fidelity run of the 14 examples and 23 tests/golden chains, 2^12..2^28, REPS=10, --passes 2,
# kept on the machine (build-fid/out) so that a later call can go on with RESUME=1.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; W=$PWD/build-fid; R=$W/out; mkdir -p $R; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=16 bash bench/fidelity.sh $R $F > $OUT/fid_build.txt 2>&1 &
timeout 150 python3 bench/fusion_bench.py --fusec $F --out $OUT/kt --sizes 2^20 --modes cold --passes 1 --no-cub \
  --kernels 16777216 $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $OUT/kt.txt 2>&1; el "kt rc=$?"
wait; el "built $(ls $W/src/*.bin | wc -l)"
RESUME=1 RANDOM_N=0 REPS=10 LIMIT=90 PHASE=run FID_WORK=$W timeout $((560 - $(date +%s) + t0)) bash bench/fidelity.sh $R $F > $OUT/fid_run.txt 2>&1
el "fidelity rc=$?"; rm -rf $OUT/kt/build
mkdir -p $R/fidelity/logs; cp $W/*.log $R/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $R/fidelity > $OUT/fidelity.txt; tar -C $R -czf $OUT/fidelity.tgz fidelity; tail -n 16 $OUT/fidelity.txt

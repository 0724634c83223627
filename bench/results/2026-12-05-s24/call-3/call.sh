# Session 24 call 3: the same build as call 2 (.dev/bin/fusec): the fidelity run of tests/randgen.py --seed 4242
# programs 0-99 (verified first), 2^12..2^28, REPS=10, --passes 2: with call 2's 37 chains, the 137 of
# session 23's run (bench/results/2026-12-05-s23/call-2), on this session's build.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; W=$PWD/build-rand; R=$W/out; mkdir -p $R; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
[ -f $W/built ] || { ONLY_RANDOM=1 PHASE=build FID_WORK=$W JOBS=16 bash bench/fidelity.sh $R $F > $OUT/fid_build.txt 2>&1; touch $W/built; }
el "built $(ls $W/src/*.bin | wc -l)"
RESUME=1 ONLY_RANDOM=1 REPS=10 LIMIT=90 PHASE=run FID_WORK=$W timeout $((570 - $(date +%s) + t0)) bash bench/fidelity.sh $R $F > $OUT/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $R/fidelity/logs; cp $W/*.log $R/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $R/fidelity > $OUT/fidelity.txt; tar -C $R -czf $OUT/fidelity.tgz fidelity; tail -n 16 $OUT/fidelity.txt

# Session 24 call 4: this session's build with hot_call_us (c576f75, .dev/bin/fusec): the fidelity run of the
# 14 examples, the 23 tests/golden chains and randgen.py --seed 4242 programs 0-9, 2^12..2^28, REPS=10,
# --passes 2; each harness calibrates hot_call_us (its hot calls queued behind a spin).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; W=$PWD/build-c4; R=$W/out; mkdir -p $R; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
[ -f $W/built ] || { RANDOM_N=10 PHASE=build FID_WORK=$W JOBS=16 bash bench/fidelity.sh $R $F > $OUT/fid_build.txt 2>&1; touch $W/built; }
el "built $(ls $W/src/*.bin | wc -l)"
RESUME=1 RANDOM_N=10 REPS=10 LIMIT=90 PHASE=run FID_WORK=$W timeout $((200 - $(date +%s) + t0)) bash bench/fidelity.sh $R $F > $OUT/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $R/fidelity/logs; cp $W/*.log $R/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $R/fidelity > $OUT/fidelity.txt; tar -C $R -czf $OUT/fidelity.tgz fidelity; tail -n 16 $OUT/fidelity.txt
grep -h "hot call" $W/*.log | sort | uniq -c | sort -rn | head -3

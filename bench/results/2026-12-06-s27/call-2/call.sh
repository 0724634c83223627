# Session 27 call 2 (the same machine, warm, right after call 1; the same build): (1) bench/device.sh random,
# programs 100..249 of tests/randgen.py --seed 2026, built and verified, beside the fidelity build of the 23
# tests/golden chains; (2) their fidelity run, 2^12..2^28, REPS=10. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c2out; W=/tmp/c2fid; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
GO=$(ls tests/golden/*.fuse | xargs -n1 basename | sed 's/\.fuse$//;s/^/golden_/' | tr '\n' ' ')
( ONLY="$GO" RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=6 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1 ) &
mkdir -p $T/rnd; RANDOM_N=250 RANDOM_FROM=100 RANDOM_TO=249 PHASE_LIMIT=60 timeout 300 bash bench/device.sh $T/rnd $F random > $T/random.txt 2>&1
el "random rc=$?"; tail -n 12 $T/random.txt; wait; el "fidelity built $(ls $W/src/*.bin | wc -l)"
ONLY="$GO" RESUME=1 RANDOM_N=0 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $((540 - $(date +%s) + t0)) bash bench/fidelity.sh $T $F > $T/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $T/fidelity/logs; cp $W/*.log $T/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -20

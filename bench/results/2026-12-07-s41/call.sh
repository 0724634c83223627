# Session 41: the same command for every call on one warm machine (carry .dev, HEAD's fusec in .dev/bin); each
# call stops within B seconds (default 570) and the next goes on where it stopped (state in /tmp/s41, kept while
# the machine stays warm). (1) build programs 0-99 of tests/randgen.py --seed 4242 (bench/fidelity.sh
# ONLY_RANDOM=1 PHASE=build; the examples and golden chains were timed by ready/one-call, call 1); (2) time them
# (RESUME=1, REPS=10, LIMIT=50) with the time left; (3) tests/torch/gpu_check.py --only-capi on the 250 random
# programs of --seed 2026. Back as one all.tgz a call.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; S=/tmp/s41; W=$S/work; T=$S/out; t0=$(date +%s)
[ -f $S/calls ] || rm -rf $S; mkdir -p $W $T; echo x >> $S/calls; c=$(wc -l < $S/calls)
el() { echo "call $c t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
left() { echo $((${B:-570} - $(date +%s) + t0)); }
save() { tar -C $T -czf $OUT/all.tgz --exclude=./gc/build .; }; trap save EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | sed "s/^/call $c: /" | tee -a $T/machine.txt
if [ ! -f $S/built ]; then
  ONLY_RANDOM=1 RANDOM_N=100 JOBS=14 PHASE=build FID_WORK=$W timeout 260 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1
  touch $S/built; el "fidelity built $(ls $W/src/*.bin | wc -l) of $(ls $W/src/*.fuse | wc -l)"
fi
if [ ! -f $S/timed ] && [ $(left) -gt 40 ]; then
  RESUME=1 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $(left) bash bench/fidelity.sh $T $F >> $T/fid_run.txt 2>&1
  rc=$?; [ $rc = 0 ] && touch $S/timed; el "fidelity rc=$rc, $(ls $T/fidelity/*.csv 2>/dev/null | wc -l) chains timed"
  mkdir -p $T/fidelity/logs; cp $W/*.log $T/fidelity/logs/ 2>/dev/null
  python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -12
fi
if [ -f $S/timed ] && [ ! -f $S/gc ] && [ $(left) -gt 150 ]; then
  timeout $(left) python3 tests/torch/gpu_check.py --fusec $F --out $T/gc --only-capi --random 0 --random-capi 250 --jobs 14 > $T/gpu_check.txt 2>&1
  rc=$?; touch $S/gc; el "gpu_check rc=$rc"; tail -n 3 $T/gpu_check.txt
fi
el "call ends"

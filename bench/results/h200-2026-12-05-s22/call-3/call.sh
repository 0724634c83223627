# Session 22 call 3: the fidelity table of randgen.py --seed 4242 programs 0-49 with this build's model
# (session 20's not-run/call3.sh with 50 programs and a 480 s cap, to fit the session's device time).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; R=/tmp/r3; mkdir -p $R
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' --exclude=fidelity -C $R . ; }
ONLY_RANDOM=1 RANDOM_N=50 PHASE=build FID_WORK=/tmp/fw3 JOBS=12 bash bench/fidelity.sh $R $F > $R/fid_build.txt 2>&1
el "built $(ls /tmp/fw3/src/*.bin | wc -l)"
SIZES=4096,65536,1048576,16777216,268435456 REPS=10 ONLY_RANDOM=1 RANDOM_N=50 PHASE=run FID_WORK=/tmp/fw3 LIMIT=20 \
  timeout $(( 470 - ($(date +%s) - t0) )) bash bench/fidelity.sh $R $F > $R/fid_run.txt 2>&1; el "fidelity rc=$?"
if [ ! -f $R/fidelity.tgz ] && [ -d $R/fidelity ]; then mkdir -p $R/fidelity/logs; cp /tmp/fw3/*.log $R/fidelity/logs/; python3 bench/fidelity.py $R/fidelity > $R/fidelity.txt 2>&1; tar -C $R -czf $R/fidelity.tgz fidelity; fi
save; tail -22 $R/fidelity.txt 2>/dev/null

# Session 20, for the next GPU session: the fidelity table of randgen.py --seed 4242 programs 0-99 with this
# build's model (the tail kernel in every case, the prices by a literal zero), at 2^12..2^28; builds with 8
# jobs (session 19's call 2 ran 12 beside torch.compile and the machine stopped answering).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; R=/tmp/r; mkdir -p $R
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' --exclude=fidelity -C $R . ; }
ONLY_RANDOM=1 RANDOM_N=100 PHASE=build FID_WORK=/tmp/fw JOBS=8 bash bench/fidelity.sh $R $F > $R/fid_build.txt 2>&1
el "built $(ls /tmp/fw/src/*.bin | wc -l)"
SIZES=4096,65536,1048576,16777216,268435456 REPS=10 ONLY_RANDOM=1 RANDOM_N=100 PHASE=run FID_WORK=/tmp/fw LIMIT=20 \
  timeout $(( 575 - ($(date +%s) - t0) )) bash bench/fidelity.sh $R $F > $R/fid_run.txt 2>&1; el "fidelity rc=$?"
if [ ! -f $R/fidelity.tgz ] && [ -d $R/fidelity ]; then mkdir -p $R/fidelity/logs; cp /tmp/fw/*.log $R/fidelity/logs/; python3 bench/fidelity.py $R/fidelity > $R/fidelity.txt 2>&1; tar -C $R -czf $R/fidelity.tgz fidelity; fi
save; tail -16 $R/fidelity.txt 2>/dev/null

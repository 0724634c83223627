# Session 29 call 5 (this session's final model and emitter: the fused call in one launch, the fused
# kernel's per-element gather latency): the fidelity run of the first 40 of call 2's 100 programs of
# tests/randgen.py --seed 4242 (verified first), REPS=10, timed until the call's limit.
# Everything under $T, back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c5out; W=/tmp/c5fid; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz --exclude=fidelity .; }; trap save EXIT
ONLY="$(seq -f 'rand_rand_4242_%04g' 0 39 | tr '\n' ' ')"
E="ONLY_RANDOM=1 RANDOM_N=100 RANDOM_SEED=4242 REPS=10 LIMIT=40 FID_WORK=$W"
env $E ONLY="$ONLY" PHASE=build JOBS=16 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1; el "built $(ls $W/src/*.bin | wc -l)"
env $E ONLY="$ONLY" RESUME=1 PHASE=run timeout $((${LIMIT_S:-290} - $(date +%s) + t0)) bash bench/fidelity.sh $T $F > $T/fid_run.txt 2>&1
el "fidelity rc=$? timed $(ls $T/fidelity/*.csv 2>/dev/null | wc -l)"
mkdir -p $T/fidelity/logs && cp $W/*.log $T/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; tail -n 3 $T/fidelity.txt
tar -C $T -czf $T/fidelity.tgz fidelity

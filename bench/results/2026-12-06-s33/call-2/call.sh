# Session 33 call 2, two runs (build 79d8789, kernels as aaf8520): the fidelity run of 100 programs of tests/randgen.py
# --seed 4242 (verified first), REPS=10, as session 31's call 2 ran them. Run twice on one warm machine: first
# plain (clears $T and $W, builds, then times until its limit), then with RESUME=1 (times what the first left and
# writes the table and fidelity.tgz; then bench/torch_check.py, both versions of the integer, fp8 and shaped
# chains against PyTorch eager, with the time left). Everything under $T, back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s33c2out; W=/tmp/s33c2fid; [ -z "${RESUME:-}" ] && rm -rf $T $W; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz --exclude=fidelity .; }; trap save EXIT
E="ONLY_RANDOM=1 RANDOM_N=100 RANDOM_SEED=4242 REPS=10 LIMIT=40 FID_WORK=$W"
if [ -z "${RESUME:-}" ]; then
  env $E PHASE=build JOBS=14 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1; el "built $(ls $W/src/*.bin | wc -l)"
  env $E RESUME=1 PHASE=run timeout $((540 - $(date +%s) + t0)) bash bench/fidelity.sh $T $F > $T/fid_run1.txt 2>&1
else
  env $E RESUME=1 PHASE=run timeout $((400 - $(date +%s) + t0)) bash bench/fidelity.sh $T $F > $T/fid_run2.txt 2>&1
  el "fidelity rc=$? timed $(ls $T/fidelity/*.csv 2>/dev/null | wc -l)"; tail -n 4 $T/fidelity.txt 2>/dev/null
  timeout $((540 - $(date +%s) + t0)) python3 bench/torch_check.py $F $T > $T/torch_check_stdout.txt 2>&1; el "torch_check rc=$?"
  tail -n 5 $T/torch_check.txt 2>/dev/null
fi
el "fidelity timed $(ls $T/fidelity/*.csv 2>/dev/null | wc -l)"

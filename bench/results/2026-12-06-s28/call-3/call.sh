# Session 28 call 3 (the build of 7092183): what a broadcast-form unfused kernel (eager's per-element
# form, each element's offset found from the FxBcast dims) costs beside a plain one at small sizes. The
# eight chains in chains/ (one kernel of 2, 3 and 4 dims against a plain one; four of them against four
# plain ones) through bench/fidelity.sh, 2^12..2^28 elements, REPS=15: each harness's unfused time
# against the model's, which has no latency term for the form. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; D=bench/results/2026-12-06-s28/call-3; T=/tmp/c3out; mkdir -p $T; t0=$(date +%s)
el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
ONLY="$(ls $D/chains/*.fuse | xargs -n1 basename | sed 's/^/bench_/;s/\.fuse$//' | tr '\n' ' ')"
EXTRA="$D/chains/*.fuse" ONLY="$ONLY" RANDOM_N=0 REPS=15 LIMIT=60 JOBS=8 timeout 480 bash bench/fidelity.sh $T $F > $T/fid.txt 2>&1
el "fidelity rc=$?"; python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -5
for f in $T/fidelity/*.csv; do echo "== $(basename $f)"; grep -E "^[0-9]+,cold" $f | cut -d, -f1,4,13 | head -4; done

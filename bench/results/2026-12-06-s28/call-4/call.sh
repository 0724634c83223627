# Session 28 call 4: the unfused kernels' tail one element a thread (this session's emit change, the build
# carried as .dev/bin/fusec) against the build before it (14bdad1, .dev/bin/fusec-before: one thread
# took the tail element by element), in one call: the three chains of chains/ (four plain kernels at a
# last dim of 257 or 33: f32, bf16, u8), call 3's row2x4 and plain2x4, and four shaped random programs
# of --seed 4242 (three whose last dim is 33 or 257, one of 64), each built by both fusec binaries,
# verified at 4099 and 1000003 elements, and timed 2^12..2^28, REPS=10, the two builds' runs one after
# the other. The new build's harness also prints the model with the broadcast form's latency. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
C3=bench/results/2026-12-06-s28/call-3; C4=bench/results/2026-12-06-s28/call-4; T=/tmp/c4out; mkdir -p $T; t0=$(date +%s)
el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
mkdir -p /tmp/c4ch; cp $C4/chains/*.fuse $C3/chains/row2x4.fuse $C3/chains/plain2x4.fuse /tmp/c4ch/
ONLY="$(ls /tmp/c4ch/*.fuse | xargs -n1 basename | sed 's/^/bench_/;s/\.fuse$//' | tr '\n' ' ') rand_rand_4242_0057 rand_rand_4242_0041 rand_rand_4242_0061 rand_rand_4242_0095"
for b in after before; do
  F=$PWD/.dev/bin/fusec; [ $b = before ] && F=$PWD/.dev/bin/fusec-before
  ( EXTRA="/tmp/c4ch/*.fuse" ONLY="$ONLY" RANDOM_N=96 RANDOM_SEED=4242 PHASE=build FID_WORK=/tmp/c4w_$b JOBS=8 bash bench/fidelity.sh $T/$b $F > $T/build_$b.txt 2>&1 ) &
done; wait; el "built $(ls /tmp/c4w_after/src/*.bin | wc -l) $(ls /tmp/c4w_before/src/*.bin | wc -l)"
for b in after before; do
  F=$PWD/.dev/bin/fusec; lim=250; [ $b = before ] && F=$PWD/.dev/bin/fusec-before && lim=420
  ONLY="$ONLY" RANDOM_N=96 RESUME=1 REPS=10 LIMIT=40 PHASE=run FID_WORK=/tmp/c4w_$b timeout $(( lim - $(date +%s) + t0 )) bash bench/fidelity.sh $T/$b $F > $T/run_$b.txt 2>&1
  el "$b rc=$?"; python3 bench/fidelity.py $T/$b/fidelity > $T/fidelity_$b.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity_$b.txt | head -3
done

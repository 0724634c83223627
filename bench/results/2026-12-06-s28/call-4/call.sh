# Session 28 call 4 (the build of 14bdad1: the broadcast form's latency in the model): the harnesses'
# own predictions with it, on call 3's eight probe chains and twelve shaped random programs of --seed 4242
# (those of call 2 with a # fusec-args line, 0-31), 2^12..2^28, REPS=10, as far as LIMIT_ALL (default 420 s) lets it. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; C3=bench/results/2026-12-06-s28/call-3; T=/tmp/c4out; mkdir -p $T; t0=$(date +%s)
el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
ONLY="$(ls $C3/chains/*.fuse | xargs -n1 basename | sed 's/^/bench_/;s/\.fuse$//' | tr '\n' ' ') rand_rand_4242_0000 rand_rand_4242_0001 rand_rand_4242_0008 rand_rand_4242_0009 rand_rand_4242_0012 rand_rand_4242_0017 rand_rand_4242_0019 rand_rand_4242_0021 rand_rand_4242_0028 rand_rand_4242_0029 rand_rand_4242_0030 rand_rand_4242_0031 "
EXTRA="$C3/chains/*.fuse" ONLY="$ONLY" RANDOM_N=32 RANDOM_SEED=4242 REPS=10 LIMIT=40 JOBS=16 timeout ${LIMIT_ALL:-420} bash bench/fidelity.sh $T $F > $T/fid.txt 2>&1
el "fidelity rc=$?"; python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -5

# Session 39, ready, not run: one call on whatever card comes, for a session with device time left for one call
# only; B (seconds, default 560) is the call's length. Carry .dev (HEAD's fusec in .dev/bin).
# On an H200: (1) the bench set beside eager, Inductor and CUB (bench/fusion_bench.py, the 13 bench/chains,
# 2^12-2^28, cold, three passes: issue 13's table), (2) the fidelity table of the 14 examples and
# 24 tests/golden chains (bench/fidelity.sh RANDOM_N=0, REPS=10) with the time left; on an H100 the same
# (until session 40 it ran session 38's ready/regs there). Back as one all.tgz.
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s39/out; W=/tmp/s39/work; rm -rf /tmp/s39; mkdir -p $T $W; t0=$(date +%s)
left() { echo $((${B:-560} - $(date +%s) + t0)); }
el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $T/machine.txt
# (ready/regs ran on an H100 in session 40: bench/results/2026-12-07-s40/regs; an H100 now runs what an H200 does)
trap 'tar -C $T -czf $OUT/all.tgz --exclude=./fb/build .' EXIT
timeout $(( $(left) - 10 )) python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2^12,2^16,2^20,2^24,2^28 --modes cold \
  --passes 3 bench/chains/*.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; sed -n '/^variants/,$p' $T/fb/table.txt 2>/dev/null | head -5
[ $(left) -gt 200 ] || exit
RANDOM_N=0 JOBS=14 PHASE=build FID_WORK=$W timeout 150 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1
el "fidelity built $(ls $W/src/*.bin | wc -l) of $(ls $W/src/*.fuse | wc -l)"
RANDOM_N=0 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $(( $(left) - 15 )) bash bench/fidelity.sh $T $F > $T/fid_run.txt 2>&1
el "fidelity rc=$? $(ls $T/fidelity/*.csv 2>/dev/null | wc -l) chains timed"
python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -20

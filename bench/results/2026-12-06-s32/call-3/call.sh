# Session 32 call 3 (build aaf8520: FX_WIDE_BLOCKS 16384, the kernels of 8e789ef otherwise, session 31's model):
# bench/fusion_bench.py on the 11 flat examples and the 13 bench/chains against eager, Inductor and CUB, cold,
# three passes, 2^12..2^28 (no --kernels: the unfused kernels did not change); then the fidelity run of the 14
# examples and the 23 tests/golden chains (REPS=10) with the time left, all within 370 s. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s32c3out; W=/tmp/s32c3fid; rm -rf $T $W; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
timeout 200 python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2^12,2^16,2^20,2^22,2^24,2^26,2^28 \
  --modes cold --passes 3 $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $T/fb/build; tail -n 3 $T/fb.txt
ONLY="$(ls examples/*.fuse tests/golden/*.fuse | sed 's|tests/golden/|golden_|;s|examples/||;s|\.fuse$||' | tr '\n' ' ')"
ONLY="$ONLY" RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=14 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1
el "fidelity built $(ls $W/src/*.bin | wc -l)"
left=$((370 - $(date +%s) + t0)); [ $left -gt 60 ] && ONLY="$ONLY" RESUME=1 RANDOM_N=0 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $left bash bench/fidelity.sh $T $F > $T/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $T/fidelity/logs; cp $W/*.log $T/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -20

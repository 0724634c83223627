# Session 35, ready, not run (HEAD in .dev/bin/fusec, src/ and runtime/ as 5a20d4a; 0f8e402, the build before the fast float //, in
# .dev/base/fusec). First session 34's ready/floordiv-t: bench/opcost_fused.py on the float // and % rows (f32,
# f16, the harness's data) for src/ops.c's FLOORDIV_FAST_T_S32, then bench/fusion_bench.py on the two tensor-//
# chains there and bench/chains/floordiv_f32 (by numbers: unchanged code, the noise), 2^20..2^28, cold, three
# passes, 0f8e402 as fused@base, beside eager and Inductor, with ulps. Then the fidelity run of the 14 examples
# and 24 tests/golden chains (REPS=10) with the time left, all within 560 s (B=seconds for less; SIZES=... for fusion_bench's sizes). Carry .dev. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s35c1out; W=/tmp/s35c1fid; rm -rf $T $W; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
D=bench/results/2026-12-06-s34/ready/floordiv-t
timeout 150 python3 bench/opcost_fused.py --fusec $F --out $T/oc --ops floordiv_over_t,rem_over_t,floordiv_num,rem_num \
  --types f32,f16 --data harness > $T/oc.txt 2>&1; el "opcost_fused rc=$?"; tail -n 12 $T/oc.txt
timeout 200 python3 bench/fusion_bench.py --fusec $F --baseline .dev/base/fusec --out $T/fb --sizes ${SIZES:-2^20,2^22,2^24,2^26,2^28} \
  --modes cold --passes 3 --no-cub $D/floordiv_t_f32.fuse $D/floordiv_t_mix.fuse bench/chains/floordiv_f32.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $T/fb/build; sed -n '/^variants/,$p' $T/fb/table.txt | head -40
ONLY="$(ls examples/*.fuse tests/golden/*.fuse | sed 's|tests/golden/|golden_|;s|examples/||;s|\.fuse$||' | tr '\n' ' ')"
[ $((${B:-560} - $(date +%s) + t0)) -gt 120 ] || exit 0 # no time for the fidelity run (B)
ONLY="$ONLY" RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=14 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1
el "fidelity built $(ls $W/src/*.bin | wc -l)"
left=$((${B:-560} - $(date +%s) + t0)); [ $left -gt 60 ] && ONLY="$ONLY" RESUME=1 RANDOM_N=0 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $left bash bench/fidelity.sh $T $F > $T/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $T/fidelity/logs; cp $W/*.log $T/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -20

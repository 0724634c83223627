# Session 34 call 1 (build 4312152, HEAD: the kernels of aaf8520, session 31's model, the harness reference of 254c631). On an H200 only, first the A/B of session 32's
# kernel change: bench/fusion_bench.py on the nine wide chains at 2^21..2^24, cold, five passes, beside Inductor
# and eager, with the variant w4096 (the build before aaf8520). Then session 32 call 3 again: fusion_bench on the
# 11 flat examples and the 13 bench/chains against eager, Inductor and CUB, cold, three passes, 2^12..2^28; then
# the fidelity run of the 14 examples and the 23 tests/golden chains (REPS=10) with the time left, all within
# 560 s. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s34c1out; W=/tmp/s34c1fid; rm -rf $T $W; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
C="bench/chains/floordiv_f32.fuse bench/chains/gelu_bf16.fuse bench/chains/gelu_f64.fuse bench/chains/lse_f64.fuse bench/chains/mish_f32.fuse bench/chains/sigtanh_f64.fuse bench/chains/trig_f32.fuse examples/quantize_i8.fuse examples/softplus_f64.fuse"
grep -q H200 $T/machine.txt && timeout 150 python3 bench/fusion_bench.py --fusec $F --out $T/ab --sizes 2097152,3145728,4194304,6291456,8388608,12582912,16777216 \
  --modes cold --passes 5 --no-cub --variants w4096 $C > $T/ab.txt 2>&1
el "wide A/B rc=$?"; rm -rf $T/ab/build; tail -n 4 $T/ab.txt
timeout 200 python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2^12,2^16,2^20,2^22,2^24,2^26,2^28 \
  --modes cold --passes 3 $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $T/fb/build; tail -n 3 $T/fb.txt
ONLY="$(ls examples/*.fuse tests/golden/*.fuse | sed 's|tests/golden/|golden_|;s|examples/||;s|\.fuse$||' | tr '\n' ' ')"
ONLY="$ONLY" RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=14 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1
el "fidelity built $(ls $W/src/*.bin | wc -l)"
left=$((560 - $(date +%s) + t0)); [ $left -gt 60 ] && ONLY="$ONLY" RESUME=1 RANDOM_N=0 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $left bash bench/fidelity.sh $T $F > $T/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $T/fidelity/logs; cp $W/*.log $T/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -20

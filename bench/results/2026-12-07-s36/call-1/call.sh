# Session 36, call 1 (run with B=520): one call of about 540 s for the case where only one machine comes (HEAD in .dev/bin/fusec, src/ and
# runtime/ as 5a20d4a; 0f8e402 in .dev/base/fusec). The parts of session 35's two ready calls that no GPU has run:
# (1) the float // and % rows of bench/opcost_fused.py (f32, f16, the harness's data), for src/ops.c's
# FLOORDIV_FAST_T_S32; (2) bench/fusion_bench.py on session 34's two tensor-// chains and bench/chains/floordiv_f32
# at 2^20, 2^24, 2^28, cold, three passes, 0f8e402 as fused@base, beside eager and Inductor, with ulps; (3)
# tests/torch/gpu_check.py --only-capi on programs 0-249 of tests/randgen.py --seed 2026 against eager;
# (4) bench/opcost_fused.py --dependent (each op's latency in the fused kernel at 4096 elements) with the time
# left. Carry .dev. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s36out; rm -rf $T; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
left() { echo $((${B:-540} - $(date +%s) + t0)); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
D=bench/results/2026-12-06-s34/ready/floordiv-t
timeout 110 python3 bench/opcost_fused.py --fusec $F --out $T/oc --ops floordiv_over_t,rem_over_t,floordiv_num,rem_num \
  --types f32,f16 --data harness > $T/oc.txt 2>&1; el "opcost_fused rc=$?"; rm -rf $T/oc/build; tail -n 12 $T/oc.txt
timeout 130 python3 bench/fusion_bench.py --fusec $F --baseline .dev/base/fusec --out $T/fb --sizes 2^20,2^24,2^28 \
  --modes cold --passes 3 --no-cub $D/floordiv_t_f32.fuse $D/floordiv_t_mix.fuse bench/chains/floordiv_f32.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $T/fb/build; sed -n '/^variants/,$p' $T/fb/table.txt | head -40
l=$(left); [ $l -gt 260 ] && l=$((l - 80)); [ $l -gt 60 ] && timeout $l python3 tests/torch/gpu_check.py --fusec $F --out $T/gc --only-capi \
  --random 0 --random-capi 250 --jobs 14 > $T/gpu_check.txt 2>&1
el "gpu_check rc=$?"; tail -n 3 $T/gpu_check.txt
l=$(left); [ $l -gt 30 ] && timeout $l python3 bench/opcost_fused.py --fusec $F --out $T/lat --dependent --terms 16 --reps 15 --data harness \
  --types f32,f64 --ops exp,log1p,tanh,sin,erf,pow,div,floordiv_over_t,floordiv_num,rem_num > $T/lat.txt 2>&1
el "latency rc=$?"; rm -rf $T/lat/build; tail -n 30 $T/lat.txt

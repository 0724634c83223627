# Session 35, ready, not run (HEAD in .dev/bin/fusec, src/ and runtime/ as 5a20d4a): tests/torch/gpu_check.py --only-capi on programs 0-249
# of tests/randgen.py --seed 2026 (bench/device.sh random's 250: shapes, integers, fp8 casts): both versions
# through the C API against the interpreter of PyTorch eager (tests/randgen.py of a74acc2: programs 163, 199
# and 204 differ from earlier runs'); then bench/opcost_fused.py --dependent (each op's latency in the fused
# kernel at 4096 elements: 16 dependent applications against the chain without the op); then session 34's
# ready/wide-large (gelu_bf16's
# two-vector instance, which spills, and the busy chains beside it, 2^25..2^28, variants w1048576 and r8) with
# the time left, all within 560 s (B=seconds for less). Carry .dev. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s35c2out; rm -rf $T; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
timeout 300 python3 tests/torch/gpu_check.py --fusec $F --out $T/gc --only-capi --random 0 --random-capi 250 --jobs 14 > $T/gpu_check.txt 2>&1
el "gpu_check rc=$?"; tail -n 3 $T/gpu_check.txt
timeout 150 python3 bench/opcost_fused.py --fusec $F --out $T/lat --dependent --terms 16 --reps 15 --data harness --types f32,f64 \
  --ops exp,log,log1p,tanh,sin,erf,pow,div,sqrt,sigmoid,floordiv_over_t,floordiv_num,rem_over_t,rem_num > $T/lat.txt 2>&1
el "latency rc=$?"; rm -rf $T/lat/build; cat $T/lat.txt | tail -n 30
C="bench/chains/gelu_bf16.fuse bench/chains/mish_f32.fuse bench/chains/gelu_f64.fuse examples/quantize_i8.fuse bench/chains/trig_f32.fuse"
left=$((${B:-560} - $(date +%s) + t0)); [ $left -gt 90 ] && timeout $left python3 bench/fusion_bench.py --fusec $F --out $T/wide --sizes 2^25,2^26,2^27,2^28 \
  --modes cold --passes 5 --no-cub --variants w1048576,r8 $C > $T/wide.txt 2>&1
el "wide rc=$?"; rm -rf $T/wide/build; sed -n '/^variants/,$p' $T/wide/table.txt 2>/dev/null | head -30

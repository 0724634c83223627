# Session 4, call 5 (run 17): main at 6068c14, the final code. torch_check (three processes) and
# 250 random programs against the reference (bench/device.sh random), then the same 250 through their
# C API against eager (gpu_check --only-capi --random-capi 250), then the quantize examples timed;
# fuzz_cli on two cores throughout (its corpus by an absolute path).
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_final
export PATH=/usr/local/cuda/bin:$PATH; R=$PWD
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/tc1 $OUT/tc2 $OUT/tc3 $OUT/rnd $OUT/g $OUT/fb $OUT/fz
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
Z=/tmp/fz/fuzz_cli; mkdir -p $Z/corpus; cp tests/fuzz/corpus_cli/* $Z/corpus/
( cd $Z && timeout 560 $R/.dev/fuzz/fuzz_cli -max_len=4096 -max_total_time=540 -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 -print_final_stats=1 -dict=$R/tests/fuzz/cli.dict -artifact_prefix=$OUT/fz/cli- -jobs=2 -workers=2 -runs=100000000 $Z/corpus > $Z/main.log 2>&1; echo "fuzz_cli rc=$?" > $Z/rc ) &
G1=fp8_all_floats,fp8_corners,fp8,fp8_quantize,fp8_dequantize,float_casts,quantize_i8
G2=operators,mask_combine,bf16_ops,ints,int_corners,int_literals,dequantize_i8
G3=bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d,div_by_number,number_by_tensor
i=1; for g in $G1 $G2 $G3; do
  ( timeout 300 python3 bench/torch_check.py $F $OUT/tc$i --chain $g > $OUT/tc$i/stdout.txt 2>&1; echo "rc=$?" >> $OUT/tc$i/stdout.txt ) &
  i=$((i+1)); done
RANDOM_N=250 timeout 290 bench/device.sh $OUT/rnd $F random > $OUT/rnd/stdout.txt 2>&1; el "random rc=$?"
rem=$(( 480 - ($(date +%s) - t0) ))
timeout $rem python3 tests/torch/gpu_check.py --fusec $F --out $OUT/g --only-capi --random 0 --random-capi 250 --jobs 14 > $OUT/g/stdout.txt 2>&1; el "gpu_check rc=$?"
el "torch_check: $(grep -h 'rc=' $OUT/tc*/stdout.txt | tr '\n' ' ')"
rem=$(( 555 - ($(date +%s) - t0) ))
[ $rem -gt 40 ] && timeout $rem python3 bench/fusion_bench.py examples/quantize_i8.fuse examples/dequantize_i8.fuse examples/fp8_quantize.fuse examples/fp8_dequantize.fuse --fusec $F --sizes 2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --out $OUT/fb > $OUT/fb/stdout.txt 2>&1; el "fusion_bench rc=$?"
rm -rf $OUT/fb/build
wait
n=0; for l in $Z/fuzz-*.log; do x=$(grep -h "stat::number_of_executed_units" $l | awk '{print $2}' | tail -1); n=$((n + ${x:-0})); done
{ cat $Z/rc; echo "fuzz_cli executions: $n"; grep -l "ERROR\|SUMMARY: \|leak" $Z/fuzz-*.log | head -3; tail -3 $Z/fuzz-0.log; } > $OUT/fz/summary.txt
cd $OUT && tar czf s4call5.tgz tc1 tc2 tc3 rnd g fb fz && rm -rf tc1 tc2 tc3 rnd g fb fz
el done

# Session 10, call D: (1) in-context op costs of integer ops (i32, i64) and of f16/bf16 transcendentals
# (bench/opcost_fused.py); (2) fusion_bench fp8_quantize, floordiv_f32, idiv_i32 against eager and Inductor;
# (3) torch_check's fp8 chains; (4) the fidelity harnesses of 100 random programs built, then run while time lasts.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
export TORCHINDUCTOR_CACHE_DIR=/tmp/ind
mkdir -p /tmp/fw $OUT/q $OUT/fr1
( FID_WORK=/tmp/fw PHASE=build ONLY_RANDOM=1 RANDOM_N=100 JOBS=8 bash bench/fidelity.sh $OUT/fb $F > $OUT/fid_build.txt 2>&1; touch /tmp/fw/BUILT ) &
timeout 200 python3 bench/opcost_fused.py --fusec $F --out $OUT/oc --reps 9 --types i32,i64,f16,bf16 \
  --ops floordiv_t,floordiv_n,rem_t,rem_n,mul_t,shl_t,shr_t,pow,exp,sigmoid,log1p,tanh,erf,log > $OUT/oc_stdout.txt 2>&1; el "opcost rc=$?"
rm -rf $OUT/oc/build
timeout 200 python3 bench/fusion_bench.py examples/fp8_quantize.fuse bench/chains/floordiv_f32.fuse bench/chains/idiv_i32.fuse \
  --fusec $F --sizes 2^20,2^24,2^28 --passes 3 --reps 9 --modes cold --out $OUT/q > $OUT/q/stdout.txt 2>&1; el "bench rc=$?"
rm -rf $OUT/q/build
timeout 90 python3 bench/torch_check.py $F $OUT/tc --chain fp8_all_floats,fp8_quantize,fp8_corners,fp8 > $OUT/tc_stdout.txt 2>&1; el "torch_check rc=$?"
while [ ! -e /tmp/fw/BUILT ] && [ $(( $(date +%s) - t0 )) -lt 400 ]; do sleep 5; done; el "fid built"
FID_WORK=/tmp/fw PHASE=run LIMIT=20 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout $(( 530 - ($(date +%s) - t0) )) bash bench/fidelity.sh $OUT/fr1 $F > $OUT/fid_run1.txt 2>&1; el "fid run rc=$?"
# what ran is kept; its harnesses move aside so that the next call runs the rest
for c in $OUT/fr1/fidelity/*.csv; do [ -e "$c" ] && mv /tmp/fw/src/$(basename $c .csv).bin /tmp/fw/done_$(basename $c .csv).bin; done
cd $OUT && tar czf callD.tgz oc q tc fr1 *.txt 2>/dev/null; rm -rf oc q tc fr1 fb; el done

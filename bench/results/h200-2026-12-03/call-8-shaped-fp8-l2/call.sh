# Session 8, call 1: shaped examples against a copy of their own bytes (variants); fp8_quantize with the
# bounded conversion against the build before it; fp8 checks on every float; L2 study: DRAM bytes per kernel
# (ncu) of the seed chain cold and hot at 2^20..2^26, and harness timings at fine sizes.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
export TORCHINDUCTOR_CACHE_DIR=/tmp/ind
mkdir -p /tmp/h $OUT/l2
S="1048576,2097152,4194304,6291456,8388608,12582912,16777216,25165824,33554432,67108864"
( for n in seed swiglu mixed fp8_quantize; do $F -w --name=$n examples/$n.fuse -o /tmp/h/$n.cu && nvcc -O3 -arch=sm_90 /tmp/h/$n.cu -o /tmp/h/$n & done
  $F -w --name=seed_bf16 --dtype=bf16 examples/seed.fuse -o /tmp/h/seed_bf16.cu && nvcc -O3 -arch=sm_90 /tmp/h/seed_bf16.cu -o /tmp/h/seed_bf16 & wait ) > $OUT/l2/build.txt 2>&1 &
LB='s/__launch_bounds__\(FX_THREADS, 1024 \/ FX_THREADS\) (\w+_fused_kernel)/__launch_bounds__(FX_THREADS, 2048 \/ FX_THREADS) \1/'
RB='s/^#define FX_ROW_BLOCKS 65536/#define FX_ROW_BLOCKS 16384/'
timeout 150 python3 bench/shaped_bench.py $OUT/shaped base=$F lb=$F:"$LB" rb=$F:"$RB" > $OUT/shaped_stdout.txt 2>&1; el "shaped rc=$?"
timeout 80 python3 bench/shaped_bench.py $OUT/shaped4 --scale 4 --chains bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d base=$F > $OUT/shaped4_stdout.txt 2>&1; el "shaped4 rc=$?"
rm -f $OUT/shaped*/*.so $OUT/shaped*/*.cu
mkdir -p $OUT/q
timeout 90 python3 bench/fusion_bench.py examples/fp8_quantize.fuse examples/quantize_i8.fuse --fusec $F --baseline $PWD/.dev/bin/fusec_base --sizes 2^20,2^24,2^28 --passes 3 --reps 9 --modes cold --out $OUT/q > $OUT/q/stdout.txt 2>&1; el "q rc=$?"
rm -rf $OUT/q/build
timeout 90 python3 bench/torch_check.py $F $OUT/tc --chain fp8_all_floats,fp8_quantize,fp8_corners,fp8 > $OUT/tc_stdout.txt 2>&1; el "torch_check rc=$?"
wait; el "l2 builds"
for n in seed seed_bf16 swiglu mixed fp8_quantize; do timeout 40 /tmp/h/$n --no-verify --seed 7 --reps 15 --sizes $S --csv $OUT/l2/$n.csv > $OUT/l2/$n.txt 2>&1; done; el "l2 timings"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
for n in 1048576 4194304 8388608 12582912 16777216 33554432 67108864; do
  timeout 25 ncu --csv --page raw --print-units base --cache-control all --clock-control none --metrics $M -k regex:'_k[0-9]+|_fused_kernel' /tmp/h/seed --no-verify --sizes $n --modes cold --reps 1 --warmup 0 > $OUT/l2/ncu_cold_$n.csv 2>/dev/null
  timeout 25 ncu --csv --page raw --print-units base --cache-control none --clock-control none --metrics $M -k regex:'_k[0-9]+|_fused_kernel' /tmp/h/seed --no-verify --sizes $n --modes hot --reps 2 --warmup 2 > $OUT/l2/ncu_hot_$n.csv 2>/dev/null
done; el "l2 ncu"
cd $OUT && tar czf call1.tgz shaped shaped4 q tc l2 *.txt 2>/dev/null; rm -rf shaped shaped4 q tc l2; el done

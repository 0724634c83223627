# Session 24 call 4 (short: the device time left): this session's build with hot_call_us (.dev/bin/fusec)
# on five examples' harnesses, each calibrating hot_call_us (its hot calls of tiny kernels queued behind a
# spin), 2^12, 2^16, 2^20, 2^24, cold, hot, graph, REPS=10, one pass: does the calibration run, what does it
# give, and do the hot rows follow?
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH; F=$PWD/.dev/bin/fusec; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
for c in seed quantize_i8 mixed gelu_tanh softplus_f64; do
  ( $F -w examples/$c.fuse -o $OUT/$c.cu && nvcc -O3 -arch=sm_90 $OUT/$c.cu -o /tmp/$c.bin ) > $OUT/$c.build.txt 2>&1 &
done; wait; echo "built t=$(( $(date +%s) - t0 ))"; rm -f $OUT/*.cu
for c in seed quantize_i8 mixed gelu_tanh softplus_f64; do
  timeout 40 /tmp/$c.bin --no-verify --seed 7 --reps 10 --passes 1 --sizes 4096,65536,1048576,16777216 \
    --csv $OUT/$c.csv > $OUT/$c.txt 2>&1; echo "$c rc=$? t=$(( $(date +%s) - t0 ))"
  grep -h "hot call\|tiny kernels" -A1 $OUT/$c.txt | head -3
done

# Session 25 call 1, short (the device time left: 494 s): this session's build (.dev/bin/fusec) in
# bench/fusion_bench.py beside eager, Inductor and CUB, cold, the flat examples and every bench/chains chain,
# 2^12, 2^16, 2^20, 2^26, three interleaved passes, accuracy in ulps against float64; then, as time allows,
# three examples' harnesses calibrating hot_call_us (2^12, 2^16, 2^20, cold, hot, graph, one pass).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
for c in seed mixed gelu_tanh; do
  ( $F -w examples/$c.fuse -o /tmp/$c.cu && nvcc -O3 -arch=sm_90 /tmp/$c.cu -o /tmp/$c.bin ) > $OUT/$c.build.txt 2>&1 &
done
timeout 140 python3 bench/fusion_bench.py --fusec $F --out $OUT/fb --sizes 2^12,2^16,2^20,2^26 --modes cold --passes 3 \
  $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $OUT/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $OUT/fb/build; tail -n 3 $OUT/fb.txt; wait
for c in seed mixed gelu_tanh; do
  [ $(( $(date +%s) - t0 )) -lt 200 ] || break
  timeout 30 /tmp/$c.bin --no-verify --seed 7 --reps 10 --passes 1 --sizes 4096,65536,1048576 --csv $OUT/$c.csv > $OUT/$c.txt 2>&1
  el "$c rc=$?"; grep -h "hot call" -A1 $OUT/$c.txt | head -3
done

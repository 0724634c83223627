# Session 25 call 1, tiny (299 s of device time left): this session's build (.dev/bin/fusec) in
# bench/fusion_bench.py beside eager, Inductor and CUB, cold, the flat examples and every bench/chains
# chain at 2^20 and 2^26, three interleaved passes, accuracy in ulps against float64.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
timeout 130 python3 bench/fusion_bench.py --fusec $F --out $OUT/fb --sizes 2^20,2^26 --modes cold --passes 3 \
  $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $OUT/fb.txt 2>&1
echo "fusion_bench rc=$?"; rm -rf $OUT/fb/build; tail -n 3 $OUT/fb.txt

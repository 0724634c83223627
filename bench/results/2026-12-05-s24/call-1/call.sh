# Session 24 call 1: the final build of session 23 (8911c5f, .dev/bin/fusec) against eager, Inductor and CUB,
# cold, the flat examples and every bench/chains chain, 2^12, 2^16, 2^20, 2^26, three passes; each kernel of
# eager and of fusec's unfused version at 2^24 (torch.profiler); accuracy in ulps against float64.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1; F=$PWD/.dev/bin/fusec
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
timeout 560 python3 bench/fusion_bench.py --fusec $F --out $OUT/fb --sizes 2^12,2^16,2^20,2^26 --modes cold --passes 3 \
  --kernels 16777216 $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $OUT/fb.txt 2>&1
echo rc=$?; rm -rf $OUT/fb/build; tail -n 5 $OUT/fb.txt
# then the 1-byte-array examples with the x2 variant (two vectors a thread for every array: E=16 for a byte
# array) beside the emitted kernel, 2^24 and 2^26: does the copy ceiling move for fp8/int8/bool arrays?
timeout 200 python3 bench/fusion_bench.py --fusec $F --out $OUT/x2 --sizes 2^24,2^26 --modes cold --passes 3 --no-cub \
  --variants x2 examples/fp8_quantize.fuse examples/quantize_i8.fuse examples/dequantize_i8.fuse \
  examples/fp8_dequantize.fuse examples/mask_combine.fuse > $OUT/x2.txt 2>&1
echo rc=$?; rm -rf $OUT/x2/build; tail -n 5 $OUT/x2.txt

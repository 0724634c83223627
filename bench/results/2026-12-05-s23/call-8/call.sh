# Session 23 call 8 (H100, right after call 7 on the same machine): call 7 with --no-cub (no CUB library
# loaded at all), to see whether the loaded CUB library is what slows the fused column at small n.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1; F=$PWD/.dev/bin/fusec_s23
timeout 100 python3 bench/fusion_bench.py --fusec $F --baseline $F --no-cub --out $OUT/fb --sizes 2^12,2^16 --modes cold \
  --passes 3 examples/seed.fuse examples/quantize_i8.fuse examples/two_out.fuse examples/gelu_tanh.fuse \
  bench/chains/pow_f16.fuse examples/dequantize_i8.fuse > $OUT/fb.txt 2>&1; echo "fb rc=$?"; rm -rf $OUT/fb/build

# Session 23 call 5 (H200, right after call 4 on the same machine): this session's build against eager and
# Inductor, each chain's library built without FUSEC_CUB (call 4: CUB compiled in slows the fused kernel
# 0-8% at 2^12), session 21's build as fused@base, cold, 2^12 and 2^26.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1; F=$PWD/.dev/bin/fusec_cur
timeout 200 python3 bench/fusion_bench.py --fusec $F --baseline $PWD/.dev/bin/fusec --no-cub --out $OUT/fb --sizes 2^12,2^26 \
  --modes cold --passes 2 $(grep -L "\[" examples/*.fuse) bench/chains/trig_f32.fuse bench/chains/lse_f64.fuse \
  bench/chains/gelu_f64.fuse bench/chains/mish_f32.fuse bench/chains/pow_f16.fuse bench/chains/gelu_bf16.fuse > $OUT/fb.txt 2>&1
echo rc=$?; rm -rf $OUT/fb/build; nvidia-smi --query-gpu=name,clocks.sm --format=csv >> $OUT/fb.txt

# Session 34, ready, not run (build 4312152, HEAD; session 33's ready/wide-large): a busy fused kernel's two vectors a thread at large n, where
# gelu_bf16's two-vector instance (E = 16) spills 12 bytes under its 32-register cap (ptxas -v; the only
# fused instance of the examples and bench/chains that spills). bench/fusion_bench.py on gelu_bf16 and the
# busy chains beside it at 2^25..2^28, cold, five passes, beside Inductor and eager, with the variants
# w1048576 (one vector a thread at every n here) and r8 (ptxas asked for 8 blocks an SM, 64 registers, every
# instance). Carry .dev (.dev/bin/fusec). Back as one wide.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s34c4wide; rm -rf $T; mkdir -p $T; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/wide.tgz .; }; trap save EXIT
C="bench/chains/gelu_bf16.fuse bench/chains/mish_f32.fuse bench/chains/gelu_f64.fuse examples/quantize_i8.fuse bench/chains/trig_f32.fuse"
timeout 240 python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2^25,2^26,2^27,2^28 \
  --modes cold --passes 5 --no-cub --variants w1048576,r8 $C > $T/fb.txt 2>&1
echo "t=$(( $(date +%s) - t0 )) fusion_bench rc=$?" | tee $T/times.txt; rm -rf $T/fb/build; tail -n 4 $T/fb.txt

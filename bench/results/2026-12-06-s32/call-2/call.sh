# Session 32 call 2 (build 40e8790): where a compute-heavy ("wide") fused kernel should move two vectors a
# thread. bench/fusion_bench.py on the nine wide chains (bench/chains floordiv_f32, gelu_bf16, gelu_f64, lse_f64,
# mish_f32, sigtanh_f64, trig_f32; examples quantize_i8, softplus_f64) at 2^21..2^24 in steps of 1.5x and 4/3x,
# cold, five passes, beside Inductor and eager, with the variants w8192, w16384 and w32768 (FX_WIDE_BLOCKS: one
# vector a thread below that many blocks of the two-vector grid, 4096 as emitted). Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s32c1waves; rm -rf $T; mkdir -p $T; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
C="bench/chains/floordiv_f32.fuse bench/chains/gelu_bf16.fuse bench/chains/gelu_f64.fuse bench/chains/lse_f64.fuse bench/chains/mish_f32.fuse bench/chains/sigtanh_f64.fuse bench/chains/trig_f32.fuse examples/quantize_i8.fuse examples/softplus_f64.fuse"
timeout 420 python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2097152,3145728,4194304,6291456,8388608,12582912,16777216 \
  --modes cold --passes 5 --no-cub --variants w8192,w16384,w32768 $C > $T/fb.txt 2>&1
echo "t=$(( $(date +%s) - t0 )) fusion_bench rc=$?" | tee $T/times.txt; rm -rf $T/fb/build; tail -n 4 $T/fb.txt

# Session 34 call 2: one element a thread at tiny grids for busy fused kernels (issue slots at least half their
# bytes' time, the two-vector kernels), not only for compute-heavy ones (at least their bytes' time). The probe
# build (.dev/probe/fusec: 4312152 with `*tiny = heavy >= 0.5` in src/emit_cuda.c's fused_shape) against HEAD's
# (.dev/bin/fusec, "fused@base"), bench/fusion_bench.py, cold, five passes, 2^12..2^18, beside eager and
# Inductor: the four busy chains whose kernel changes (floordiv_light and mish_golden, copies of golden
# scalar_cse's and golden mish's kind with a torch line, here; examples/quantize_i8, bench/chains/gelu_f64)
# and two whose code is the same in both builds (seed, floordiv_f32: the two libraries' noise). Carry .dev.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
T=/tmp/s34c2tiny; rm -rf $T; mkdir -p $T; t0=$(date +%s); D=bench/results/2026-12-06-s34/call-2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/tiny.tgz .; }; trap save EXIT
timeout 150 python3 bench/fusion_bench.py --fusec .dev/probe/fusec --baseline .dev/bin/fusec --out $T/fb \
  --sizes 2^12,2^13,2^14,2^15,2^16,2^17,2^18 --modes cold --passes 5 --no-cub \
  $D/floordiv_light.fuse $D/mish_golden.fuse examples/quantize_i8.fuse bench/chains/gelu_f64.fuse examples/seed.fuse bench/chains/floordiv_f32.fuse > $T/fb.txt 2>&1
echo "t=$(( $(date +%s) - t0 )) fusion_bench rc=$?" | tee $T/times.txt; rm -rf $T/fb/build; sed -n '/^variants/,$p' $T/fb/table.txt | head -50

# Session 26 call 1 (session 25's prepared call 1, unchanged): this session's build (.dev/bin/fusec: session 24's kernels, the model with nvcc's folds).
# (1) bench/fusion_bench.py: the flat examples and every bench/chains chain against eager, Inductor and CUB,
# cold, 2^12, 2^16, 2^20, 2^26, three interleaved passes, accuracy in ulps against float64; (2) the fidelity
# run of the 14 examples, 2^12..2^28, REPS=10, --passes 2, each harness calibrating hot_call_us for the first
# time; (3) bench/device.sh kernels: Nsight Compute's DRAM bytes of the examples' kernels that run 7 of
# 2026-12-01 did not cover, at 2^28; (4) as time allows, launch-shape variants of six chains.
# Session 26 added (after (2)): probe-rows/probe.sh, the shaped programs with rows of 33 at 32/33/256/257.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; W=$PWD/build-c1; R=$W/out; mkdir -p $R; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
EX="bias_gelu dequantize_i8 fp8_dequantize fp8_quantize gelu_tanh layernorm_affine mask_combine mixed quantize_i8 rmsnorm_scale seed softplus_f64 swiglu two_out "
( ONLY="$EX" RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=6 bash bench/fidelity.sh $R $F > $OUT/fid_build.txt 2>&1 ) &
( PROBE_PHASE=build bash bench/results/2026-12-06-s26/probe-rows/probe.sh > $OUT/probe_build.txt 2>&1 ) &
timeout 150 python3 bench/fusion_bench.py --fusec $F --out $OUT/fb --sizes 2^12,2^16,2^20,2^26 --modes cold --passes 3 \
  $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $OUT/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $OUT/fb/build; tail -n 3 $OUT/fb.txt; wait; el "fidelity built $(ls $W/src/*.bin | wc -l)"
ONLY="$EX" RESUME=1 RANDOM_N=0 REPS=10 LIMIT=60 PHASE=run FID_WORK=$W timeout $((250 - $(date +%s) + t0)) bash bench/fidelity.sh $R $F > $OUT/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $R/fidelity/logs; cp $W/*.log $R/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $R/fidelity > $OUT/fidelity.txt; tar -C $R -czf $OUT/fidelity.tgz fidelity
grep -h "hot call" $W/*.log | head -14
PROBE_PHASE=run timeout $((340 - $(date +%s) + t0)) bash bench/results/2026-12-06-s26/probe-rows/probe.sh > $OUT/probe.txt 2>&1
el "probe rc=$?"; cat $OUT/probe.txt
KERNELS="quantize_i8 fp8_quantize mask_combine bias_gelu dequantize_i8 fp8_dequantize layernorm_affine rmsnorm_scale" PHASE_LIMIT=60 \
  timeout $((400 - $(date +%s) + t0)) bash bench/device.sh $OUT $F kernels > $OUT/kernels.txt 2>&1; el "kernels rc=$?"
# launch-shape variants of the chains that lost to Inductor in session 24 (fusion_bench.py --variants):
# e8 one vector a thread of 16-bit arrays, e2 / e4 one vector of f64 / f32, s4096 half the elements below
# 4096 blocks
left=$((460 - $(date +%s) + t0)); [ $left -gt 30 ] && timeout $left python3 bench/fusion_bench.py --fusec $F --out $OUT/va \
  --sizes 2^20,2^26 --modes cold --passes 3 --no-cub --variants e8,e2,e4,s4096 bench/chains/pow_f16.fuse \
  bench/chains/lse_f64.fuse bench/chains/floordiv_f32.fuse examples/softplus_f64.fuse > $OUT/va.txt 2>&1
el "variants rc=$?"; rm -rf $OUT/va/build; sed -n '/^ALL/,/^median/p' $OUT/fidelity.txt

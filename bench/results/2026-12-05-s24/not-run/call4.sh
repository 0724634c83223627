# Session 24 call 4: this session's build with hot_call_us (c576f75, .dev/bin/fusec). (1) the fidelity run of
# the 14 examples, 2^12..2^28, REPS=10, --passes 2: each harness calibrates hot_call_us (its hot calls of
# tiny kernels queued behind a spin); (2) bench/device.sh kernels: each kernel of the examples that run 7 of
# 2026-12-01 did not cover, at 2^28 under Nsight Compute (DRAM bytes against the model's), as time allows.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; W=$PWD/build-c4; R=$W/out; mkdir -p $R; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
ONLY="bias_gelu dequantize_i8 fp8_dequantize fp8_quantize gelu_tanh layernorm_affine mask_combine mixed quantize_i8 rmsnorm_scale seed softplus_f64 swiglu two_out " RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=16 bash bench/fidelity.sh $R $F > $OUT/fid_build.txt 2>&1
el "built $(ls $W/src/*.bin | wc -l)"
ONLY="bias_gelu dequantize_i8 fp8_dequantize fp8_quantize gelu_tanh layernorm_affine mask_combine mixed quantize_i8 rmsnorm_scale seed softplus_f64 swiglu two_out " RESUME=1 RANDOM_N=0 REPS=10 LIMIT=60 PHASE=run FID_WORK=$W timeout $((100 - $(date +%s) + t0)) bash bench/fidelity.sh $R $F > $OUT/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $R/fidelity/logs; cp $W/*.log $R/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $R/fidelity > $OUT/fidelity.txt; tar -C $R -czf $OUT/fidelity.tgz fidelity
grep -h "hot call" $W/*.log | head -14
KERNELS="quantize_i8 fp8_quantize mask_combine bias_gelu dequantize_i8 fp8_dequantize layernorm_affine rmsnorm_scale" PHASE_LIMIT=60 \
  timeout $((140 - $(date +%s) + t0)) bash bench/device.sh $OUT $F kernels > $OUT/kernels.txt 2>&1; el "kernels rc=$?"
sed -n '/^ALL/,/^median/p' $OUT/fidelity.txt

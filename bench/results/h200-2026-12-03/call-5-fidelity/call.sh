# Session 7, call 5: the fidelity table on the final model (in-context op costs, f64 bounds), examples,
# bench chains and three golden chains; opcost_fused on the final f64 fused kernels.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvcc -O3 -arch=sm_90 bench/probe_chain.cu -o /tmp/probe_chain && timeout 60 /tmp/probe_chain > $OUT/probe_chain.txt 2>&1; el "probe rc=$?"
timeout 70 python3 bench/opcost_fused.py --fusec $F --out $OUT/oc --ops exp,log1p,erf,gelu,tanh,sigmoid --types f64 > $OUT/oc.txt 2>&1; el "oc8 rc=$?"
timeout 45 python3 bench/opcost_fused.py --fusec $F --out $OUT/oc16 --terms 16 --ops exp,gelu --types f64 > $OUT/oc16.txt 2>&1; el "oc16 rc=$?"
rm -rf $OUT/oc $OUT/oc16
ONLY="seed swiglu gelu_tanh mixed softplus_f64 mask_combine fp8_quantize golden_mish bench_trig_f32 bench_mish_f32 bench_gelu_bf16 bench_pow_f16 bench_lse_f64 bench_gelu_f64 bench_sigtanh_f64" \
EXTRA="bench/chains/*.fuse" RANDOM_N=0 LIMIT=20 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout 300 bash bench/fidelity.sh $OUT $F > $OUT/fid_stdout.txt 2>&1; el "fidelity rc=$?"
el done

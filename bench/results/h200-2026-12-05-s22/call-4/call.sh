# Session 22 call 4: two vectors a thread in a busy fused kernel again (.dev/bin/fusec_rev: session 20's
# rule restored on this session's build) against session 21's one vector (.dev/bin/fusec, fused@base), on
# the H200, cold, 2^26 (at 2^20 both run one vector: under 4096 blocks): every busy chain of session 21's H100 variant test, the busy bench chains,
# and the shaped bias_gelu (call 2 found two vectors 4-8% faster on four of them, one 2% on pow_f16).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec_rev; B=$PWD/.dev/bin/fusec; R=/tmp/s22c4; rm -rf $R; mkdir -p $R; C=bench/results/h200-2026-12-05-s19/not-run/chains
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
timeout 200 python3 bench/fusion_bench.py --fusec $F --baseline $B --out $R/fb --sizes 2^26 --modes cold \
  --passes 3 --reps 10 $C/sig_f16.fuse $C/xsig_f16.fuse $C/silu_bf16.fuse $C/tanh_bf16.fuse $C/spsq_f16.fuse \
  bench/chains/pow_f16.fuse bench/chains/gelu_bf16.fuse bench/chains/mish_f32.fuse examples/quantize_i8.fuse \
  bench/chains/gelu_f64.fuse bench/chains/lse_f64.fuse bench/chains/sigtanh_f64.fuse bench/chains/trig_f32.fuse \
  examples/gelu_tanh.fuse examples/softplus_f64.fuse > $R/fb.txt 2>&1; el "fusion_bench rc=$?"; save
timeout 40 python3 bench/fusion_bench.py --fusec $F --out $R/k --sizes 2^26 --modes cold --passes 1 --kernels 2^26 \
  bench/chains/sigtanh_f64.fuse > $R/k.txt 2>&1; el "kernels rc=$?"; save
timeout 60 python3 bench/shaped_bench.py $R/sh two=$F one=$B --chains bias_gelu > $R/sh.txt 2>&1; el "shaped rc=$?"; save
sed -n '/^variants/,/^$/p' $R/fb/table.txt; grep "^worst" $R/fb.txt; grep "bias_gelu" $R/sh/shaped.txt; grep -A8 "each kernel" $R/k.txt

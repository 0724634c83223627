# Session 22 call 4: two vectors a thread in a busy fused kernel again (.dev/bin/fusec_rev: session 20's
# rule restored on this session's build) against session 21's one vector (.dev/bin/fusec, fused@base), on
# the H200, cold, 2^26 (at 2^20 both run one vector: under 4096 blocks): the f16 and bf16 busy chains that
# session 21's H100 ran faster with one vector, and quantize_i8 and gelu_f64 (faster with two in call 2).
# Then this session's last build (.dev/bin/fusec_rn: + - * each rounded, no fma) on three chains, for its
# accuracy against eager's (softplus_f64's fused result was 2 ulps off eager's with nvcc's fma).
# Cut to fit the session's last device time.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec_rev; B=$PWD/.dev/bin/fusec; R=/tmp/s22c4; rm -rf $R; mkdir -p $R; C=bench/results/h200-2026-12-05-s19/not-run/chains
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
timeout ${FB:-150} python3 bench/fusion_bench.py --fusec $F --baseline $B --out $R/fb --sizes 2^26 --modes cold \
  --passes 2 --reps 10 $C/sig_f16.fuse $C/xsig_f16.fuse $C/silu_bf16.fuse $C/tanh_bf16.fuse $C/spsq_f16.fuse \
  bench/chains/pow_f16.fuse bench/chains/gelu_bf16.fuse examples/quantize_i8.fuse bench/chains/gelu_f64.fuse \
  > $R/fb.txt 2>&1; el "fusion_bench rc=$?"; save
timeout 50 python3 bench/fusion_bench.py --fusec $PWD/.dev/bin/fusec_rn --out $R/rn --sizes 2^20 --modes cold \
  --passes 1 --reps 5 examples/softplus_f64.fuse examples/two_out.fuse bench/chains/affine_f32.fuse > $R/rn.txt 2>&1
el "rn rc=$?"; save
sed -n '/^variants/,/^$/p' $R/fb/table.txt; grep "^worst" $R/fb.txt; grep -A8 "^accuracy" $R/rn/table.txt

# Session 19 call 3 (call 2 died with the machine): one vector against two in the fused kernel
# (fusion_bench --variants w1000000000: always one vector a thread), f16/bf16 chains whose issue slots take
# 0.58-2.02 of their bytes' time, and gelu_bf16 and mish_f32 (1.19, 1.24), at 2^26, cold.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R
save() { tar czf $OUT/results.tgz --exclude=build -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
timeout 200 python3 bench/fusion_bench.py --fusec $F --out $R/var --sizes 2^26 --modes cold --passes 3 --reps 10 --variants w1000000000 $(for c in sig_f16 xsig_f16 silu_bf16 pow_f16 quantize_i8 tanh_bf16 spsq_f16 gelu_bf16 mish_f32; do echo .dev/s19/chains/$c.fuse; done) > $R/var.txt 2>&1; el "variants rc=$?"; save
grep -A14 "^variants" $R/var.txt | head -16; grep -B1 -A12 "^chain " $R/var.txt | head -14

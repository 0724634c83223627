# Session 20, for the next GPU session (session 21 put the op costs first and widened them): (1)
# bench/opcost_fused.py, every row with session 20's kernels (one chunk a thread, no loop), the rows by a
# literal zero (src/ops.c prices them from the PTX/SASS) and fmod's % and // on random data; (2) one vector
# a thread against two in the fused kernel (fusion_bench --variants w1000000000: always one vector) on
# chains whose issue slots take 0.58-2.02 of their bytes' time (session 19's call 3, never run), at 2^26,
# cold; (3) each unfused kernel against eager's (--kernels 2^26: f16 sigmoid was 0.956 with the grid-stride
# loop) on bench/chains and f16 sigmoid.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; R=/tmp/r; mkdir -p $R; C=bench/results/h200-2026-12-05-s19/not-run/chains
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
timeout 240 python3 bench/opcost_fused.py --fusec $F --out $R/oc --types f32,f64,i32,i64 \
  > $R/oc.txt 2>&1; el "opcost rc=$?"; save
timeout 200 python3 bench/fusion_bench.py --fusec $F --out $R/var --sizes 2^26 --modes cold --passes 3 --reps 10 \
  --variants w1000000000 $C/sig_f16.fuse $C/xsig_f16.fuse $C/silu_bf16.fuse $C/tanh_bf16.fuse $C/spsq_f16.fuse \
  bench/chains/pow_f16.fuse bench/chains/gelu_bf16.fuse bench/chains/mish_f32.fuse examples/quantize_i8.fuse \
  > $R/var.txt 2>&1; el "variants rc=$?"; save
timeout $(( 575 - ($(date +%s) - t0) )) python3 bench/fusion_bench.py --fusec $F --out $R/k --sizes 2^26 \
  --modes cold --passes 1 --kernels 2^26 $C/sig_f16.fuse bench/chains/*.fuse > $R/k.txt 2>&1; el "kernels rc=$?"; save
cat $R/oc.txt | tail -80; grep -A14 "^variants" $R/var.txt | head -16; tail -20 $R/k.txt

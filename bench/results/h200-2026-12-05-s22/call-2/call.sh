# Session 22 call 2 (call 1's fusion_bench stopped at the first shaped example: fusion_bench.py takes flat
# chains): (1) this build beside eager, Inductor, CUB and session 20's fused kernel (fused@base), cold,
# 2^12 and 2^26, the flat examples and five bench/chains; (2) the shaped examples against eager, Inductor
# and the copy of their bytes (shaped_bench.py), this build and session 20's.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; B=$PWD/.dev/bin/fusec_s20; R=/tmp/r2; mkdir -p $R
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
timeout 230 python3 bench/fusion_bench.py --fusec $F --baseline $B --out $R/fb --sizes 2^12,2^26 --modes cold \
  --passes 2 $(grep -L "\[" examples/*.fuse) bench/chains/trig_f32.fuse bench/chains/lse_f64.fuse \
  bench/chains/gelu_f64.fuse bench/chains/mish_f32.fuse bench/chains/pow_f16.fuse > $R/fb.txt 2>&1; el "fusion_bench rc=$?"; save
timeout 100 python3 bench/shaped_bench.py $R/sh new=$F s20=$B --chains bias_gelu,layernorm_affine,rmsnorm_scale \
  --inductor > $R/sh.txt 2>&1; el "shaped rc=$?"; save
grep -B2 -A22 "^cold, GPU" $R/fb/table.txt | head -40; grep -A12 "^worst\|^accuracy" $R/fb.txt | head -30; cat $R/sh/shaped.txt | head -40

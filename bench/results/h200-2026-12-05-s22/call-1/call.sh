# Session 22 call 1: (1) fmod's % and // (and the transcendentals whose code branches on |x|) priced on the
# values the harness times with (opcost_fused.py --data harness) beside uniform ones, in one run; (2) the
# unfused f64 kernels at 2 elements a thread (.dev/bin/fusec_e2: this build with the heavy64 rule off)
# against this build's 4 for busy ops, each kernel against eager's (CUPTI); (3) session 21's prepared call
# 2 (this build beside eager, Inductor, CUB and session 20's build; the fidelity of the examples' harnesses).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; R=/tmp/r; mkdir -p $R
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results1.tgz --exclude=build --exclude='*.so' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
OPS=rem_over_t,rem_num,floordiv_over_t,floordiv_num,erf,tanh,log1p,sin,exp,pow
for d in harness uniform; do
  timeout 80 python3 bench/opcost_fused.py --fusec $F --out $R/oc_$d --data $d --ops $OPS --types f32,f64 \
    > $R/oc_$d.txt 2>&1; el "opcost $d rc=$?"; done; save
for b in fusec fusec_e2; do
  timeout 70 python3 bench/fusion_bench.py --fusec $PWD/.dev/bin/$b --out $R/k_$b --sizes 2^26 --modes cold --passes 1 \
    --kernels 2^26 bench/chains/gelu_f64.fuse bench/chains/lse_f64.fuse bench/chains/sigtanh_f64.fuse \
    examples/softplus_f64.fuse > $R/k_$b.txt 2>&1; el "kernels $b rc=$?"; done; save
paste -d, $R/oc_harness/opcost_fused.csv $R/oc_uniform/opcost_fused.csv
grep -h "each kernel" -A8 $R/k_fusec.txt $R/k_fusec_e2.txt | grep -v "^--" | cut -c1-20,64-140
left=$(( 585 - ($(date +%s) - t0) ))
OUT=$OUT FB=$(( left * 2 / 5 )) END=$(( left - 15 )) bash bench/results/h200-2026-12-05-s21/call-2/call.sh

# Session 7, call 4: every transcendental builtin's issue slots inside fusec's fused kernel (bench/opcost_fused.py), f32 and f64.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
timeout 400 python3 bench/opcost_fused.py --fusec $PWD/.dev/bin/fusec --out $OUT/oc --profile-out $OUT/h200-op-slots.json > $OUT/stdout.txt 2>&1; el "opcost_fused rc=$?"
timeout 120 python3 bench/opcost_fused.py --fusec $PWD/.dev/bin/fusec --out $OUT/oc16 --terms 16 --ops exp,log1p,erf,sin,tanh,gelu,pow --types f32,f64 > $OUT/stdout16.txt 2>&1; el "terms16 rc=$?"
cp $OUT/oc/opcost_fused.csv $OUT/opcost_fused.csv; cp $OUT/oc16/opcost_fused.csv $OUT/opcost_fused16.csv; rm -rf $OUT/oc $OUT/oc16
el done

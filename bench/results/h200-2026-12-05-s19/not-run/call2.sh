# Session 19 call 2: one vector against two in the fused kernel (fusion_bench --variants w1000000000: always
# one vector a thread) on chains whose issue slots take 0.58-2.03 of their bytes' time; the fidelity table of
# randgen.py --seed 4242 programs 0-99 (build in the background meanwhile).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' --exclude=fidelity -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
(ONLY_RANDOM=1 RANDOM_N=100 PHASE=build FID_WORK=/tmp/fw JOBS=12 bash bench/fidelity.sh $R $F > $R/fid_build.txt 2>&1; echo done > /tmp/fw_done) &
timeout 270 python3 bench/fusion_bench.py --fusec $F --out $R/var --sizes 2^24,2^26 --modes cold --passes 3 --reps 10 --variants w1000000000 $(for c in sig_f16 xsig_f16 silu_bf16 pow_f16 quantize_i8 tanh_bf16 sig_f64 gelu_bf16 spsq_f16 mish_f32 trig_f32 lse_f64; do echo .dev/s19/chains/$c.fuse; done) > $R/var.txt 2>&1; el "variants rc=$?"; save
grep -B2 -A20 "^variants" $R/var.txt | head -50
while [ ! -f /tmp/fw_done ]; do sleep 2; done; el "fidelity built: $(ls /tmp/fw/src/*.bin | wc -l)"
SIZES=4096,65536,1048576,16777216,268435456 REPS=10 ONLY_RANDOM=1 RANDOM_N=100 PHASE=run FID_WORK=/tmp/fw LIMIT=20 timeout $(( ${T:-575} - ($(date +%s) - t0) )) bash bench/fidelity.sh $R $F > $R/fid_run.txt 2>&1; el "fidelity rc=$?"
if [ ! -f $R/fidelity.tgz ] && [ -d $R/fidelity ]; then mkdir -p $R/fidelity/logs; cp /tmp/fw/*.log $R/fidelity/logs/; python3 bench/fidelity.py $R/fidelity > $R/fidelity.txt 2>&1; tar -C $R -czf $R/fidelity.tgz fidelity; fi
save; tail -16 $R/fidelity.txt 2>/dev/null

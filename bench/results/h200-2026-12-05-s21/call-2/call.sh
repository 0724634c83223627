# Session 21 call 2: this session's build (one vector a thread in every fused kernel; the op costs of call 1)
# (1) fusion_bench.py beside eager, torch.compile and CUB, with session 20's fused kernel (two vectors a
# thread on heavy chains) as fused@base, cold, at 2^12 and 2^26, on the examples and five bench/chains; (2)
# the fidelity of the examples' and seven other chains' harnesses (cold, hot, graph) with this model.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; B=$PWD/.dev/bin/fusec_s20; R=/tmp/r; mkdir -p $R
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
ONLY="$(ls examples/*.fuse | xargs -n1 basename | sed 's/.fuse$//' | tr '\n' ' ') golden_operators golden_div_zero golden_seed bench_trig_f32 bench_lse_f64 bench_floordiv_f32 bench_sigtanh_f64"
[ "${FID:-1}" = 1 ] && (EXTRA="$(ls bench/chains/*.fuse | tr '\n' ' ')" ONLY="$ONLY" RANDOM_N=0 PHASE=build FID_WORK=/tmp/fw \
  JOBS=8 bash bench/fidelity.sh $R $F > $R/fid_build.txt 2>&1; echo done > /tmp/fw_done) &
timeout ${FB:-250} python3 bench/fusion_bench.py --fusec $F --baseline $B --out $R/fb --sizes 2^12,2^26 --modes cold \
  --passes 2 examples/*.fuse bench/chains/trig_f32.fuse bench/chains/lse_f64.fuse bench/chains/gelu_f64.fuse \
  bench/chains/mish_f32.fuse bench/chains/pow_f16.fuse > $R/fb.txt 2>&1; el "fusion_bench rc=$?"; save
while [ "${FID:-1}" = 1 ] && [ ! -f /tmp/fw_done ]; do sleep 2; done; el "fidelity built: $(ls /tmp/fw/src/*.bin 2>/dev/null | wc -l)"
[ "${FID:-1}" = 1 ] && \
SIZES=4096,65536,1048576,4194304,16777216,268435456 REPS=10 RANDOM_N=0 PHASE=run FID_WORK=/tmp/fw LIMIT=30 \
  timeout $(( ${END:-470} - ($(date +%s) - t0) )) bash bench/fidelity.sh $R $F > $R/fid_run.txt 2>&1; el "fidelity rc=$?"
if [ ! -f $R/fidelity.tgz ] && [ -d $R/fidelity ]; then mkdir -p $R/fidelity/logs; cp /tmp/fw/*.log $R/fidelity/logs/; python3 bench/fidelity.py $R/fidelity > $R/fidelity.txt 2>&1; tar -C $R -czf $R/fidelity.tgz fidelity; fi
rm -rf $R/fidelity; save; grep -A30 "^variants" $R/fb.txt | head -45; grep -A12 "^worst\|^accuracy" $R/fb.txt | head -40; tail -42 $R/fidelity.txt 2>/dev/null

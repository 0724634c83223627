# Session 19 call 1: f16 sigmoid / softplus+sqrt kernels and variants (timing + ncu);
# the fidelity table of every example, golden chain and bench/chains chain with the anchored hot line.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
(EXTRA="$(ls bench/chains/*.fuse | tr '\n' ' ')" RANDOM_N=0 PHASE=build FID_WORK=/tmp/fw JOBS=12 bash bench/fidelity.sh $R $F > $R/fid_build.txt 2>&1; echo done > /tmp/fw_done) &
timeout 120 python3 .dev/s19/probe_sig.py $F $R/sig > $R/sig_times.txt 2>&1; el "probe rc=$?"; cat $R/sig_times.txt | tail -20
timeout 90 ncu --kernel-name regex:"sigmoid|softplus|sqrt|sig_|spsq_" --csv --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard python3 .dev/s19/probe_sig.py $F $R/sig_ncu --ncu > $R/sig_ncu.csv 2> $R/sig_ncu.err; el "ncu rc=$?"; save
grep -c '"' $R/sig_ncu.csv
while [ ! -f /tmp/fw_done ]; do sleep 2; done; el "fidelity built: $(ls /tmp/fw/src/*.bin | wc -l)"
SIZES=4096,65536,1048576,16777216,268435456 REPS=10 RANDOM_N=0 PHASE=run FID_WORK=/tmp/fw LIMIT=30 timeout $(( 560 - ($(date +%s) - t0) )) bash bench/fidelity.sh $R $F > $R/fid_run.txt 2>&1; el "fidelity rc=$?"
if [ ! -f $R/fidelity.tgz ] && [ -d $R/fidelity ]; then mkdir -p $R/fidelity/logs; cp /tmp/fw/*.log $R/fidelity/logs/; python3 bench/fidelity.py $R/fidelity > $R/fidelity.txt 2>&1; tar -C $R -czf $R/fidelity.tgz fidelity; fi
rm -rf $R/fidelity; save; tail -30 $R/fidelity.txt 2>/dev/null

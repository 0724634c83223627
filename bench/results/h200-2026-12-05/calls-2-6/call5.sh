# Session 18 call 5 (short): the final integer division on the GPU; the examples' fidelity.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R
save() { tar czf $OUT/results.tgz --exclude=build --exclude=fidelity -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
EX=$(ls examples/*.fuse | xargs -n1 basename | sed 's/.fuse//' | tr '\n' ' ')
(ONLY="$EX" RANDOM_N=0 PHASE=build FID_WORK=/tmp/fw JOBS=10 bash bench/fidelity.sh $R $F > $R/fid_build.txt 2>&1; echo done > /tmp/fw_done) &
nvcc -O3 -arch=sm_90 bench/probe_idiv.cu -o /tmp/probe_idiv && timeout 60 /tmp/probe_idiv > $R/probe_idiv.txt 2>&1; el "probe rc=$?"; cat $R/probe_idiv.txt
timeout 60 python3 bench/opcost_fused.py --fusec $F --out $R/opc_new --ops rem_t,floordiv_t --types i8,i16,i64 --reps 9 > $R/opc_new.txt 2>&1; el "opcost rc=$?"; save
timeout 70 python3 bench/fusion_bench.py --fusec $F --out $R/kern_new --sizes 2^12,2^26 --modes cold --passes 1 --kernels 2^26 .dev/s18/chains/*.fuse > $R/kern_new.txt 2>&1; el "kernels rc=$?"; save
timeout 60 python3 bench/torch_check.py $F $R/tc --chain ints,int_corners > $R/tc_stdout.txt 2>&1; el "torch_check rc=$?"; save
tail -2 $R/tc_stdout.txt; tail -7 $R/opc_new.txt; grep -A14 "^chain " $R/kern_new.txt | head -14
while [ ! -f /tmp/fw_done ]; do sleep 2; done; el "fidelity built: $(ls /tmp/fw/src/*.bin | wc -l)"
SIZES=4096,65536,1048576,16777216,268435456 REPS=10 RANDOM_N=0 PHASE=run FID_WORK=/tmp/fw LIMIT=40 timeout $(( 250 - ($(date +%s) - t0) )) bash bench/fidelity.sh $R $F > $R/fid_run.txt 2>&1; el "fidelity rc=$?"
[ -d $R/fidelity ] && tar -C $R -czf $R/fidelity.tgz fidelity; save; tail -30 $R/fidelity.txt 2>/dev/null

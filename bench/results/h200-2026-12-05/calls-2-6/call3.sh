# Session 18 call 3: the floor division in float for u8/i8/i16 (fx_narrow_floor_divide).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; P=$PWD/.dev/bin/fusec_s17; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R
save() { tar czf $OUT/results.tgz --exclude=build -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
nvcc -O3 -arch=sm_90 bench/probe_idiv.cu -o /tmp/probe_idiv && timeout 60 /tmp/probe_idiv > $R/probe_idiv.txt 2>&1; el "probe rc=$?"; cat $R/probe_idiv.txt; save
for v in new s17; do B=$F; [ $v = s17 ] && B=$P
  timeout 110 python3 bench/opcost_fused.py --fusec $B --out $R/opc_$v --ops rem_t,rem_n,floordiv_t,floordiv_n --types i8,i16,i32,i64 > $R/opc_$v.txt 2>&1; el "opcost $v rc=$?"; save
done
timeout 100 python3 bench/fusion_bench.py --fusec $F --out $R/kern_new --sizes 2^12,2^20,2^26 --modes cold --passes 1 --kernels 2^26 .dev/s18/chains/*.fuse > $R/kern_new.txt 2>&1; el "kernels new rc=$?"; save
timeout 120 python3 bench/torch_check.py $F $R/tc --chain ints,int_corners,int_literals,quantize_i8,dequantize_i8 > $R/tc_stdout.txt 2>&1; el "torch_check rc=$?"; save
tail -2 $R/tc_stdout.txt; tail -22 $R/opc_new.txt; tail -22 $R/opc_s17.txt; grep -A20 "^chain " $R/kern_new.txt | head -22

# Session 16, call 1: the final build of session 15 (aedf393: two-dim offsets, ROW occupancy rule; untimed until now)
# against call 3's build (b0c4110): harness verification of every shaped chain, shaped_bench old/new with Inductor
# at C = 4096 and 4100, Nsight Compute of the two norm epilogues, torch_check of the shaped chains
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec FO=$PWD/.dev/bin/fusec_old; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R/h
save() { tar czf $OUT/results.tgz --exclude='*.so' --exclude='*.cu' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
dims_of() { sed -n '1s/^# fusec-args: //p' "$1" | tr ' ' '\n' | grep -E '^--(dims|sweep)=' | tr '\n' ' '; }
python3 tests/randgen.py --seed 4242 --count 60 --out /tmp/rand > /dev/null
list=$(grep -l '^in .*\[' examples/*.fuse tests/golden/*.fuse /tmp/rand/*.fuse)
for f in $list; do n=$(basename $f .fuse)
  ( $F -w $f -o /tmp/$n.cu && nvcc -O3 -arch=sm_90 /tmp/$n.cu -o /tmp/$n.bin > $R/h/$n.build 2>&1 ) &
  while [ $(jobs -r | wc -l) -ge 16 ]; do sleep 1; done
done; wait; el built
for f in $list; do n=$(basename $f .fuse)
  timeout 60 /tmp/$n.bin --verify-only --seed 3 --sizes 1,5,1000,4099 $(dims_of $f) > $R/h/$n.txt 2>&1; echo "$n rc=$? $(dims_of $f)"
done > $R/verify.txt
for n in bias_gelu layernorm_affine rmsnorm_scale; do for c in 1004 1001; do
  timeout 60 /tmp/$n.bin --verify-only --seed 5 --sizes 1,7,1000 --dims=C=$c > $R/h/${n}_C$c.txt 2>&1; echo "$n rc=$? --dims=C=$c"
done; done >> $R/verify.txt; el "verified: $(grep -c 'rc=0' $R/verify.txt) of $(wc -l < $R/verify.txt)"; save
timeout 200 python3 bench/shaped_bench.py $R/s old=$FO new=$F --inductor > $R/shaped_stdout.txt 2>&1; el "shaped rc=$?"; save
timeout 100 python3 bench/shaped_bench.py $R/s4100 old=$FO new=$F --cols 4100 --chains layernorm_affine,rmsnorm_scale,bcast_f32,bias_gelu > $R/shaped4100_stdout.txt 2>&1; el "shaped4100 rc=$?"; save
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for n in layernorm_affine rmsnorm_scale; do
timeout 70 ncu --profile-from-start off --clock-control none --cache-control all --metrics $M --csv python3 bench/results/h200-2026-12-04/call-3-row-gather/ncu_drv.py $n old=$FO new=$F > $R/ncu_$n.csv 2> /dev/null; el "ncu $n rc=$?"; done; save
timeout 90 python3 bench/torch_check.py $F $R/tc --chain bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d > $R/tc_stdout.txt 2>&1; el "torch_check rc=$?"; save

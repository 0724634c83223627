# Session 15, call 2 (again, as 2b): the shaped fused kernel as a flat kernel with ROW gathers (new) against the row kernel (old):
# harness verification of every shaped example, golden chain and random shaped program; shaped_bench old/new + Inductor; ncu
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec FO=$PWD/.dev/bin/fusec_old; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R/h
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
done > $R/verify.txt; el "verified: $(grep -c 'rc=0' $R/verify.txt) of $(wc -l < $R/verify.txt)"
timeout 240 python3 bench/shaped_bench.py $R/s old=$FO new=$F --inductor > $R/shaped_stdout.txt 2>&1; el "shaped rc=$?"
timeout 100 python3 bench/shaped_bench.py $R/s4100 old=$FO new=$F --cols 4100 --chains layernorm_affine,bcast_f32,bias_gelu > $R/shaped4100_stdout.txt 2>&1; el "shaped4100 rc=$?"
rm -f $R/s/*.so $R/s4100/*.so
tar czf $OUT/results.tgz -C $R .
cp $R/verify.txt $R/s/shaped.txt $OUT/
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_bytes.sum
timeout 150 ncu --profile-from-start off --clock-control none --cache-control all --metrics $M --csv python3 .dev/ncu_drv.py layernorm_affine old=$FO new=$F > $OUT/ncu_layernorm_affine.csv 2> /dev/null; el "ncu rc=$?"

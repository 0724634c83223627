# Session 15, call 3: the final shaped kernel (E/2 ROW for rows a multiple of 4 only): GPU verification of every shaped
# chain (also at C = 1004 and 1001 for the examples), shaped_bench old/new at C = 4096 and 4100, the launch probe
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
done > $R/verify.txt
for n in bias_gelu layernorm_affine rmsnorm_scale; do for c in 1004 1001; do
  timeout 60 /tmp/$n.bin --verify-only --seed 5 --sizes 1,7,1000 --dims=C=$c > $R/h/${n}_C$c.txt 2>&1; echo "$n rc=$? --dims=C=$c"
done; done >> $R/verify.txt; el "verified: $(grep -c 'rc=0' $R/verify.txt) of $(wc -l < $R/verify.txt)"
timeout 200 python3 bench/shaped_bench.py $R/s old=$FO new=$F --inductor > /dev/null 2>&1; el "shaped rc=$?"
timeout 120 python3 bench/shaped_bench.py $R/s4100 old=$FO new=$F --cols 4100 --chains layernorm_affine,rmsnorm_scale,bcast_f32,bias_gelu > /dev/null 2>&1; el "shaped4100 rc=$?"
timeout 150 python3 .dev/probe_launch.py $F > $R/probe_launch.txt 2>&1; el "probe rc=$?"
rm -f $R/s/*.so $R/s4100/*.so $R/s/*.cu $R/s4100/*.cu
tar czf $OUT/results.tgz -C $R .
cp $R/verify.txt $R/s/shaped.txt $R/probe_launch.txt $OUT/; cp $R/s4100/shaped.txt $OUT/shaped4100.txt

# Session 19's final build on the H200 (blocked: the device was paused): each example's and golden
# shape_names' emitted harness (cold, hot, graph; verified first), then fusion_bench.py on the examples
# beside eager and torch.compile in one process (GB/s, % of the copy, fused / Inductor, ulps against
# float64). Run from the repository root with .dev/bin/fusec (the build of the commit) carried.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; R=/tmp/r; mkdir -p $R/h
save() { tar czf $OUT/results.tgz --exclude=build -C $R . ; }
for f in examples/*.fuse tests/golden/shape_names.fuse; do
  b=$R/h/$(basename $f .fuse); a=$(sed -n "1s/^# fusec-args: //p" $f); cp $f $b.fuse
  $F -w $a $f -o $b.cu && nvcc -O3 -arch=sm_90 $b.cu -o $b.bin &
done; wait
for b in $R/h/*.bin; do  # the sizes as bench/fidelity.sh gives them (a shaped chain: its dims)
  args=$(python3 bench/sweep_sizes.py $F ${b%.bin}.fuse 4096,65536,1048576,16777216,268435456)
  timeout 60 $b --seed 7 --reps 15 $args --csv ${b%.bin}.csv > ${b%.bin}.txt 2>&1
  echo "$? $(basename $b)"
done > $R/status.txt; save
timeout 240 python3 bench/fusion_bench.py --fusec $F --out $R/fb --sizes 2^12,2^20,2^26 --modes cold,hot --passes 3 examples/*.fuse > $R/fb.txt 2>&1; save

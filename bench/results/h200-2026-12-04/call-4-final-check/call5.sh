# Session 16, call 5: the harness's gather_gelems timed cold (as a call's first kernel), three shaped chains' harnesses
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; mkdir -p /tmp/b5 $OUT/h
cp examples/layernorm_affine.fuse examples/rmsnorm_scale.fuse /tmp/b5/; cp tests/golden/shape_dead_input.fuse /tmp/b5/golden_shape_dead_input.fuse
for f in /tmp/b5/*.fuse; do ( b=${f%.fuse}; $F -w $(sed -n "1s/^# fusec-args: //p" $f) $f -o $b.cu && nvcc -O3 -arch=sm_90 $b.cu -o $b.bin ) & done; wait
for f in /tmp/b5/*.fuse; do b=${f%.fuse}; n=$(basename $b)
  args=$(python3 bench/sweep_sizes.py $F $f 4096,65536,1048576,16777216,67108864)
  timeout 60 $b.bin --no-verify --seed 7 --reps 9 --modes cold $args --csv $OUT/h/$n.csv > $OUT/h/$n.txt 2>&1; echo "$n rc=$?"
  grep -E "^  gather|^  launch first" $OUT/h/$n.txt; grep -v "^#" $OUT/h/$n.csv | cut -d, -f1,2,4,5,10,11,12,13,14
done

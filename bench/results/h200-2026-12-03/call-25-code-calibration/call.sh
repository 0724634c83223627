# Session 12, call O: the harness's new code-fetch calibration, and the model with it, on three chains, cold and graph, 2^12..2^20.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH
F=$PWD/.dev/bin/fusec; mkdir -p /tmp/o; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
for c in examples/seed.fuse examples/two_out.fuse tests/golden/mish.fuse bench/chains/sigtanh_f64.fuse; do
  n=$(basename $c .fuse); ($F -w --name=$n $c -o /tmp/o/$n.cu && nvcc -O3 -arch=sm_90 /tmp/o/$n.cu -o /tmp/o/$n) &
done; wait
for n in seed two_out mish sigtanh_f64; do timeout 100 /tmp/o/$n --sizes=4096,65536,1048576 --modes cold,graph --reps 9 > $OUT/$n.txt 2>&1; echo "$n rc=$?"; done

# Session 11, call L: what a cold unfused call's kernels take at 4096 elements against the calibration's tiny kernels:
# ncu's per-kernel duration (serialized) for the seed harness; and the harness's own cold rows with 9 reps.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; mkdir -p /tmp/l; cd /tmp/l
$F -w --name=seed $OLDPWD/examples/seed.fuse -o seed.cu && nvcc -O3 -arch=sm_90 seed.cu -o seed
./seed --no-verify --sizes=4096,65536,1048576 --modes cold --reps 15 > $OUT/seed_cold.txt 2>&1
timeout 200 ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread --csv ./seed --no-verify --sizes=4096 --modes cold --reps 1 --warmup 0 > $OUT/seed_ncu.csv 2>&1
echo rc=$?

# Session 12, call P: the final build (09b4988). fusion_bench (fusec's C API beside eager, torch.compile, CUB and a copy,
# one process, cold, ulps against float64) and the emitted harnesses (calibrated model, predicted against measured)
# on eight chains, 2^12..2^24.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
CH="examples/seed.fuse examples/two_out.fuse examples/swiglu.fuse bench/chains/mish_f32.fuse bench/chains/sigtanh_f64.fuse bench/chains/trig_f32.fuse bench/chains/gelu_bf16.fuse bench/chains/three_f16.fuse"
mkdir -p /tmp/p $OUT/harness
for c in $CH; do n=$(basename $c .fuse); ($F -w --name=$n $c -o /tmp/p/$n.cu && nvcc -O3 -arch=sm_90 /tmp/p/$n.cu -o /tmp/p/$n) & done; wait; el built
for c in $CH; do n=$(basename $c .fuse); timeout 60 /tmp/p/$n --sizes=4096,65536,1048576,16777216 --modes cold,graph --reps 9 > $OUT/harness/$n.txt 2>&1; echo "$n rc=$?"; done; el harness
timeout $(( 560 - ($(date +%s) - t0) )) python3 bench/fusion_bench.py --fusec $F --sizes 4096,1048576,16777216 --passes 3 --reps 9 --modes cold --out /tmp/fb $CH > $OUT/fusion_bench.txt 2>&1; el "fusion_bench rc=$?"
cp /tmp/fb/results.csv /tmp/fb/accuracy.csv /tmp/fb/table.txt $OUT/ 2>/dev/null

# Session 13, call Q: SASS of fusec's fused kernels and Inductor's for the f64 / 2^20 losers; a launch-shape variant sweep.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
mkdir -p /tmp/s/sass
SC="bench/chains/lse_f64.fuse examples/softplus_f64.fuse bench/chains/sigtanh_f64.fuse examples/swiglu.fuse bench/chains/trig_f32.fuse bench/chains/mish_f32.fuse"
for c in $SC; do n=$(basename $c .fuse)
  ($F -w --name=$n $c -o /tmp/s/$n.cu && nvcc -cubin -O3 -arch=sm_90 /tmp/s/$n.cu -o /tmp/s/$n.cubin && cuobjdump -sass /tmp/s/$n.cubin > /tmp/s/sass/fusec_$n.sass && cuobjdump -res-usage /tmp/s/$n.cubin > /tmp/s/sass/fusec_$n.res) &
  (TRITON_CACHE_DIR=/tmp/s/tc_$n timeout 120 python3 .dev/sass.py $c 1048576 > /tmp/s/sass/inductor_$n.sass 2>&1) &
done; wait; el sass
tar czf $OUT/sass.tgz -C /tmp/s sass
CH="bench/chains/lse_f64.fuse examples/softplus_f64.fuse bench/chains/sigtanh_f64.fuse examples/swiglu.fuse bench/chains/trig_f32.fuse bench/chains/mish_f32.fuse bench/chains/pow_f16.fuse examples/seed.fuse bench/chains/three_f16.fuse bench/chains/cmp_f32.fuse examples/two_out.fuse bench/chains/gelu_bf16.fuse"
timeout $(( 540 - ($(date +%s) - t0) )) python3 bench/fusion_bench.py --fusec $F --sizes 4096,65536,1048576,4194304 --passes 3 --reps 9 --modes cold --variants x2,s2048,s4096,s0,t256,t64,y0,y1024 --out /tmp/fb $CH > $OUT/fusion_bench.txt 2>&1; el "fusion_bench rc=$?"
cp /tmp/fb/results.csv /tmp/fb/table.txt $OUT/ 2>/dev/null
el done

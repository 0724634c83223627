# Session 13, call T: the fused kernel from its own library writing the shared outputs (t128) or its own (t128own).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec
timeout 200 python3 bench/fusion_bench.py --fusec $F --sizes 4096,65536,1048576 --passes 3 --reps 9 --modes cold --variants t128,t128own --out /tmp/fb examples/seed.fuse examples/two_out.fuse bench/chains/three_f16.fuse bench/chains/pow_f16.fuse bench/chains/trig_f32.fuse examples/swiglu.fuse > $OUT/fusion_bench.txt 2>&1; echo "fusion_bench rc=$?"

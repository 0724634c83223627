# Session 12, call M: launchcost (coldlong/coldfresh: the unfused small-n gap) and fusion_bench on the flat
# examples and bench/chains against eager, Inductor and CUB, cold, 2^12..2^24.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
nvcc -O3 -arch=sm_90 -I bench bench/launchcost.cu -o /tmp/launchcost && timeout 150 /tmp/launchcost > $OUT/launch.csv 2> $OUT/launch.err; el "launchcost rc=$?"
CH="bench/chains/*.fuse examples/dequantize_i8.fuse examples/fp8_dequantize.fuse examples/fp8_quantize.fuse examples/gelu_tanh.fuse examples/mask_combine.fuse examples/mixed.fuse examples/quantize_i8.fuse examples/seed.fuse examples/softplus_f64.fuse examples/swiglu.fuse examples/two_out.fuse"
timeout $(( 570 - ($(date +%s) - t0) )) python3 bench/fusion_bench.py --fusec $F --sizes 4096,65536,1048576,16777216 --passes 3 --reps 9 --modes cold --out /tmp/fb $CH > $OUT/fusion_bench.txt 2>&1; el "fusion_bench rc=$?"
cp /tmp/fb/results.csv /tmp/fb/accuracy.csv /tmp/fb/table.txt $OUT/ 2>/dev/null
el done

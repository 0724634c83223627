# Session 12, call N: launchcost with the code-size chains; shaped_bench --inductor at 2^26 elements, last dim 4096.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
nvcc -O3 -arch=sm_90 -I bench bench/launchcost.cu -o /tmp/launchcost && timeout 150 /tmp/launchcost > $OUT/launch.csv 2> $OUT/launch.err; el "launchcost rc=$?"
timeout $(( 560 - ($(date +%s) - t0) )) python3 bench/shaped_bench.py /tmp/sb new=$F --inductor > $OUT/shaped_bench.txt 2>&1; el "shaped rc=$?"
cp /tmp/sb/shaped.txt $OUT/ 2>/dev/null
el done

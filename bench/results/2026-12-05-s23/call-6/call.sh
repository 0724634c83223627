# Session 23 call 6: (1) the harness's --passes 2 (this session's build, .dev/bin/fusec_s23) on the six
# harnesses whose first size calls 1-2 timed in a slow spell, and on seed and quantize_i8, same sizes and
# REPS as calls 1-2; (2) fusion_bench with CUB's version in a library of its own: the fused column against
# the same build's fused kernel from a library of its own (fused@base), 2^12 and 2^16, cold.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec_s23; R=$OUT; W=$(mktemp -d /tmp/s23c6.XXXX); t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt; cat $R/machine.txt
ONLY="golden_div_zero rand_rand_4242_0034 rand_rand_4242_0049 golden_mish bias_gelu rand_rand_4242_0069 seed quantize_i8"
ONLY="$ONLY" PHASE=build FID_WORK=$W JOBS=16 bash bench/fidelity.sh $R $F > $R/fid_build.txt 2>&1; el "built $(ls $W/src/*.bin | wc -l)"
ONLY="$ONLY" SIZES=4096,65536,1048576,4194304,16777216,268435456 REPS=10 LIMIT=60 PHASE=run FID_WORK=$W \
  timeout 250 bash bench/fidelity.sh $R $F > $R/fid_run.txt 2>&1; el "fidelity rc=$?"
timeout 90 python3 bench/fusion_bench.py --fusec $F --baseline $F --out $R/fb --sizes 2^12,2^16 --modes cold --passes 3 \
  examples/seed.fuse examples/quantize_i8.fuse examples/two_out.fuse examples/gelu_tanh.fuse > $R/fb.txt 2>&1; el "fb rc=$?"
rm -rf $R/fb/build; tail -n 22 $R/fidelity.txt; sed -n '/^variants/,/^$/p' $R/fb/table.txt; grep "^worst" $R/fb.txt

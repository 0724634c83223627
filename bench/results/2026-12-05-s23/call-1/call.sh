# Session 23 call 1: (1) builds every harness for one fidelity run (the examples, tests/golden and randgen.py
# --seed 4242 programs 0-99, with this session's build, .dev/bin/fusec_cur = dc6ee8c + the RESUME switch)
# into build-fid/, kept on the machine for the next calls; (2) fusion_bench of the same build (two vectors a
# thread in a busy fused kernel, + - * each rounded) beside eager, Inductor, CUB and session 21's build
# (.dev/bin/fusec: one vector, nvcc's fma) as fused@base, cold, 2^12 and 2^26; (3) the fidelity run, as
# far as the time goes (calls 2 and 3 go on with RESUME=1).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec_cur; B=$PWD/.dev/bin/fusec; R=/tmp/s23c1_$$; W=$PWD/build-fid; mkdir -p $R
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.so' --exclude='*.bin' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt; cat $R/machine.txt
rm -rf $W; RANDOM_N=100 PHASE=build FID_WORK=$W/work JOBS=16 bash bench/fidelity.sh $W/out $F > $R/fid_build.txt 2>&1
el "built $(ls $W/work/src/*.bin | wc -l) of $(ls $W/work/src/*.fuse | wc -l)"
timeout ${FB:-210} python3 bench/fusion_bench.py --fusec $F --baseline $B --out $R/fb --sizes 2^12,2^26 --modes cold \
  --passes 2 $(grep -L "\[" examples/*.fuse) bench/chains/trig_f32.fuse bench/chains/lse_f64.fuse \
  bench/chains/gelu_f64.fuse bench/chains/mish_f32.fuse bench/chains/pow_f16.fuse bench/chains/gelu_bf16.fuse \
  > $R/fb.txt 2>&1; el "fusion_bench rc=$?"; save
bash bench/results/2026-12-05-s23/call-2/call.sh $(( 575 - ($(date +%s) - t0) ))

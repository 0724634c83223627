# Session 7, call 1: f64 fused-kernel shapes against Inductor; ncu of fusec's and Inductor's lse_f64 kernel; SASS.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
export TORCHINDUCTOR_CACHE_DIR=/tmp/ind
mkdir -p $OUT/f64
CH="bench/chains/lse_f64.fuse examples/softplus_f64.fuse bench/chains/gelu_f64.fuse bench/chains/sigtanh_f64.fuse"
timeout 330 python3 bench/fusion_bench.py $CH --fusec $F --variants lb,r8,x2,x2r8,x2lb,r4 --sizes 2^16,2^20,2^24,2^28 --passes 3 --reps 9 --modes cold --keep-inductor --out $OUT/f64 > $OUT/f64/stdout.txt 2>&1; el "bench rc=$?"
B=$OUT/f64/build
timeout 120 ncu --kernel-name regex:"fused" --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis python3 .dev/ncu_f64.py $B/liblse_f64.so > $OUT/ncu.txt 2>&1; el "ncu rc=$?"
( cuobjdump -sass -fun lse_f64_fused_kernel $B/liblse_f64.so 2>&1 | head -3000 > $OUT/sass_fusec.txt
  for c in $(find /tmp/ind -name "*.cubin" | head -20); do echo "== $c"; cuobjdump -sass $c | head -1500; done > $OUT/sass_inductor.txt 2>&1 ) ; el sass
rm -rf $B; cd $OUT && tar czf f64.tgz f64 && rm -rf f64
el done

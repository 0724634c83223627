# Session 31 call 3 (for whichever card comes, H100 or H200; build 9701983, kernels as 8e789ef): bench/fusion_bench.py
# on the 11 flat examples and the 13 bench/chains against eager, Inductor and CUB, cold, three passes, 2^12..2^28,
# with each kernel of eager and of fusec's unfused version at 2^22 (--kernels); then golden shape_names ([R, C]
# times [C], plus [R, 1] f32 and bf16) at C = 4, 5, 8, 256 and 257 and about 2^24 elements, cold, both versions,
# and its fused kernel under Nsight Compute at C = 4 and 5: why a last dim not a multiple of E (each element its own
# broadcast offsets) ran at 80% of the copy where the model said 100%. Everything under $T, back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c3out; mkdir -p $T/sn; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
timeout 330 python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2^12,2^16,2^20,2^22,2^24,2^26,2^28 \
  --modes cold --passes 3 --kernels 2^22 $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $T/fb/build; tail -n 3 $T/fb.txt
S=$T/sn/shape_names; $F tests/golden/shape_names.fuse -o $S.cu && nvcc -O3 -arch=sm_90 $S.cu -o $S.bin; el "built rc=$?"
for c in 4 5 8 256 257; do r=$(( (1 << 24) / c )); timeout 40 $S.bin --dims u_b=$c --sweep R --sizes $r --modes cold --reps 20 --passes 2 --seed 7 \
  > $T/sn/c$c.txt 2>&1; echo "C=$c rc=$?"; done; el "harness done"
for c in 4 5; do r=$(( (1 << 24) / c )); timeout 60 ncu --kernel-name regex:fused_kernel --launch-count 1 --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats --section SchedulerStats \
  --section InstructionStats $S.bin --no-verify --dims u_b=$c --sweep R --sizes $r --modes cold --reps 1 --warmup 0 --passes 1 \
  > $T/sn/ncu_c$c.txt 2>&1; echo "ncu C=$c rc=$?"; done; el "ncu done"

# Session 38, ready, not run: why a mixed fused kernel runs faster or slower than its summed op prices. Of the
# fused kernels of session 37's fidelity run priced compute-bound at 2^26 (57 rows, median measured /
# predicted time 0.99), programs 6, 11, 13, 25, 37, 40, 42, 64, 80, 94 and 96 ran 0.70-0.87 of the model's time
# and 7 ran 1.21 (golden operators 1.17); programs 2, 15, 20, 27, 34, 39, 49, 65 and 73 were within 4%. For each,
# Nsight Compute's metrics of bench/pipes.py (the fused kernel's warp instructions by pipe, issue activity)
# at 2^24 elements, cold, on the harness's inputs: is a miss the count of instructions (nvcc's code for a
# composition against the sum of its ops' rows: bench/pipes.py says a slot is 1.1-1.2 cycles an instruction) or
# the rate they issue at (latency, branches)? Carry .dev (HEAD's fusec in .dev/bin); about 5 minutes. Back as
# mixed.tgz: OUT/ncu/NAME.csv and the sources.
export PATH=/usr/local/cuda/bin:$PATH; F=$PWD/.dev/bin/fusec; T=/tmp/mixed; rm -rf $T; mkdir -p $T/src $T/bin $T/ptxas $T/ncu; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $T/machine.txt
trap 'tar -C $T -czf $OUT/mixed.tgz machine.txt times.txt src ptxas ncu' EXIT  # sources, ptxas -v and profiles: no binaries
for p in 0006 0007 0011 0013 0025 0037 0040 0042 0064 0080 0094 0096 0002 0015 0020 0027 0034 0039 0049 0065 0073; do
  tar -xzf bench/results/2026-12-07-s37/calls-1-2/fidelity.tgz -O fidelity/src/rand_rand_4242_$p.fuse > $T/src/rand_$p.fuse
done
cp tests/golden/operators.fuse $T/src/golden_operators.fuse
ls $T/src/*.fuse | xargs -P 14 -I{} sh -c 'f={}; n=$(basename ${f%.fuse}); b='"$T"'/bin/$n; "'"$F"'" -w "$f" -o "$b.cu" && nvcc -O3 -arch=sm_90 -Xptxas -v "$b.cu" -o "$b" > '"$T"'/ptxas/$n.ptxas 2>&1 || echo "BUILD FAILED $f"'
echo "built $(ls $T/bin/*.cu | wc -l) t=$(( $(date +%s) - t0 ))" | tee $T/times.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_cbu.sum
for f in $T/src/*.fuse; do
  b=$T/bin/$(basename ${f%.fuse}); [ -x "$b" ] || continue
  timeout 40 ncu --csv --page raw --print-units base --cache-control all --clock-control none --metrics $M -k regex:_fused_kernel \
    "$b" --no-verify --sizes 2^24 --modes cold --reps 1 --warmup 0 --passes 1 > $T/ncu/$(basename "$b").csv 2>&1
done
echo "ncu $(ls $T/ncu | wc -l) t=$(( $(date +%s) - t0 ))" | tee -a $T/times.txt

# Session 37, ready, not run: each op's instructions by pipe inside fusec's fused kernel, for a model that
# prices an op per pipe (docs/model.md, "Session 37": program 38's fused kernel issued 345 warp instructions
# an element where the model counts 590 slots; the i64 division's slots, measured in a kernel of divisions
# alone, overlap with a mixed kernel's other work). For every op and type of bench/opcost_fused.py (its chains
# of 8 independent applications, and each chain without the op), Nsight Compute's warp instructions by pipe
# (ALU, FMA, FP64, XU, LSU, CBU), the time and the issue activity of the fused kernel at 2^24 elements, cold,
# on the harness's inputs (the emitted harness, --no-verify). Per op: (chain - base) / 8 an element, offline.
# Carry .dev (HEAD's fusec in .dev/bin). About 10 minutes: the build (136 chains) and ncu until B seconds (default 450) from the start; run it again with fewer types for the rest. Back as ncu/*.csv.
export PATH=/usr/local/cuda/bin:$PATH; F=$PWD/.dev/bin/fusec; T=/tmp/pipes; rm -rf $T; mkdir -p $T $OUT/ncu; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/machine.txt
python3 - "$T" <<'PY'
import sys; sys.path.insert(0, "bench"); import opcost_fused as o
t = sys.argv[1]
for dt in ("f32", "f64", "i32", "i64"):
    ops = o.INT_OPS if o.is_int(dt) else {k: v for k, v in o.OPS.items() if k not in o.BY_ZERO}
    for op in ops:
        for base in (False, True):
            with open("%s/%s_%s%s.fuse" % (t, op, dt, "_base" if base else ""), "w") as f:
                f.write(o.chain_source(op, dt, 8, base))
PY
ls $T/*.fuse | xargs -P 14 -I{} sh -c 'f={}; b=${f%.fuse}; "'"$F"'" -w "$f" -o "$b.cu" && nvcc -O3 -arch=sm_90 "$b.cu" -o "$b" 2>/dev/null || echo "BUILD FAILED $f"'
echo "built $(ls $T/*.cu | wc -l) t=$(( $(date +%s) - t0 ))" | tee $OUT/times.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_cbu.sum
for f in $T/*.fuse; do
  b=${f%.fuse}; [ -x "$b" ] || continue
  [ $(( $(date +%s) - t0 )) -lt ${B:-450} ] || break
  timeout 30 ncu --csv --page raw --print-units base --cache-control all --clock-control none --metrics $M -k regex:_fused_kernel \
    "$b" --no-verify --sizes 2^24 --modes cold --reps 1 --warmup 0 --passes 1 > $OUT/ncu/$(basename "$b").csv 2>&1
done
echo "ncu $(ls $OUT/ncu | wc -l) t=$(( $(date +%s) - t0 ))" | tee -a $OUT/times.txt

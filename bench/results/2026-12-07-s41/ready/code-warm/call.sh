# Session 41, ready, not run: what fetching a cold call's code costs, fusec's fused kernel against Inductor's.
# Carry .dev (HEAD's fusec in .dev/bin). B (seconds, default 560) is the call's length. Back as one all.tgz.
# bench/fusion_bench.py --code-warm on the 13 bench/chains and the flat examples at 2^12, 2^16 and 2^20, cold,
# three passes: each one-kernel version (fused, compile, cub) also timed with its code fetched first.
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s41cw/out; rm -rf /tmp/s41cw; mkdir -p $T; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $T/machine.txt
trap 'tar -C $T -czf $OUT/all.tgz --exclude=./cw/build .' EXIT
timeout $(( ${B:-560} - 20 )) python3 bench/fusion_bench.py --fusec $F --out $T/cw --sizes 2^12,2^16,2^20 --modes cold \
  --passes 3 --code-warm bench/chains/*.fuse examples/*.fuse > $T/cw.txt 2>&1
echo "t=$(( $(date +%s) - t0 )) fusion_bench rc=$?" | tee $T/times.txt
sed -n '/^cold, each one-kernel/,/^$/p' $T/cw/table.txt 2>/dev/null | head -40

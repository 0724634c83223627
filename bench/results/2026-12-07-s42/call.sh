# Session 42's call: (1) an A/B of session 40's register rule on idiv_i32 (fused kernel of HEAD's fusec against
# 8968b53's, the last build before the rule: .dev/base/fusec), (2) each kernel of eager and of the unfused
# version at 2^20 on the three chains whose unfused call ran under 0.97x eager's there in session 41 (affine_f32,
# lse_f64, sigtanh_f64), (3) session 41's ready code-warm run.
# Carry .dev (HEAD's fusec in .dev/bin, 8968b53's in .dev/base). B (seconds, default 580) is the call's length.
# Back as one all.tgz.
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s42/out; rm -rf /tmp/s42; mkdir -p $T; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $T/machine.txt
trap 'tar -C $T -czf $OUT/all.tgz --exclude=./ab/build --exclude=./kern/build --exclude=./cw/build .' EXIT
timeout 150 python3 bench/fusion_bench.py --fusec $F --baseline $PWD/.dev/base/fusec --out $T/ab \
  --sizes 2^18,2^20,2^22,2^24 --modes cold --passes 5 --no-cub bench/chains/idiv_i32.fuse > $T/ab.txt 2>&1
rc=$?; echo "t=$(( $(date +%s) - t0 )) ab rc=$rc" | tee $T/times.txt
timeout 120 python3 bench/fusion_bench.py --fusec $F --out $T/kern --sizes 2^20 --modes cold --passes 3 --no-cub \
  --kernels 2^20 bench/chains/affine_f32.fuse bench/chains/lse_f64.fuse bench/chains/sigtanh_f64.fuse > $T/kern.txt 2>&1
rc=$?; echo "t=$(( $(date +%s) - t0 )) kernels rc=$rc" | tee -a $T/times.txt
timeout $(( ${B:-580} - 20 - $(date +%s) + t0 )) python3 bench/fusion_bench.py --fusec $F --out $T/cw \
  --sizes 2^12,2^16,2^20 --modes cold --passes 3 --code-warm bench/chains/*.fuse examples/*.fuse > $T/cw.txt 2>&1
rc=$?; echo "t=$(( $(date +%s) - t0 )) code-warm rc=$rc" | tee -a $T/times.txt
grep -A8 'fused@base' $T/ab/table.txt | head -30
grep -B2 -A30 'each kernel' $T/kern/table.txt | head -50
sed -n '/^cold, each one-kernel/,/^$/p' $T/cw/table.txt 2>/dev/null | head -40

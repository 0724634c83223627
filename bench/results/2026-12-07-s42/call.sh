# Session 42's call: (0) random program 90 of tests/randgen.py --seed 4242, the one chain of the examples, golden,
# bench and 100 random programs whose emitted kernel session 42's fold rules change (its fused kernel takes one
# vector a thread where 6f9a94e's took two: .dev/old/fusec is 6f9a94e's build), both harnesses cold at 2^20-2^28,
# twice by turns; (1) each kernel of eager and of the unfused version at 2^20 on the three chains whose unfused
# call ran under 0.97x eager's there in session 41 (affine_f32, lse_f64, sigtanh_f64); (2) session 41's code-warm
# run (fusion_bench.py --code-warm, 2^12-2^20, three passes) on seven bench/chains whose fused kernel ran under
# 0.98x Inductor's at 2^12 or 2^16 in session 41 (CW= for others); (3) an A/B of session 40's
# register rule on idiv_i32 (HEAD's fused kernel against 8968b53's, the last build before the rule: .dev/base/fusec).
# Carry .dev (HEAD's fusec in .dev/bin, 8968b53's in .dev/base, 6f9a94e's in .dev/old). B (seconds, default 420) is the call's length;
# K, KT and CW narrow stages (1) and (2) for a short call.
# Back as one all.tgz.
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s42/out; rm -rf /tmp/s42; mkdir -p $T; t0=$(date +%s); B=${B:-420}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $T/machine.txt
trap 'tar -C $T -czf $OUT/all.tgz --exclude=./ab/build --exclude=./kern/build --exclude=./cw/build .' EXIT
left() { l=$(( B - 15 - $(date +%s) + t0 - $1 )); [ $l -gt 1 ] || l=1; echo $l; }  # never 0: timeout 0 waits forever
python3 tests/randgen.py --seed 4242 --count 91 --out $T/rg > /dev/null && mkdir -p $T/p90 && for b in bin old; do
  .dev/$b/fusec -w $T/rg/rand_4242_0090.fuse -o $T/p90/$b.cu && nvcc -O3 -arch=sm_90 $T/p90/$b.cu -o /tmp/s42/p90_$b &
done; wait
for r in 1 2; do for b in bin old; do timeout 60 /tmp/s42/p90_$b --seed 7 --reps 10 \
  --sizes=1048576,4194304,16777216,67108864,268435456 --csv $T/p90/${b}_$r.csv > $T/p90/${b}_$r.log 2>&1; done; done
echo "t=$(( $(date +%s) - t0 )) p90" | tee $T/times.txt
timeout ${KT:-100} python3 bench/fusion_bench.py --fusec $F --out $T/kern --sizes 2^20 --modes cold --passes 3 --no-cub \
  --kernels 2^20 ${K:-bench/chains/affine_f32.fuse bench/chains/lse_f64.fuse bench/chains/sigtanh_f64.fuse} > $T/kern.txt 2>&1
rc=$?; echo "t=$(( $(date +%s) - t0 )) kernels rc=$rc" | tee -a $T/times.txt
timeout $(left 80) python3 bench/fusion_bench.py --fusec $F --out $T/cw \
  --sizes 2^12,2^16,2^20 --modes cold --passes 3 --code-warm ${CW:-bench/chains/affine_f32.fuse bench/chains/cmp_f32.fuse bench/chains/idiv_i32.fuse \
  bench/chains/mish_f32.fuse bench/chains/pow_f16.fuse bench/chains/gelu_f64.fuse bench/chains/three_f16.fuse} > $T/cw.txt 2>&1
rc=$?; echo "t=$(( $(date +%s) - t0 )) code-warm rc=$rc" | tee -a $T/times.txt
timeout $(left 0) python3 bench/fusion_bench.py --fusec $F --baseline $PWD/.dev/base/fusec --out $T/ab \
  --sizes 2^20,2^24 --modes cold --passes 5 --no-cub bench/chains/idiv_i32.fuse > $T/ab.txt 2>&1
rc=$?; echo "t=$(( $(date +%s) - t0 )) ab rc=$rc" | tee -a $T/times.txt
grep -h 'cold' $T/p90/*.csv | cut -d, -f1-5
grep -B2 -A30 'each kernel' $T/kern/table.txt | head -50
sed -n '/^cold, each one-kernel/,/^$/p' $T/cw/table.txt 2>/dev/null | head -45
grep -A6 'fused@base' $T/ab/table.txt | head -20

# Session 43's call: the unfused kernels in eager's shape (8 elements a thread, vectors FX_THREADS apart) against
# HEAD's one vector a thread, each kernel beside eager's (fusion_bench.py --kernels, CUPTI, each call after an L2
# flush), at 2^20 on ten chains and at 2^24 on five, the two builds by turns; first each chain's harness verifies
# both versions of the new build at 4099 and 1000003 elements (the last block's elements one at a time).
# Carry .dev: the new build in .dev/new, HEAD's (bced2f5) in .dev/bin. B (seconds, default 420) is the call's length.
# Back as one all.tgz.
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
T=/tmp/s43/out; rm -rf /tmp/s43; mkdir -p $T/verify; t0=$(date +%s); B=${B:-420}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $T/machine.txt
trap 'tar -C $T -czf $OUT/all.tgz --exclude="./*/build" .' EXIT
left() { l=$(( B - 15 - $(date +%s) + t0 - $1 )); [ $l -gt 1 ] || l=1; echo $l; }  # never 0: timeout 0 waits forever
C20="bench/chains/affine_f32.fuse bench/chains/lse_f64.fuse bench/chains/sigtanh_f64.fuse bench/chains/idiv_i32.fuse
 bench/chains/trig_f32.fuse bench/chains/cmp_f32.fuse examples/seed.fuse examples/two_out.fuse examples/softplus_f64.fuse
 examples/dequantize_i8.fuse"
C24="bench/chains/affine_f32.fuse bench/chains/lse_f64.fuse bench/chains/idiv_i32.fuse examples/two_out.fuse
 examples/dequantize_i8.fuse"
for c in $C20 examples/mixed.fuse; do n=$(basename $c .fuse)
  (.dev/new/fusec -w $c -o /tmp/s43/$n.cu && nvcc -O3 -arch=sm_90 /tmp/s43/$n.cu -o /tmp/s43/$n &&
   timeout 60 /tmp/s43/$n --seed 7 --reps 3 --sizes=4099,1000003 > $T/verify/$n.txt 2>&1; echo "$n rc=$?" >> $T/verify/rc.txt) &
done; wait
echo "t=$(( $(date +%s) - t0 )) verify" | tee $T/times.txt; cat $T/verify/rc.txt
run() { # run BUILD SIZE LIMIT CHAINS...
  b=$1 s=$2 l=$3; shift 3
  timeout $l python3 bench/fusion_bench.py --fusec $PWD/.dev/$b/fusec --out $T/k_${b}_$s --sizes $s --modes cold \
    --passes 3 --no-cub --kernels $s "$@" > $T/k_${b}_$s.txt 2>&1
  echo "t=$(( $(date +%s) - t0 )) $b $s rc=$?" | tee -a $T/times.txt
}
run new 2^20 $(left 200) $C20; run bin 2^20 $(left 110) $C20
run bin 2^24 $(left 55) $C24; run new 2^24 $(left 0) $C24
for f in $T/k_*_2^2*.txt; do echo "== $f"; grep -A1 -E '^(chain|[a-z_0-9]+ +2\^)' $f | grep -E '2\^' | head -12
  grep -E '^  void' $f | awk '{print $NF}' | tr '\n' ' '; echo; done

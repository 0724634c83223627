# Session 7, call 2: the f64 launch bound (7f21c3c) against main before it (c7b0e72, fused@base), the
# unfused f64 kernels against eager's kernel by kernel, and the f64 harnesses' verification.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; B=$PWD/.dev/bin/fusec_base; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/ab $OUT/h
CH="bench/chains/lse_f64.fuse examples/softplus_f64.fuse bench/chains/gelu_f64.fuse bench/chains/sigtanh_f64.fuse"
timeout 300 python3 bench/fusion_bench.py $CH --fusec $F --baseline $B --kernels 67108864 --sizes 2^12,2^16,2^20,2^24,2^28 --passes 3 --reps 11 --modes cold,hot --out $OUT/ab > $OUT/ab/stdout.txt 2>&1; el "ab rc=$?"
rm -rf $OUT/ab/build
for c in $CH; do n=$(basename $c .fuse); $F $c -o /tmp/$n.cu && nvcc -O3 -arch=sm_90 /tmp/$n.cu -o /tmp/$n && timeout 60 /tmp/$n --sizes=4096,1048576,16777216 --modes cold > $OUT/h/$n.txt 2>&1; el "harness $n rc=$?"; done
cd $OUT && tar czf call2.tgz ab h && rm -rf ab h
el done

# Session 4, call 2: (1) the small-n gap between fusion_bench's "fused" and the same kernel as a variant
# (.dev/smalln.py: library with/without -DFUSEC_CUB, two output buffers); (2) fusion_bench on the
# quantize/fp8/mask examples with the session-3 build as baseline; (3) 250 random programs verified
# against the reference (bench/device.sh random), after the timing.
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s4b; B=$PWD/.dev/bin/fusec_new
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/sn $OUT/fa $OUT/rnd
timeout 100 python3 .dev/smalln.py $F $OUT/sn bench/chains/affine_f32.fuse examples/seed.fuse > $OUT/sn/stdout.txt 2>&1; el "smalln rc=$?"
CHA="examples/quantize_i8.fuse examples/dequantize_i8.fuse examples/fp8_quantize.fuse examples/fp8_dequantize.fuse examples/mask_combine.fuse examples/seed.fuse examples/swiglu.fuse"
timeout 200 python3 .dev/fusion_bench.py $CHA --fusec $F --baseline $B --sizes 2^12,2^16,2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --out $OUT/fa > $OUT/fa/stdout.txt 2>&1; el "fusion_bench rc=$?"
rm -rf $OUT/fa/build
rem=$(( 540 - ($(date +%s) - t0) ))
RANDOM_N=250 timeout $rem bench/device.sh $OUT/rnd $F random > $OUT/rnd/stdout.txt 2>&1; el "random rc=$?"
cat $OUT/rnd/*/random_summary.txt 2>/dev/null | head -5
cd $OUT && tar czf s4call2.tgz sn fa rnd && rm -rf sn fa rnd
el done

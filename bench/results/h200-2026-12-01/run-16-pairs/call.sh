# Session 4, call 4: fx_store_rounded (pairs, s4c) against per-element rounding (s4b, baseline), same run,
# shuffled order, on the chains with f16/bf16/fp8 outputs; and x2/d2 variants of the fp8/i8 quantize kernels.
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s4c; B=$PWD/.dev/bin/fusec_s4b
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/p
CH="examples/fp8_quantize.fuse examples/dequantize_i8.fuse examples/fp8_dequantize.fuse bench/chains/gelu_bf16.fuse bench/chains/pow_f16.fuse bench/chains/three_f16.fuse examples/mixed.fuse"
timeout 150 python3 .dev/fusion_bench.py $CH --fusec $F --baseline $B --sizes 2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --out $OUT/p > $OUT/p/stdout.txt 2>&1; el "pairs rc=$?"
rm -rf $OUT/p/build
cd $OUT && tar czf s4call4.tgz p && rm -rf p
el done

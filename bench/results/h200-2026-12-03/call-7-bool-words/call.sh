# Session 7, call 7: the unfused & | ^ ~ of 1-byte arrays as 32-bit words (fx_words16) against the per-byte
# form (fused@base is the previous build's fused kernel, unchanged; the unfused kernels are timed by --kernels).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH; mkdir -p $OUT/new $OUT/old
timeout 80 python3 bench/fusion_bench.py examples/mask_combine.fuse --fusec .dev/bin/fusec --kernels 268435456 --sizes 2^20,2^24,2^28 --passes 3 --reps 9 --modes cold --out $OUT/new > $OUT/new/stdout.txt 2>&1; echo new rc=$?
timeout 60 python3 bench/fusion_bench.py examples/mask_combine.fuse --fusec .dev/bin/fusec_prev --kernels 268435456 --sizes 2^20,2^24,2^28 --passes 3 --reps 9 --modes cold --out $OUT/old > $OUT/old/stdout.txt 2>&1; echo old rc=$?
rm -rf $OUT/new/build $OUT/old/build; for d in new old; do echo "== $d"; grep -A12 "^chain " $OUT/$d/table.txt | head -5; sed -n '/each kernel/,/^$/p' $OUT/$d/table.txt; done

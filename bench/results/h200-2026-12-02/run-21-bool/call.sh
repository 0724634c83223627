# Session 6, call 4: the unfused kernels of 1-byte arrays under the 64-register cap (mask_combine's kernels
# one by one against eager's, fusion_bench --kernels), then the interpreter's scalar builtins on the GPU
# (gpu_check --files: rand_2026_0235, its prefixes and programs 0-39 of randgen --seed 2026).
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s6
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/g $OUT/fb
timeout 100 python3 bench/fusion_bench.py examples/mask_combine.fuse --fusec $F --sizes 2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --kernels 2^28 --out $OUT/fb > $OUT/fb/stdout.txt 2>&1; el "fusion_bench rc=$?"
rm -rf $OUT/fb/build; grep -A30 "^cold" $OUT/fb/stdout.txt | grep -v "^$" | head -24
python3 tests/randgen.py --seed 2026 --count 40 --out /tmp/r40 >/dev/null
timeout $(( 215 - ($(date +%s) - t0) )) python3 tests/torch/gpu_check.py --fusec $F --out $OUT/g --files .dev/d235/*.fuse /tmp/r40/*.fuse --jobs 15 > $OUT/g/stdout.txt 2>&1; el "gpu_check rc=$?"
grep -E "FAIL|passed" $OUT/g/stdout.txt | cut -c1-300
cd $OUT && tar czf s6call4.tgz g fb && rm -rf g fb
el done

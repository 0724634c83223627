# small-n shape study: the fused kernel with E = 1 when the grid is tiny (FX_TINY), 3 variants
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec
w=/tmp/tiny; rm -rf $w; mkdir -p $w/src $w/csv
python3 tests/randgen.py --seed 4242 --count 10 --out $w/rand --ops-def src/ops.def >/dev/null
cp tests/golden/pow.fuse $w/src/golden_pow.fuse
for c in seed mixed swiglu gelu_tanh softplus_f64 two_out; do cp examples/$c.fuse $w/src/; done
for c in trig_f32 mish_f32 gelu_bf16 lse_f64 pow_f16 where_f16 three_f16; do cp bench/chains/$c.fuse $w/src/; done
cp $w/rand/*0000* $w/src/rand0.fuse; cp $w/rand/*0006* $w/src/rand6.fuse; cp $w/rand/*0003* $w/src/rand3.fuse
for f in $w/src/*.fuse; do c=$(basename $f .fuse); $F -w $f -o $w/$c.cu && python3 .dev/tiny.py $w/$c.cu; done
ls $w/*.cu | wc -l
for f in $w/*.cu; do for t in 0 256; do echo "nvcc -O3 -arch=sm_90 -DFX_TINY=$t -o ${f%.cu}_$t $f"; done; done | xargs -P 16 -I{} sh -c '{} 2>/dev/null'
for f in $w/*.cu; do c=$(basename $f .cu); for t in 0 256; do
  timeout 40 ${f%.cu}_$t --seed 7 --reps 20 --sizes 4096,16384,65536,262144,1048576 --modes cold,hot --csv $w/csv/${c}_$t.csv >/dev/null 2>&1 || echo "FAIL $c $t"
done; done
cd $w/csv && tar czf $OUT/tiny.tgz *.csv

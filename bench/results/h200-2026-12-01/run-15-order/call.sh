# Session 4, call 3 (main at 9684c95 + fusion_bench --order): torch_check and 250 random programs on the
# current build (pairs, ties); fusion_bench's cold order (alternate vs shuffle, baseline = the same build);
# fusion_bench on bench/chains and the 1-D examples, the session-3 build as baseline, shuffled order.
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s4c; B=$PWD/.dev/bin/fusec_new
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/tc1 $OUT/tc2 $OUT/tc3 $OUT/rnd $OUT/ord/alt $OUT/ord/shuf $OUT/ab
G1=fp8_all_floats,fp8_corners,fp8,fp8_quantize,fp8_dequantize,float_casts,quantize_i8
G2=operators,mask_combine,bf16_ops,ints,int_corners,int_literals,dequantize_i8
G3=bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d,div_by_number,number_by_tensor
i=1; for g in $G1 $G2 $G3; do
  ( timeout 300 python3 bench/torch_check.py $F $OUT/tc$i --chain $g > $OUT/tc$i/stdout.txt 2>&1; echo "rc=$?" >> $OUT/tc$i/stdout.txt ) &
  i=$((i+1)); done
true
wait; el "torch_check: $(grep -h 'rc=' $OUT/tc*/stdout.txt | tr '\n' ' ')"
O="bench/chains/affine_f32.fuse examples/seed.fuse bench/chains/where_f16.fuse"
for o in alternate shuffle; do d=$OUT/ord/alt; [ $o = shuffle ] && d=$OUT/ord/shuf
  timeout 60 python3 .dev/fusion_bench.py $O --fusec $F --baseline $F --order $o --sizes 2^12,2^16,2^20 --passes 3 --reps 15 --modes cold --out $d > $d/stdout.txt 2>&1; el "order $o rc=$?"; rm -rf $d/build; done
rem=$(( 565 - ($(date +%s) - t0) ))
CH="examples/seed.fuse examples/swiglu.fuse examples/gelu_tanh.fuse examples/mixed.fuse examples/softplus_f64.fuse examples/two_out.fuse examples/mask_combine.fuse examples/quantize_i8.fuse examples/dequantize_i8.fuse examples/fp8_quantize.fuse examples/fp8_dequantize.fuse bench/chains/*.fuse"
timeout $rem python3 .dev/fusion_bench.py $CH --fusec $F --baseline $B --sizes 2^12,2^16,2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --out $OUT/ab > $OUT/ab/stdout.txt 2>&1; el "ab rc=$?"
rm -rf $OUT/ab/build
cd $OUT && tar czf s4call3.tgz tc1 tc2 tc3 rnd ord ab && rm -rf tc1 tc2 tc3 rnd ord ab
el done

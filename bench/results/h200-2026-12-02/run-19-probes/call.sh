# Session 6, call 2: narrow-integer ops on the device (inttest), rand_2026_0235 split into its terms and
# rand_2026_0026 against eager (gpu_check --files), torch_check (three processes) on the accurate unfused
# forms and div.full; then, on a quiet GPU, the shaped examples (shaped_bench: base, row loop unrolled 2
# and 4) and the 1-D new examples (fusion_bench) against the copy, in one run.
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s6
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/tc1 $OUT/tc2 $OUT/tc3 $OUT/g $OUT/sb $OUT/fb
G1=fp8_all_floats,fp8_corners,fp8,fp8_quantize,fp8_dequantize,float_casts,quantize_i8
G2=operators,mask_combine,bf16_ops,ints,int_corners,int_literals,dequantize_i8
G3=bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d,div_by_number,number_by_tensor
i=1; for g in $G1 $G2 $G3; do
  ( timeout 280 python3 bench/torch_check.py $F $OUT/tc$i --chain $g > $OUT/tc$i/stdout.txt 2>&1; echo "rc=$?" >> $OUT/tc$i/stdout.txt ) &
  i=$((i+1)); done
nvcc -O3 -arch=sm_90 .dev/inttest.cu -o /tmp/inttest 2>/dev/null && /tmp/inttest > $OUT/inttest.txt 2>&1; el "inttest rc=$?"; cat $OUT/inttest.txt
timeout 200 python3 tests/torch/gpu_check.py --fusec $F --out $OUT/g --files .dev/d235/*.fuse --jobs 8 > $OUT/g/stdout.txt 2>&1; el "gpu_check rc=$?"
grep -E "FAIL|ok:|passed" $OUT/g/stdout.txt | cut -c1-400
wait; el "torch_check: $(grep -h 'rc=' $OUT/tc*/stdout.txt | tr '\n' ' ')"
grep -h -E "FAIL|passed|failed" $OUT/tc*/stdout.txt | head -20
U2='s/^(    )for \(I row = blockIdx\.y;/\1#pragma unroll 2\n\1for (I row = blockIdx.y;/'
U4='s/^(    )for \(I row = blockIdx\.y;/\1#pragma unroll 4\n\1for (I row = blockIdx.y;/'
timeout 200 python3 bench/shaped_bench.py $OUT/sb base=$F "u2=$F:$U2" "u4=$F:$U4" > $OUT/sb/stdout.txt 2>&1; el "shaped_bench rc=$?"
rm -f $OUT/sb/*.so $OUT/sb/*.cu; cat $OUT/sb/shaped.txt 2>/dev/null | head -60
rem=$(( 570 - ($(date +%s) - t0) ))
CH="examples/quantize_i8.fuse examples/dequantize_i8.fuse examples/fp8_quantize.fuse examples/fp8_dequantize.fuse examples/mask_combine.fuse examples/swiglu.fuse"
timeout $rem python3 bench/fusion_bench.py $CH --fusec $F --sizes 2^12,2^16,2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --out $OUT/fb > $OUT/fb/stdout.txt 2>&1; el "fusion_bench rc=$?"
rm -rf $OUT/fb/build; cat $OUT/fb/table.txt 2>/dev/null | head -80
cd $OUT && tar czf s6call2.tgz inttest.txt tc1 tc2 tc3 g sb fb && rm -rf tc1 tc2 tc3 g sb fb
el done

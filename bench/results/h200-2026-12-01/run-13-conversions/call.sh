# Session 4, call 1: the conversion changes (fp8 in hardware, one rounding for a cast output, NaN min/max,
# narrow int -> float without cvt, fused division by a number as eager's multiply) against eager (torch_check,
# in 3 parallel groups) and timed against the session-3 build (fusion_bench --baseline), Inductor, CUB, copy.
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s4a; B=$PWD/.dev/bin/fusec_new
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/tc1 $OUT/tc2 $OUT/tc3 $OUT/fb $OUT/sass
G1=fp8_all_floats,fp8_corners,fp8,fp8_quantize,fp8_dequantize,float_casts,quantize_i8
G2=operators,mask_combine,bf16_ops,ints,int_corners,int_literals,dequantize_i8
G3=bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d,div_by_number,number_by_tensor
i=1; for g in $G1 $G2 $G3; do
  ( timeout 300 python3 bench/torch_check.py $F $OUT/tc$i --chain $g > $OUT/tc$i/stdout.txt 2>&1; echo "rc=$?" >> $OUT/tc$i/stdout.txt ) &
  i=$((i+1)); done
CHA="examples/quantize_i8.fuse examples/dequantize_i8.fuse examples/fp8_quantize.fuse examples/fp8_dequantize.fuse examples/mask_combine.fuse examples/seed.fuse"
mkdir -p $OUT/fb/a $OUT/fb/b
timeout 200 python3 .dev/fusion_bench.py $CHA --fusec $F --baseline $B --sizes 2^12,2^16,2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --out $OUT/fb/a > $OUT/fb/a/stdout.txt 2>&1; el "fusion_bench a rc=$?"
rem=$(( 530 - ($(date +%s) - t0) ))
timeout $rem python3 .dev/fusion_bench.py bench/chains/*.fuse --fusec $F --baseline $B --sizes 2^12,2^16,2^20,2^24,2^28 --passes 3 --reps 11 --modes cold --out $OUT/fb/b > $OUT/fb/b/stdout.txt 2>&1; el "fusion_bench b rc=$?"
wait; el "torch_check: $(grep -h 'rc=' $OUT/tc*/stdout.txt | tr '\n' ' ')"
for so in $OUT/fb/*/build/*.so; do n=$(basename $so .so); cuobjdump -sass $so > /tmp/$n.sass 2>/dev/null
  awk '/Function : .*fused_kernel/{k=$3} /^ +\/\*[0-9a-f]+\*\// && k {c[k]++} END{for (x in c) print c[x], x}' /tmp/$n.sass | sort -k2 > $OUT/sass/$n.txt
  grep -o "F2FP[.A-Z0-9_]*\|I2F[.A-Z0-9_]*\|F2I[.A-Z0-9_]*\|FRND[.A-Z0-9_]*\|MUFU[.A-Z0-9_]*\|FMNMX[.A-Z0-9_]*" /tmp/$n.sass | sort | uniq -c >> $OUT/sass/$n.txt; done
rm -rf $OUT/fb/*/build
cd $OUT && tar czf s4call1.tgz tc1 tc2 tc3 fb sass && rm -rf tc1 tc2 tc3 fb sass
el done

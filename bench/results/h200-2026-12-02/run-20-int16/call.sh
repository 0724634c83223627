# Session 6, call 3: the i16 fix (fx_int_wrap): inttest, then every program of randgen --seed 2026 with an
# i16 (112 of 250) against the reference (harness --verify-only) and against eager (gpu_check --files), with
# rand_2026_0235's prefixes; torch_check (three processes) throughout; then mask_combine's kernels one by one
# (fusion_bench --kernels) and the fidelity table of the examples (bench/fidelity.sh).
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec_s6
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
mkdir -p $OUT/tc1 $OUT/tc2 $OUT/tc3 $OUT/g $OUT/v $OUT/fb /tmp/r16
G1=fp8_all_floats,fp8_corners,fp8,fp8_quantize,fp8_dequantize,float_casts,quantize_i8
G2=operators,mask_combine,bf16_ops,ints,int_corners,int_literals,dequantize_i8
G3=bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d,div_by_number,number_by_tensor
i=1; for g in $G1 $G2 $G3; do
  ( timeout 300 python3 bench/torch_check.py $F $OUT/tc$i --chain $g > $OUT/tc$i/stdout.txt 2>&1; echo "rc=$?" >> $OUT/tc$i/stdout.txt ) &
  i=$((i+1)); done
nvcc -O3 -arch=sm_90 .dev/inttest.cu -o /tmp/inttest 2>/dev/null && /tmp/inttest > $OUT/inttest.txt 2>&1; el "inttest rc=$?"; grep -c " ok " $OUT/inttest.txt; grep MISMATCH $OUT/inttest.txt
python3 tests/randgen.py --seed 2026 --count 250 --out /tmp/rall >/dev/null; cp $(grep -l i16 /tmp/rall/*.fuse) /tmp/r16/; el "i16 programs: $(ls /tmp/r16 | wc -l)"
ls /tmp/r16/*.fuse | xargs -P 10 -I{} sh -c 'f={}; b=${f%.fuse}; dims=$(sed -n "1s/^# fusec-args: //p" $f | tr " " "\n" | grep -E "^--(dims|sweep)=" | tr "\n" " ")
  sizes=1000003; [ -n "$dims" ] && sizes=4099
  '$F' -w $f -o $b.cu 2>$b.err && nvcc -O3 -arch=sm_90 $b.cu -o $b.bin 2>>$b.err && timeout 100 $b.bin --verify-only --seed 7 --sizes $sizes $dims > $b.log 2>&1; echo "$? $(basename $b)"' > $OUT/v/status.txt
el "reference: $(grep -c '^0 ' $OUT/v/status.txt) of $(wc -l < $OUT/v/status.txt) passed"; grep -v '^0 ' $OUT/v/status.txt
for b in $(grep -v '^0 ' $OUT/v/status.txt | cut -d' ' -f2); do tail -12 /tmp/r16/$b.log; done | head -60
timeout 240 python3 tests/torch/gpu_check.py --fusec $F --out $OUT/g --files /tmp/r16/*.fuse .dev/d235/*.fuse --jobs 10 > $OUT/g/stdout.txt 2>&1; el "gpu_check rc=$?"
grep -E "FAIL|passed" $OUT/g/stdout.txt | cut -c1-300
wait; el "torch_check: $(grep -h 'rc=' $OUT/tc*/stdout.txt | tr '\n' ' ')"
grep -h -E "FAIL|passed|failed" $OUT/tc*/stdout.txt | head -20
timeout 90 python3 bench/fusion_bench.py examples/mask_combine.fuse --fusec $F --sizes 2^24,2^28 --passes 3 --reps 11 --modes cold --kernels 2^28 --out $OUT/fb > $OUT/fb/stdout.txt 2>&1; el "fusion_bench rc=$?"
rm -rf $OUT/fb/build; tail -30 $OUT/fb/stdout.txt
rem=$(( 560 - ($(date +%s) - t0) ))
[ $rem -gt 60 ] && ONLY="seed swiglu gelu_tanh two_out mixed softplus_f64 mask_combine quantize_i8 dequantize_i8 fp8_quantize fp8_dequantize bias_gelu layernorm_affine rmsnorm_scale" RANDOM_N=0 LIMIT=20 REPS=7 timeout $rem bench/fidelity.sh $OUT $F > $OUT/fid_stdout.txt 2>&1; el "fidelity rc=$?"
head -40 $OUT/fidelity.txt 2>/dev/null
cd $OUT && tar czf s6call3.tgz inttest.txt tc1 tc2 tc3 g v fb fidelity.txt fid_stdout.txt fidelity.tgz 2>/dev/null; rm -rf tc1 tc2 tc3 g v fb
el done

# Session 16, call 4: the final build on the GPU. (1) every example, golden chain and random program of
# randgen.py --seed 4242 --count 60 verified by its harness (shaped ones also at C = 1004); (2) torch_check of
# every chain (unfused bit-exact with eager: the new widening rule's casts among them); (3) bench/fidelity.sh on
# six chains (the shaped examples, golden shape_dead_input, the two dequantize examples): the harness calibrates
# gather_gelems, predicted against measured
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
R=/tmp/r; mkdir -p $R/h /tmp/b
save() { tar czf $OUT/results.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
python3 tests/randgen.py --seed 4242 --count 60 --out /tmp/rand > /dev/null
for f in examples/*.fuse; do cp $f /tmp/b/; done
for f in tests/golden/*.fuse; do cp $f /tmp/b/golden_$(basename $f); done
for f in /tmp/rand/*.fuse; do cp $f /tmp/b/; done
ls /tmp/b/*.fuse | xargs -P 16 -I{} sh -c 'f={}; b=${f%.fuse}; args=$(sed -n "1s/^# fusec-args: //p" $f); '"$F"' -w $args $f -o $b.cu 2>$b.err && nvcc -O3 -arch=sm_90 $b.cu -o $b.bin 2>>$b.err || echo "BUILD FAILED $f"' > $R/build.txt
el "built $(ls /tmp/b/*.bin | wc -l) of $(ls /tmp/b/*.fuse | wc -l)"
vsizes() { if grep -q '^in .*\[' $1; then sed -n '1s/^# fusec-args: //p' $1 | tr ' ' '\n' | grep -E '^--(dims|sweep)=' | tr '\n' ' '; echo "--sizes 1,3,64"; else echo "--sizes 1,5,1000,4099"; fi; }
for f in /tmp/b/*.fuse; do echo "$f $(vsizes $f)"; done > /tmp/vlist
xargs -P 6 -L 1 sh -c 'b=${0%.fuse}; n=$(basename $b); timeout 100 $b.bin --verify-only --seed 3 "$@" > '$R'/h/$n.txt 2>&1; echo "$n rc=$? $*"' < /tmp/vlist | sort > $R/verify.txt
for n in bias_gelu layernorm_affine rmsnorm_scale; do
  timeout 60 /tmp/b/$n.bin --verify-only --seed 5 --sizes 1,7,100 --dims=C=1004 > $R/h/${n}_C1004.txt 2>&1; echo "$n rc=$? --dims=C=1004"
done >> $R/verify.txt; el "verified: $(grep -c 'rc=0' $R/verify.txt) of $(wc -l < $R/verify.txt)"; save
timeout 150 python3 bench/torch_check.py $F $R/tc --chain operators,mask_combine,bf16_ops,bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d,ints,int_corners,int_literals,float_casts,div_by_number,number_by_tensor,quantize_i8,dequantize_i8,fp8,fp8_corners,fp8_quantize,fp8_dequantize > $R/tc_stdout.txt 2>&1; el "torch_check rc=$?"; save
ONLY="bias_gelu layernorm_affine rmsnorm_scale golden_shape_dead_input dequantize_i8 fp8_dequantize" RANDOM_N=0 REPS=9 \
  SIZES=4096,65536,1048576,16777216,67108864 LIMIT=60 timeout 200 bash bench/fidelity.sh $R/fid $F > $R/fid_stdout.txt 2>&1
el "fidelity rc=$?"; save
grep -v "rc=0" $R/verify.txt | head; tail -3 $R/tc_stdout.txt; head -12 $R/fid/fidelity.txt

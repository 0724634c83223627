# Session 17's GPU check (prepared without a GPU; run from the repo root with carry [".dev"]).
# (1) every example, golden chain and randgen --seed 4242 --count 60 program verified by its harness;
# (2) bench/torch_check.py on the chains with integers, fp8, shapes: unfused bit-exact with eager;
# (3) fusion_bench --kernels 2^26 on the chains whose unfused kernels spilled before 6adc38e
#     (.dev/s17/chains), with fusec_prev (f9a327d) and fusec (HEAD): each unfused kernel against eager's.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; P=$PWD/.dev/bin/fusec_prev; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
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
el "verified: $(grep -c 'rc=0' $R/verify.txt) of $(wc -l < $R/verify.txt)"; save
timeout 150 python3 bench/torch_check.py $F $R/tc --chain operators,mask_combine,bf16_ops,bias_gelu,layernorm_affine,rmsnorm_scale,shapes_3d,ints,int_corners,int_literals,float_casts,div_by_number,number_by_tensor,quantize_i8,dequantize_i8,fp8,fp8_corners,fp8_quantize,fp8_dequantize > $R/tc_stdout.txt 2>&1; el "torch_check rc=$?"; save
for v in prev new; do B=$F; [ $v = prev ] && B=$P
  timeout 150 python3 bench/fusion_bench.py --fusec $B --out $R/kern_$v --sizes 2^26 --modes cold --passes 1 --kernels 2^26 .dev/s17/chains/*.fuse > $R/kern_$v.txt 2>&1; el "kernels $v rc=$?"; save
done
grep -v "rc=0" $R/verify.txt | head; tail -3 $R/tc_stdout.txt; grep -A30 -i "kernel" $R/kern_new.txt | head -40

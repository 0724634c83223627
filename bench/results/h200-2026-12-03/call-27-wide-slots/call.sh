# Session 13, call R: the build with FX_WIDE_BLOCKS and eager-like scratch slots (unfused), its model
# (intermediate writes hit); Inductor's SASS of f64 chains; the row kernel unrolled / two vectors a thread.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
mkdir -p /tmp/r/sass /tmp/r/sh
for c in bench/chains/lse_f64.fuse bench/chains/sigtanh_f64.fuse; do n=$(basename $c .fuse)
  (timeout 150 python3 .dev/sass.py $c 1048576 /tmp/r/ti_$n > /tmp/r/sass/inductor_$n.sass 2>&1) &
done
ONLY="seed two_out mixed softplus_f64 bench_lse_f64 bench_trig_f32 bench_three_f16" EXTRA="$(ls bench/chains/*.fuse | tr '\n' ' ')" \
  RANDOM_N=0 SIZES=4096,65536,1048576,4194304,16777216 REPS=9 LIMIT=45 timeout 230 bash bench/fidelity.sh /tmp/r/fid $F > $OUT/fidelity_stdout.txt 2>&1; el "fidelity rc=$?"
cp /tmp/r/fid/fidelity.tgz /tmp/r/fid/fidelity.txt $OUT/ 2>/dev/null
wait; tar czf $OUT/sass.tgz -C /tmp/r sass; el sass
CH="examples/seed.fuse examples/two_out.fuse examples/swiglu.fuse bench/chains/lse_f64.fuse examples/softplus_f64.fuse bench/chains/sigtanh_f64.fuse bench/chains/trig_f32.fuse bench/chains/mish_f32.fuse bench/chains/gelu_bf16.fuse bench/chains/three_f16.fuse"
timeout $(( 370 - ($(date +%s) - t0) )) python3 bench/fusion_bench.py --fusec $F --sizes 65536,1048576,2097152,4194304 --passes 3 --reps 9 --modes cold --variants w1024 --out /tmp/fb $CH > $OUT/fusion_bench.txt 2>&1; el "fusion_bench rc=$?"
cp /tmp/fb/table.txt $OUT/ 2>/dev/null
timeout $(( 480 - ($(date +%s) - t0) )) python3 bench/shaped_bench.py /tmp/r/sh base=$F "u2=$F:$(cat .dev/u2.sed)" "x2=$F:$(cat .dev/x2.sed)" --chains layernorm_affine,rmsnorm_scale,shapes_3d,bcast_row > $OUT/shaped_stdout.txt 2>&1; el "shaped rc=$?"
cp /tmp/r/sh/shaped.txt $OUT/ 2>/dev/null
el done

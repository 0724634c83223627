# Session 14, call U: (1) the launch terms' calibration chain against real unfused chains, in one process
# (harness stdout keeps the calibration's k-chain table); seed with its 4 kernels all k1 ("same");
# (2) the row kernel: x loads L1::no_allocate (na), one row a block (r1), both, launch bounds for 16 blocks (lb16).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
mkdir -p /tmp/u/p
cd /tmp/u/p
for c in examples/seed.fuse tests/golden/mish.fuse bench/chains/mish_f32.fuse examples/swiglu.fuse bench/chains/sigtanh_f64.fuse; do n=$(basename $c .fuse)
  $F -w $OLDPWD/$c -o $n.cu && (nvcc -O3 -arch=sm_90 $n.cu -o $n 2>&1 | tail -2) &
done
$F -w $OLDPWD/examples/seed.fuse -o seedsame.cu && sed -i -E 's/seed_k[234]_[a-z]+<unsigned><<</seed_k1_mul<unsigned><<</' seedsame.cu && grep -c "seed_k1_mul<unsigned><<<" seedsame.cu && (nvcc -O3 -arch=sm_90 seedsame.cu -o seedsame 2>&1 | tail -2) &
wait; el built; cd $OLDPWD
for n in seed seedsame mish mish_f32 swiglu sigtanh_f64; do
  timeout 60 /tmp/u/p/$n --no-verify --modes cold,graph --sizes 4096,16384,65536,262144,1048576 --reps 15 --csv /tmp/u/p/$n.csv > /tmp/u/p/$n.txt 2>&1; el "$n rc=$?"
done
tar czf $OUT/probe.tgz -C /tmp/u/p $(cd /tmp/u/p && ls *.txt *.csv)
timeout $(( 420 - ($(date +%s) - t0) )) python3 bench/shaped_bench.py /tmp/u/sh base=$F "na=$F:$(cat .dev/na.sed)" "r1=$F:$(cat .dev/r1.sed)" "r1na=$F:$(cat .dev/r1na.sed)" "lb16=$F:$(cat .dev/lb16.sed)" --inductor --chains layernorm_affine,rmsnorm_scale,bcast_row,bcast_f32,shapes_3d > $OUT/shaped_stdout.txt 2>&1; el "shaped rc=$?"
cp /tmp/u/sh/shaped.txt $OUT/ 2>/dev/null
el done

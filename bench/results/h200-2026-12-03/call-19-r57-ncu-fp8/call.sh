# Session 11, call H: torch_check fp8 on the final build; rand_4242_0057 (shaped, C=33) against its C=32,
# C=1024 and flat forms (cold times + ncu of the fused kernel); the shaped examples against eager and Inductor.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
W=/tmp/h; rm -rf $W; mkdir -p $W $OUT/r57
$F -w --name=chain ./r57.fuse -o $W/r57.cu && $F -w --name=chain ./r57flat.fuse -o $W/r57flat.cu
( nvcc -O3 -arch=sm_90 -lineinfo $W/r57.cu -o $W/r57 & nvcc -O3 -arch=sm_90 -lineinfo $W/r57flat.cu -o $W/r57flat & wait; touch $W/BUILT ) &
timeout 60 python3 bench/torch_check.py $F $OUT/tc --chain fp8 > $OUT/tc_stdout.txt 2>&1; el "torch_check rc=$?"
while [ ! -e $W/BUILT ]; do sleep 1; done; el built
for v in "r57 --dims=B=3,R=61,C=33 --sweep=R --sizes=677867" "r57 --dims=B=3,R=61,C=32 --sweep=R --sizes=699051" \
         "r57 --dims=B=3,R=61,C=1024 --sweep=R --sizes=21845" "r57flat --sizes=67108864"; do
  set -- $v; b=$1; shift
  echo "== $b $*" >> $OUT/r57/times.txt
  timeout 60 $W/$b --no-verify --seed 7 --reps 9 --modes cold "$@" >> $OUT/r57/times.txt 2>&1
done; el times
i=0
for v in "r57 --dims=B=3,R=61,C=33 --sweep=R --sizes=677867" "r57 --dims=B=3,R=61,C=32 --sweep=R --sizes=699051" "r57flat --sizes=67108864"; do
  set -- $v; b=$1; shift; i=$((i+1))
  timeout 90 ncu --set full -k regex:fused_kernel -c 1 -o $OUT/r57/ncu$i $W/$b --no-verify --seed 7 --reps 1 --modes cold "$@" > $OUT/r57/ncu$i.log 2>&1
  ncu --import $OUT/r57/ncu$i.ncu-rep --page details > $OUT/r57/ncu$i.txt 2>&1
done; el ncu
timeout $(( 480 - ($(date +%s) - t0) )) python3 bench/fusion_bench.py examples/bias_gelu.fuse examples/layernorm_affine.fuse examples/rmsnorm_scale.fuse \
  --fusec $F --sizes 2^20,2^24,2^28 --passes 3 --reps 9 --modes cold --out $OUT/fbs > $OUT/fbs_stdout.txt 2>&1; el "fusion_bench rc=$?"
cd $OUT && tar czf callH.tgz r57 tc fbs *.txt 2>/dev/null; rm -rf r57 tc fbs; el done

# Session 9, call B: (1) timing inputs with the special values at the first indices (as verified) against
# without them (the new default), cold/hot at 4K-1M, four examples; (2) the fidelity table of every example,
# and golden chain with the new build (launch terms in rounds, timing inputs without specials).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
mkdir -p /tmp/h $OUT/sp /tmp/fw
C="swiglu softplus_f64 mixed gelu_tanh"
( for n in $C; do ( $F -w --name=$n examples/$n.fuse -o /tmp/h/$n.cu && sed -f .dev/special.sed /tmp/h/$n.cu > /tmp/h/${n}_sp.cu &&
    nvcc -O3 -arch=sm_90 /tmp/h/$n.cu -o /tmp/h/$n && nvcc -O3 -arch=sm_90 /tmp/h/${n}_sp.cu -o /tmp/h/${n}_sp ) & done; wait ) > $OUT/sp/build.txt 2>&1 &
FID_WORK=/tmp/fw PHASE=build RANDOM_N=0 bash bench/fidelity.sh $OUT $F > $OUT/fid_build.txt 2>&1; el "fid build rc=$?"
wait; el "sp builds"
for n in $C; do for v in $n ${n}_sp; do
  timeout 30 /tmp/h/$v --no-verify --seed 7 --reps 30 --modes cold,hot --sizes 4096,65536,1048576 --csv $OUT/sp/$v.csv > $OUT/sp/$v.txt 2>&1
done; done; el "sp"
FID_WORK=/tmp/fw PHASE=run RANDOM_N=0 LIMIT=12 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 timeout $(( 470 - ($(date +%s) - t0) )) bash bench/fidelity.sh $OUT $F > $OUT/fid_run.txt 2>&1; el "fid run rc=$?"
cd $OUT && tar czf callB.tgz sp fidelity* *.txt 2>/dev/null; rm -rf sp fidelity; el done

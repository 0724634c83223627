# Session 10, call G: torch_check's fp8 chain (where on fp8 now), then the fidelity of the shaped chains whose
# last dim is 33 or 257 and of the shaped examples, with the scalar path's columns spaced tpr apart.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
rm -rf /tmp/fs; mkdir -p /tmp/fs
( FID_WORK=/tmp/fs PHASE=build RANDOM_N=100 ONLY="$(cat .dev/shaped2.txt)" bash bench/fidelity.sh $OUT/fb $F > $OUT/fid_build.txt 2>&1; touch /tmp/fs/BUILT ) &
timeout 60 python3 bench/torch_check.py $F $OUT/tc --chain fp8 > $OUT/tc_stdout.txt 2>&1; el "torch_check rc=$?"
while [ ! -e /tmp/fs/BUILT ]; do sleep 2; done; el "build"
FID_WORK=/tmp/fs PHASE=run LIMIT=30 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout $(( 250 - ($(date +%s) - t0) )) bash bench/fidelity.sh $OUT/fr $F > $OUT/fid_run.txt 2>&1; el "fid run rc=$?"
cd $OUT && tar czf callG.tgz fr tc *.txt 2>/dev/null; rm -rf fr fb tc; el done

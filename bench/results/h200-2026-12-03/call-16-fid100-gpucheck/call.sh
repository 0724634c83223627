# Session 10, call E: (1) the fidelity run of the random programs that call D left (.dev/rest.txt);
# (2) floordiv_f32 against Inductor with Inductor's code kept; (3) gpu_check --random-capi 250 against eager.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
export TORCHINDUCTOR_CACHE_DIR=/tmp/ind
mkdir -p $OUT/q $OUT/fr2
[ -e /tmp/fw/BUILT ] && echo "kept build" || { rm -rf /tmp/fw; FID_WORK=/tmp/fw PHASE=build ONLY_RANDOM=1 RANDOM_N=100 ONLY="$(cat .dev/rest.txt)" bash bench/fidelity.sh $OUT/fb $F > $OUT/fid_build.txt 2>&1; }
mv /tmp/fw/done_rand_rand_4242_0087.bin /tmp/fw/src/rand_rand_4242_0087.bin 2>/dev/null; el "fid build"; ls /tmp/fw/src/*.bin | wc -l
FID_WORK=/tmp/fw PHASE=run LIMIT=20 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout 200 bash bench/fidelity.sh $OUT/fr2 $F > $OUT/fid_run2.txt 2>&1; el "fid run rc=$?"
timeout 100 python3 bench/fusion_bench.py bench/chains/floordiv_f32.fuse --keep-inductor \
  --fusec $F --sizes 2^24 --passes 3 --reps 9 --modes cold --out $OUT/q > $OUT/q/stdout.txt 2>&1; el "bench rc=$?"
rm -rf $OUT/q/build
timeout $(( 540 - ($(date +%s) - t0) )) python3 tests/torch/gpu_check.py --fusec $F --out $OUT/g --only-capi --random 0 --random-capi 250 --jobs 14 > $OUT/gpu_check.txt 2>&1; el "gpu_check rc=$?"
cd $OUT && tar czf callE.tgz q fr2 g/*.txt g/*.json *.txt 2>/dev/null; rm -rf q fr2 g fb; el done

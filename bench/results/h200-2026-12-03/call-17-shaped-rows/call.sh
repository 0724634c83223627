# Session 10, call F: the fidelity of every shaped chain (the 36 shaped random programs of --seed 4242, the
# shaped examples and golden chains) with fx_row_threads (a short row takes only the threads it needs).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
rm -rf /tmp/fs; mkdir -p /tmp/fs
FID_WORK=/tmp/fs PHASE=build RANDOM_N=100 ONLY="$(cat .dev/shaped.txt)" bash bench/fidelity.sh $OUT/fb $F > $OUT/fid_build.txt 2>&1; el "build"
cp -r $OUT/fb/fidelity/src /tmp/fs_src
FID_WORK=/tmp/fs PHASE=run LIMIT=30 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout $(( 540 - ($(date +%s) - t0) )) bash bench/fidelity.sh $OUT/fr $F > $OUT/fid_run.txt 2>&1; el "fid run rc=$?"
[ -d $OUT/fr/fidelity ] && cp -r /tmp/fs_src $OUT/fr/fidelity/src
cd $OUT && tar czf callF.tgz fr *.txt 2>/dev/null; rm -rf fr fb; el done

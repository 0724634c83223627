# Session 11, call J: the flat kernel's gather with a static number of dims, shared offsets: shaped_bench old/new at
# C=4096, 4097, 33; r57 at C=33 verified at 2^22 elements and timed; the fidelity of the shaped chains again.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
W=/tmp/j; rm -rf $W /tmp/fs; mkdir -p $W /tmp/fs
( FID_WORK=/tmp/fs PHASE=build RANDOM_N=100 ONLY="$(cat .dev/shaped2.txt)" bash bench/fidelity.sh /tmp/fb $F > $OUT/fid_build.txt 2>&1; touch /tmp/fs/BUILT ) &
$F -w --name=chain .dev/h/r57.fuse -o $W/r57.cu && nvcc -O3 -arch=sm_90 $W/r57.cu -o $W/r57
timeout 100 $W/r57 --verify-only --seed 3 --dims=B=3,R=61,C=33 --sweep=R --sizes=42367 > $OUT/r57_verify.txt 2>&1; el "verify rc=$?"
for v in "--dims=B=3,R=61,C=33 --sweep=R --sizes=677867" "--dims=B=3,R=61,C=32 --sweep=R --sizes=699051"; do
  echo "== r57 $v"; timeout 60 $W/r57 --no-verify --seed 7 --reps 9 --modes cold $v 2>&1 | grep -A1 "^ *n  mode"; done > $OUT/r57times.txt
for c in 0 4097 33; do
  timeout 150 python3 bench/shaped_bench.py /tmp/sb$c old=$PWD/.dev/bin/fusec_old new=$F --cols $c > $OUT/sb$c.txt 2>&1; el "shaped_bench cols=$c rc=$?"
done
while [ ! -e /tmp/fs/BUILT ]; do sleep 1; done; el built
FID_WORK=/tmp/fs PHASE=run LIMIT=30 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout $(( 540 - ($(date +%s) - t0) )) bash bench/fidelity.sh /tmp/fr $F > $OUT/fid_run.txt 2>&1; el "fid run rc=$?"
cp /tmp/fr/fidelity.tgz $OUT/ 2>/dev/null; el done

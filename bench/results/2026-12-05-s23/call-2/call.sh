# Session 23 calls 2..: the fidelity run that call 1 built (build-fid/ on the same machine) goes on where it
# stopped (RESUME=1), the examples and golden chains first, then the random programs, for $1 seconds
# (default 570); OUT gets the CSVs so far (fidelity.tgz) and the table of those.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec_cur; W=$PWD/build-fid; t0=$(date +%s); lim=${1:-570}
ls $W/work/src/*.bin > /dev/null || { echo "build-fid/ is gone: a fresh machine"; exit 3; }
names=$(ls $W/work/src/*.bin | xargs -n1 basename | sed 's/\.bin$//')
for part in "$(echo "$names" | grep -v '^rand_')" "$(echo "$names" | grep '^rand_')"; do
  left=$(( lim - 25 - ($(date +%s) - t0) )); [ $left -gt 20 ] || break
  ONLY="$(echo $part)" RESUME=1 SIZES=4096,65536,1048576,4194304,16777216,268435456 REPS=10 LIMIT=40 PHASE=run \
    FID_WORK=$W/work timeout $left bash bench/fidelity.sh $W/out $F >> $W/out/fid_run.txt 2>&1
  echo "t=$(( $(date +%s) - t0 )) part rc=$? csv=$(ls $W/out/fidelity/*.csv | wc -l)"
done
mkdir -p $W/out/fidelity/logs; cp $W/work/*.log $W/out/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $W/out/fidelity > $W/out/fidelity.txt 2>&1
tar -C $W/out -czf $OUT/fidelity.tgz fidelity fidelity.txt fid_run.txt; tail -n 24 $W/out/fidelity.txt

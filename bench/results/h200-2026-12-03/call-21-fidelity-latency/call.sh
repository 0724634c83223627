# Session 11, call K: the fidelity of every example, golden and bench chain and random programs 0-29 with the
# cold mode's spin (host dispatch hidden) and the model's dependent-chain floor (fma_latency_ns), 2^12..2^24.
# Run twice: the second call runs what the first did not reach (its CSVs in /tmp/fkr2).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
out=/tmp/fkr
if [ ! -e /tmp/fk/BUILT ]; then
  rm -rf /tmp/fk /tmp/fkr /tmp/fkr2; mkdir -p /tmp/fk
  FID_WORK=/tmp/fk PHASE=build RANDOM_N=30 EXTRA="bench/chains/*.fuse" ONLY="$(cat onlyK.txt)" JOBS=16 \
    bash bench/fidelity.sh /tmp/fkb $F > $OUT/fid_build.txt 2>&1; touch /tmp/fk/BUILT; el build
else  # the second call: what the first ran is set aside
  out=/tmp/fkr2; mkdir -p /tmp/fk/done
  for c in /tmp/fkr/fidelity/*.csv; do n=$(basename $c .csv); mv /tmp/fk/src/$n.bin /tmp/fk/done/ 2>/dev/null; done
fi
FID_WORK=/tmp/fk PHASE=run LIMIT=40 REPS=5 SIZES=4096,65536,1048576,16777216 \
  timeout $(( ${BUDGET:-560} - ($(date +%s) - t0) )) bash bench/fidelity.sh $out $F > $OUT/fid_run.txt 2>&1; el "fid run rc=$?"
grep -h "^  fma latency" /tmp/fk/src/*.log 2>/dev/null | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print "fma latency ns: n", NR, "min", a[1], "median", a[int((NR+1)/2)], "max", a[NR]}' > $OUT/latency.txt
grep -h "dfma latency" /tmp/fk/src/*.log 2>/dev/null | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print "dfma latency ns: n", NR, "min", a[1], "median", a[int((NR+1)/2)], "max", a[NR]}' >> $OUT/latency.txt
cp $out/fidelity.tgz $out/fidelity.txt $OUT/ 2>/dev/null
if [ -d $out/fidelity ]; then mkdir -p $out/fidelity/src; cp /tmp/fk/src/*.fuse $out/fidelity/src/; tar czf $OUT/partial.tgz -C $out fidelity; fi
el done

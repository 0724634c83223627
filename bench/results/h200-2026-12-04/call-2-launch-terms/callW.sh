# Session 14, call W: the fidelity table of 100 random programs (randgen.py --seed 4242, 0-99) with the
# build of call V (the third launch term), 2^12..2^28.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
ONLY_RANDOM=1 RANDOM_N=100 LIMIT=12 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout 555 bash bench/fidelity.sh /tmp/w/fid $F > $OUT/fidelity_stdout.txt 2>&1; el "fidelity rc=$?"
if [ ! -f /tmp/w/fid/fidelity.tgz ]; then  # cut short: keep what ran
  python3 bench/fidelity.py /tmp/w/fid/fidelity > /tmp/w/fid/fidelity.txt 2>&1; tar -C /tmp/w/fid -czf /tmp/w/fid/fidelity.tgz fidelity
fi
cp /tmp/w/fid/fidelity.tgz /tmp/w/fid/fidelity.txt $OUT/ 2>/dev/null
el done

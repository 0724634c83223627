# Session 14, call V: the fidelity table of every example, golden chain and bench/chains chain with the
# build whose harness calibrates the third launch term (cold and graph), 2^12..2^28.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
EXTRA="$(ls bench/chains/*.fuse | tr '\n' ' ')" RANDOM_N=0 LIMIT=15 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout 555 bash bench/fidelity.sh /tmp/v/fid $F > $OUT/fidelity_stdout.txt 2>&1; el "fidelity rc=$?"
if [ ! -f /tmp/v/fid/fidelity.tgz ]; then  # cut short: keep what ran
  python3 bench/fidelity.py /tmp/v/fid/fidelity > /tmp/v/fid/fidelity.txt 2>&1; tar -C /tmp/v/fid -czf /tmp/v/fid/fidelity.tgz fidelity
fi
cp /tmp/v/fid/fidelity.tgz /tmp/v/fid/fidelity.txt $OUT/ 2>/dev/null
el done

# Session 14, call X: the fidelity table of every example, golden chain, bench/chains chain and random programs
# 0-39 (randgen.py --seed 4242) with the build that adds the far launch terms and the reuse distance, 2^12..2^28.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
EXTRA="$(ls bench/chains/*.fuse | tr '\n' ' ')" RANDOM_N=40 LIMIT=12 REPS=7 SIZES=4096,65536,1048576,16777216,268435456 \
  timeout 480 bash bench/fidelity.sh /tmp/x/fid $F > $OUT/fidelity_stdout.txt 2>&1; el "fidelity rc=$?"
if [ ! -f /tmp/x/fid/fidelity.tgz ]; then  # cut short: keep what ran
  python3 bench/fidelity.py /tmp/x/fid/fidelity > /tmp/x/fid/fidelity.txt 2>&1; tar -C /tmp/x/fid -czf /tmp/x/fid/fidelity.tgz fidelity
fi
cp /tmp/x/fid/fidelity.tgz /tmp/x/fid/fidelity.txt $OUT/ 2>/dev/null
el done

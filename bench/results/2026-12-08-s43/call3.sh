# Session 43's call 3: the fidelity table of the 14 examples and 24 tests/golden chains (bench/fidelity.sh
# RANDOM_N=0, REPS=10, 2^12-2^24 where the shapes differ; each chain verified at 4099 and 1000003 elements first) with the new build (.dev/new: the
# light unfused kernels in eager's shape) and with HEAD's (.dev/bin, bced2f5), one after the other on one machine.
# Carry .dev; L (seconds, default 170) bounds each build's run. Back as one all.tgz (each build's fidelity.tgz and fidelity.txt).
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
T=/tmp/s43c/out; rm -rf /tmp/s43c; mkdir -p $T; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $T/machine.txt
trap 'tar -C $T -czf $OUT/all.tgz .' EXIT
for b in new bin; do
  SIZES=${SIZES:-4096,16384,65536,262144,1048576,4194304,16777216} RANDOM_N=0 REPS=10 LIMIT=60 timeout ${L:-170} bash bench/fidelity.sh $T/$b $PWD/.dev/$b/fusec > $T/$b.log 2>&1
  echo "t=$(( $(date +%s) - t0 )) $b rc=$?" | tee -a $T/times.txt
done
for b in new bin; do echo "== $b"; head -12 $T/$b/fidelity.txt; done

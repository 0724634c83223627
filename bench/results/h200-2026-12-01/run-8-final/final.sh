# The session's last device call: CUB harnesses (timing, alone), the torch op checks (alone: the
# hot-call timing), then issue 16's device step (new examples' % of copy, test chains, random programs)
# with torch_check beside its random part.
export LD_LIBRARY_PATH=$PWD/.dev/bin; F=$PWD/.dev/bin/fusec
mkdir -p $OUT/cub $OUT/g $OUT/i16
t0=$(date +%s)
if [ -f bench/cub_gpu.sh ]; then STEPS=harness FUSEC=$F timeout 110 sh bench/cub_gpu.sh $OUT/cub > $OUT/cub/stdout.txt 2>&1; echo "cub rc=$?"; fi
echo "t=$(( $(date +%s) - t0 ))"
timeout 200 python3 tests/torch/gpu_check.py --fusec $F --out $OUT/g --random 50 --jobs 14 > $OUT/g/stdout.txt 2>&1; echo "gpu_check rc=$?"
grep -v "\] ok:" $OUT/g/stdout.txt | cut -c1-300 | tail -25
echo "t=$(( $(date +%s) - t0 ))"
(sleep 100; STEPS=torch_check FUSEC=$F timeout 90 sh bench/issue16_gpu.sh $OUT/i16 > $OUT/i16/torch_check_stdout.txt 2>&1) &
STEPS=device RANDOM_N=${RANDOM_N:-100} FUSEC=$F timeout 220 sh bench/issue16_gpu.sh $OUT/i16 > $OUT/i16/device_stdout.txt 2>&1; echo "i16 device rc=$?"
wait
tail -12 $OUT/i16/device_stdout.txt; grep -v "^ok" $OUT/i16/torch_check.txt | tail -12
echo "t=$(( $(date +%s) - t0 ))"
grep -h "harness\|vs cub\|FAIL" $OUT/cub/*.txt | head -20

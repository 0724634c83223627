# Session 27 call 1: session 26's final build (3245609: hot_call_us 1.3, the gathers' slots, the passes,
# one vector for 16-bit busy kernels), never run on a GPU before. (1) bench/device.sh random: programs 0..99
# of tests/randgen.py --seed 2026 (shapes, integers, fp8) built and verified (--verify-only), beside the
# fidelity build of the 14 examples; (2) bench/fusion_bench.py: the flat examples and bench/chains against
# eager, Inductor and CUB, cold, 2^12..2^26, three passes; (3) the fidelity run of the 14 examples,
# 2^12..2^28, REPS=10; (4) --variants e16 on pow_f16 (its old two vectors beside the new one). Everything
# is written under $T and comes back as one all.tgz (the device returns a limited number of files).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c1out; W=/tmp/c1fid; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
EX=$(ls examples/*.fuse | xargs -n1 basename | sed 's/\.fuse$//' | tr '\n' ' ')
( ONLY="$EX" RANDOM_N=0 PHASE=build FID_WORK=$W JOBS=6 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1 ) &
mkdir -p $T/rnd; RANDOM_N=250 RANDOM_FROM=0 RANDOM_TO=99 PHASE_LIMIT=60 timeout 210 bash bench/device.sh $T/rnd $F random > $T/random.txt 2>&1
el "random rc=$?"; tail -n 12 $T/random.txt; wait; el "fidelity built $(ls $W/src/*.bin | wc -l)"
timeout 150 python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2^12,2^16,2^20,2^26 --modes cold --passes 3 \
  $(grep -L "\[" examples/*.fuse) bench/chains/*.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $T/fb/build; tail -n 3 $T/fb.txt
ONLY="$EX" RESUME=1 RANDOM_N=0 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $((490 - $(date +%s) + t0)) bash bench/fidelity.sh $T $F > $T/fid_run.txt 2>&1
el "fidelity rc=$?"; mkdir -p $T/fidelity/logs; cp $W/*.log $T/fidelity/logs/ 2>/dev/null
python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -20
left=$((550 - $(date +%s) + t0)); [ $left -gt 25 ] && timeout $left python3 bench/fusion_bench.py --fusec $F --out $T/va \
  --sizes 2^20,2^26 --modes cold --passes 3 --no-cub --variants e16 bench/chains/pow_f16.fuse > $T/va.txt 2>&1
el "variants rc=$?"; rm -rf $T/va/build; sed -n '/^variants/,/^$/p' $T/va.txt

# Session 30 call 1 (session 29's call 6, run): the fused kernel holding both bodies (the whole chunks'
# and the tail's one element, this build) against session 28's build (81b1c6a, the tail in a second
# kernel) on the random programs whose fused kernel ptxas gave more registers (7: 66 -> 80, 17: 66 -> 72,
# 19: 44 -> 48) and on ones it did not (2, 15, 26), verified, then timed cold and in a graph at 2^20-2^26
# elements and odd sizes beside them (REPS=15, two passes in both orders), then `bench/ab.py`. Carry .dev:
# .dev/bin/fusec-before (81b1c6a) and .dev/bin/fusec (8e789ef). Everything under $T, back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH
T=/tmp/c6out; W=/tmp/c6w; mkdir -p $T $W/before $W/after $W/rg; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
python3 tests/randgen.py --seed 4242 --count 30 --out $W/rg > /dev/null
SIZES="1048576,1048579,4194304,4194307,16777216,16777219,67108864,67108867"
for p in 0002 0007 0015 0017 0019 0026; do echo "p$p|$W/rg/rand_4242_$p.fuse"; done > $T/chains.txt
while IFS='|' read -r name file; do
  fargs=$(sed -n "1s/^# fusec-args: //p" "$file")
  for v in before after; do
    fz=.dev/bin/fusec; [ $v = before ] && fz=.dev/bin/fusec-before
    $fz -w $fargs $file -o $W/$v/$name.cu && echo "$W/$v/$name"
  done
done < $T/chains.txt | xargs -P 16 -I{} sh -c 'nvcc -O3 -arch=sm_90 {}.cu -o {}.bin -Xptxas -v 2> {}.err || echo "BUILD FAILED {}"'
grep -h -A2 "_fused_kernel" $W/*/*.err | grep -E "Compiling|Used" > $T/ptxas.txt; el "built $(ls $W/*/*.bin | wc -l)"
while IFS='|' read -r name file; do
  hargs=$(python3 bench/sweep_sizes.py .dev/bin/fusec "$file" "$SIZES"); vargs=$(python3 bench/sweep_sizes.py .dev/bin/fusec "$file" 4099,1000003)
  echo "$hargs" > $T/args-$name.txt
  for v in before after; do timeout 120 $W/$v/$name.bin --verify-only --seed 7 $vargs > $T/verify-$v-$name.txt 2>&1; echo "verify $v $name rc=$?"; done
done < $T/chains.txt | tee $T/verify.txt
for pass in 1 2; do
  order="before after"; [ $pass = 2 ] && order="after before"
  while IFS='|' read -r name file; do
    for v in $order; do
      timeout 150 $W/$v/$name.bin --no-verify --seed 7 --reps 15 --modes cold,graph $(cat $T/args-$name.txt) --csv $T/$v-$name-p$pass.csv > $T/$v-$name-p$pass.log 2>&1 || echo "rc=$? $v $name $pass"
    done
  done < $T/chains.txt
  el "pass $pass"
  [ $(( $(date +%s) - t0 )) -gt 400 ] && break
done
python3 bench/ab.py $T > $T/ab.txt; tail -n 4 $T/ab.txt

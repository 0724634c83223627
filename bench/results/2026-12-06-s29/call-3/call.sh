# Session 29 call 3: the fused call in one launch (its threads past the whole chunks take the rest) against
# session 28's final build (81b1c6a: a second kernel for the rest), A/B in one call. Each chain built by both
# fusecs (.dev/bin/fusec-before, .dev/bin/fusec), verified at odd sizes, then timed cold and in a graph at
# sizes on both sides of a multiple of E, REPS=15, in two passes (before/after, then after/before).
# Everything under $T, back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH
T=/tmp/c3out; W=/tmp/c3w; mkdir -p $T $W/before $W/after; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
FLAT="4096,4097,65536,65537,1048576,1048579,16777216,16777219"
# name|file|fusec args|harness size args
cat > $T/chains.txt <<L
seed|examples/seed.fuse||--sizes $FLAT
mixed|examples/mixed.fuse||--sizes $FLAT
three_f16|bench/chains/three_f16.fuse||--sizes $FLAT
trig_f32|bench/chains/trig_f32.fuse||--sizes $FLAT
softplus_f64|examples/softplus_f64.fuse||--sizes $FLAT
shape_names|tests/golden/shape_names.fuse|--dims=R=3,u_b=5|--dims=u_b=5 --sweep=R --sizes 273,819,13107,209715,3355443
rms_c4097|examples/rmsnorm_scale.fuse|--dims=C=4097|--dims=C=4097 --sweep=R --sizes 1,16,256,4096
rms_c4096|examples/rmsnorm_scale.fuse|--dims=C=4096|--dims=C=4096 --sweep=R --sizes 1,16,256,4096
L
while IFS='|' read -r name file fargs hargs; do
  for v in before after; do
    fz=.dev/bin/fusec; [ $v = before ] && fz=.dev/bin/fusec-before
    $fz -w $fargs $file -o $W/$v/$name.cu && echo "$W/$v/$name"
  done
done < $T/chains.txt | xargs -P 16 -I{} sh -c 'nvcc -O3 -arch=sm_90 {}.cu -o {}.bin 2> {}.err || echo "BUILD FAILED {}"'
el "built $(ls $W/*/*.bin | wc -l)"
while IFS='|' read -r name file fargs hargs; do
  vs=$(echo "$hargs" | sed 's/--sizes [^ ]*/--sizes 4099,1000003/')
  for v in before after; do timeout 120 $W/$v/$name.bin --verify-only --seed 7 $vs > $T/verify-$v-$name.txt 2>&1; echo "verify $v $name rc=$?"; done
done < $T/chains.txt | tee $T/verify.txt
el verified
for pass in 1 2; do
  order="before after"; [ $pass = 2 ] && order="after before"
  while IFS='|' read -r name file fargs hargs; do
    for v in $order; do
      timeout 100 $W/$v/$name.bin --no-verify --seed 7 --reps 15 --modes cold,graph $hargs --csv $T/$v-$name-p$pass.csv > $T/$v-$name-p$pass.log 2>&1 || echo "rc=$? $v $name $pass"
    done
  done < $T/chains.txt
  el "pass $pass"
  [ $(( $(date +%s) - t0 )) -gt 420 ] && break
done

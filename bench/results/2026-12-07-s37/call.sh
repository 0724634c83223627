# Session 37: one script for every call on one warm machine (the same command each time, carry .dev, HEAD's
# fusec in .dev/bin, 0f8e402's in .dev/base); each call stops within B seconds (default 570) and the next goes
# on where it stopped (state in /tmp/s37-1207, kept while the machine stays warm; a new machine starts over).
# In order: (1) build the fidelity set, the 14 examples, 24 tests/golden chains and programs 0-99 of
# tests/randgen.py --seed 4242 (bench/fidelity.sh PHASE=build); (2) time it (RESUME=1, REPS=10, LIMIT=50) with
# the time left, the whole table in one run; (3) tests/torch/gpu_check.py --only-capi on the 250 random
# programs of --seed 2026; (4) the float // and % rows of bench/opcost_fused.py and bench/fusion_bench.py on the
# fast // against 0f8e402, eager and Inductor (session 35's ready/floordiv-fidelity, first half, at 2^20, 2^24,
# 2^28); (5) bench/opcost_fused.py --dependent; (6) session 34's ready/wide-large. Back as one all.tgz a call.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; S=/tmp/s37-1207; W=$S/work; T=$S/out; t0=$(date +%s)
[ -f $S/calls ] || rm -rf $S; mkdir -p $W $T; echo x >> $S/calls; c=$(wc -l < $S/calls)
el() { echo "call $c t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
left() { echo $((${B:-570} - $(date +%s) + t0)); }
save() { tar -C $T -czf $OUT/all.tgz --exclude=./gc/build --exclude=./fb/build --exclude=./lat/build --exclude=./wide/build .; }; trap save EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | sed "s/^/call $c: /" | tee -a $T/machine.txt
if [ ! -f $S/built ]; then
  JOBS=14 PHASE=build FID_WORK=$W timeout 260 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1
  touch $S/built; el "fidelity built $(ls $W/src/*.bin | wc -l) of $(ls $W/src/*.fuse | wc -l)"
fi
if [ ! -f $S/timed ] && [ $(left) -gt 40 ]; then
  RESUME=1 REPS=10 LIMIT=50 PHASE=run FID_WORK=$W timeout $(left) bash bench/fidelity.sh $T $F >> $T/fid_run.txt 2>&1
  rc=$?; [ $rc = 0 ] && touch $S/timed; el "fidelity rc=$rc, $(ls $T/fidelity/*.csv 2>/dev/null | wc -l) chains timed"
  mkdir -p $T/fidelity/logs; cp $W/*.log $T/fidelity/logs/ 2>/dev/null
  python3 bench/fidelity.py $T/fidelity > $T/fidelity.txt 2>&1; sed -n '/^ALL/,/^median/p' $T/fidelity.txt | head -20
fi
if [ -f $S/timed ] && [ ! -f $S/gc ] && [ $(left) -gt 150 ]; then
  timeout $(left) python3 tests/torch/gpu_check.py --fusec $F --out $T/gc --only-capi --random 0 --random-capi 250 --jobs 14 > $T/gpu_check.txt 2>&1
  rc=$?; touch $S/gc; el "gpu_check rc=$rc"; tail -n 3 $T/gpu_check.txt
fi
D=bench/results/2026-12-06-s34/ready/floordiv-t
if [ -f $S/gc ] && [ ! -f $S/fb ] && [ $(left) -gt 120 ]; then
  timeout 60 python3 bench/opcost_fused.py --fusec $F --out $T/oc --ops floordiv_over_t,rem_over_t,floordiv_num,rem_num \
    --types f32,f16 --data harness > $T/oc.txt 2>&1; el "opcost_fused rc=$?"; tail -n 12 $T/oc.txt
  timeout $(left) python3 bench/fusion_bench.py --fusec $F --baseline .dev/base/fusec --out $T/fb --sizes 2^20,2^24,2^28 \
    --modes cold --passes 3 --no-cub $D/floordiv_t_f32.fuse $D/floordiv_t_mix.fuse bench/chains/floordiv_f32.fuse > $T/fb.txt 2>&1
  rc=$?; touch $S/fb; el "fusion_bench rc=$rc"; sed -n '/^variants/,$p' $T/fb/table.txt | head -40
fi
if [ -f $S/fb ] && [ ! -f $S/lat ] && [ $(left) -gt 60 ]; then
  timeout $(left) python3 bench/opcost_fused.py --fusec $F --out $T/lat --dependent --terms 16 --reps 15 --data harness \
    --types f32,f64 --ops exp,log1p,tanh,sin,erf,pow,div,floordiv_over_t,floordiv_num,rem_num > $T/lat.txt 2>&1
  rc=$?; touch $S/lat; el "latency rc=$rc"; tail -n 30 $T/lat.txt
fi
C="bench/chains/gelu_bf16.fuse bench/chains/mish_f32.fuse bench/chains/gelu_f64.fuse examples/quantize_i8.fuse bench/chains/trig_f32.fuse"
if [ -f $S/lat ] && [ ! -f $S/wide ] && [ $(left) -gt 90 ]; then
  timeout $(left) python3 bench/fusion_bench.py --fusec $F --out $T/wide --sizes 2^25,2^26,2^27,2^28 \
    --modes cold --passes 5 --no-cub --variants w1048576,r8 $C > $T/wide.txt 2>&1
  rc=$?; touch $S/wide; el "wide rc=$rc"; sed -n '/^variants/,$p' $T/wide/table.txt 2>/dev/null | head -30
fi
el "call ends"

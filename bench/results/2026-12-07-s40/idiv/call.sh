# Session 40, call 4: the fused kernel's register rule for integer // and % (src/emit_cuda.c, min_blocks),
# before (.dev/bin/fusec, 8968b53) and after (.dev/new/fusec) on an H100 or H200: the two of session 37's 100
# random programs whose fused kernel's bound the rule changes (11 and 13), and four chains of
# bench/opcost_fused.py (i64 // by a tensor at 4 terms, i8 % by a tensor, i32 // by 7, at 8) whose
# fused kernels the rule gives 64 registers. Each harness verified, then timed cold at 2^20, 2^24, 2^26
# (REPS 10, three passes), old and new in turn, two rounds (the second if B seconds, default 200, have not
# passed). Back as idiv.tgz.
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
S=/tmp/s40-idiv; T=$S/out; rm -rf $S; mkdir -p $S/src $T; t0=$(date +%s)
trap 'tar -C $T -czf $OUT/idiv.tgz .' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $T/machine.txt
python3 - "$S/src" <<'PY'
import sys, tarfile
sys.path.insert(0, "bench"); import opcost_fused as o
d = sys.argv[1]
def put(name, text):
    open("%s/%s.fuse" % (d, name), "w").write(text)
with tarfile.open("bench/results/2026-12-07-s37/calls-1-2/fidelity.tgz") as tf:
    for p in ("0011", "0013"):
        put("rand_%s" % p, tf.extractfile("fidelity/src/rand_rand_4242_%s.fuse" % p).read().decode())
put("floordiv_t_i64_4", o.chain_source("floordiv_t", "i64", 4))
for op, dt in [("rem_t", "i8"), ("floordiv_n", "i32"), ("floordiv_t", "i8")]:
    put("%s_%s_8" % (op, dt), o.chain_source(op, dt, 8))
PY
build() {  # NAME VERSION FUSEC
  $3 -w $S/src/$1.fuse -o $S/$1_$2.cu && nvcc -O3 -arch=sm_90 -Xptxas -v -o $S/$1_$2.bin $S/$1_$2.cu > $T/$1_$2.ptxas 2>&1
}
for s in $S/src/*.fuse; do n=$(basename $s .fuse)
  build $n old $PWD/.dev/bin/fusec & build $n new $PWD/.dev/new/fusec & done; wait
echo "t=$(( $(date +%s) - t0 )) built $(ls $S/*.bin | wc -l)" | tee -a $T/times.txt
for r in 1 2; do [ $r = 2 ] && [ $(( $(date +%s) - t0 )) -gt ${B:-200} ] && break; for s in $S/src/*.fuse; do n=$(basename $s .fuse); for v in old new; do
  a=$(sed -n 's/^# fusec-args: *//p' $s)
  timeout 60 $S/${n}_$v.bin $a --modes cold --reps 10 --passes 3 --sizes=2^20,2^24,2^26 --seed 7 \
    --csv $T/${n}_${v}_$r.csv > $T/${n}_${v}_$r.txt 2>&1
done; done; echo "t=$(( $(date +%s) - t0 )) round $r" | tee -a $T/times.txt; done

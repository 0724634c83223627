# Session 38, ready, not run: the fused kernel's register bound against spills, and the op rows priced from
# spilling chains. Carry .dev (HEAD's fusec in .dev/bin); run the same command twice on one warm machine (state
# in /tmp/s38-regs; each call stops within B seconds, default 560; a new machine starts over). Back as regs.tgz.
# (A) bench/opcost_fused.py at 2 and 4 terms for every op whose chain of 8 spills under nvcc 13 in the instance
#     large n runs (bench/regs.py: f64 erf, exp, gelu 24-48 bytes at 128 registers; f16/bf16 erf, expm1, gelu,
#     log, log2 8-16 at 32; i64 // and % by 7, % by a tensor 4-52; i32 // by 7 32; i8 // and % by a tensor 430
#     and 1302): is the table's row (8 terms) the bound's price, as the i64 // by a tensor's was (calls 4-6)?
# (B) each chain's harness built four ways: as emitted, and with its fused kernel's __launch_bounds__ asking for
#     8, 4 and 1 blocks an SM (64, 128, 255 registers; bench/fusion_bench.py's variants r8, r4, r1), timed cold at
#     2^20, 2^24 and 2^26, two rounds in turn: chains of 8 of the ops above, the i64 // by a tensor at 1, 2, 4 and
#     8 terms, random program 28 of session 37's fidelity table (the one whose fused kernel spills in the instance
#     that runs: 20 bytes at E = 8) and program 7 (80 registers), and compute-heavy chains that do not spill (f32 mish and pow, bench/chains' gelu_bf16, pow_f16,
#     three_f16 and trig_f32), which say what fewer blocks cost where nothing spills;
# (C) bench/fusion_bench.py with those variants on the five bench chains below Inductor in session 37. Offline:
#     python3 bench/results/2026-12-07-s38/ready/regs/table.py OUT (regs.tgz extracted).
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; S=/tmp/s38-regs; T=$S/out; t0=$(date +%s)
[ -f $S/calls ] || rm -rf $S; mkdir -p $S/src $S/bin $T; echo x >> $S/calls; c=$(wc -l < $S/calls)
left() { echo $((${B:-560} - $(date +%s) + t0)); }
save() { tar -C $T -czf $OUT/regs.tgz .; }; trap save EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed "s/^/call $c: /" | tee -a $T/machine.txt
DEV=h200; nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 && DEV=h100
if [ ! -f $S/A ] && [ $(left) -gt 450 ]; then
  for t in 2 4; do
    timeout 80 python3 bench/opcost_fused.py --fusec $F --out $S/oc$t --device $DEV --terms $t --types f64 --ops erf,exp,gelu > $T/oc${t}_f64.txt 2>&1
    timeout 80 python3 bench/opcost_fused.py --fusec $F --out $S/oc$t --device $DEV --terms $t --types f16,bf16 \
      --ops erf,expm1,gelu,log,log2 > $T/oc${t}_half.txt 2>&1
    timeout 80 python3 bench/opcost_fused.py --fusec $F --out $S/oc$t --device $DEV --terms $t --types i64,i32,i8 \
      --ops floordiv_n,rem_n,rem_t,floordiv_t > $T/oc${t}_int.txt 2>&1
  done
  touch $S/A; echo "call $c t=$(( $(date +%s) - t0 )) A done" | tee -a $T/times.txt
fi
if [ ! -f $S/built ] && [ $(left) -gt 200 ]; then
  python3 - "$S/src" <<'PY'
import sys, tarfile
sys.path.insert(0, "bench"); import opcost_fused as o
d = sys.argv[1]
def put(name, text):
    open("%s/%s.fuse" % (d, name), "w").write(text)
for op, dt in [("erf", "f64"), ("exp", "f64"), ("gelu", "f64"), ("gelu", "bf16"), ("erf", "f16"), ("log", "bf16"), ("floordiv_n", "i32"),
               ("expm1", "f16"), ("rem_t", "i8"), ("floordiv_t", "i8"), ("rem_n", "i64"), ("floordiv_n", "i64"),
               ("mish", "f32"), ("pow", "f32")]:
    put("%s_%s_8" % (op, dt), o.chain_source(op, dt, 8))
for t in (1, 2, 4, 8):
    put("floordiv_t_i64_%d" % t, o.chain_source("floordiv_t", "i64", t))
with tarfile.open("bench/results/2026-12-07-s37/calls-1-2/fidelity.tgz") as tf:
    for p in ("0028", "0007"):  # 28: the one fidelity chain whose fused kernel spills (20 B at E = 8); 7: 80 registers
        put("rand_%s" % p, tf.extractfile("fidelity/src/rand_rand_4242_%s.fuse" % p).read().decode())
for b in ("gelu_bf16", "pow_f16", "three_f16", "trig_f32"):
    put(b, open("bench/chains/%s.fuse" % b).read())
PY
  python3 - "$S/src" "$F" <<'PY'
import glob, os, re, subprocess, sys
sys.path.insert(0, "bench"); import fusion_bench as fb
d, fusec = sys.argv[1:3]
for src in sorted(glob.glob(d + "/*.fuse")):
    b = src[:-5]
    subprocess.check_call([fusec, "-w", src, "-o", b + "_as.cu"])
    text = open(b + "_as.cu").read()
    api = re.search(r"(\w+)_fused_kernel\(", text).group(1)
    for v in ("r8", "r4", "r1"):
        open("%s_%s.cu" % (b, v), "w").write(fb.variant_source(text, api, v))
    # the harness's sizes: 2^20, 2^24, 2^26 elements (a shaped chain: its swept dim's sizes that make them)
    args = subprocess.check_output([sys.executable, "bench/sweep_sizes.py", fusec, src, "1048576,16777216,67108864"],
                                   text=True).strip()
    open(b + ".args", "w").write(args + "\n")
PY
  ls $S/src/*.cu | xargs -P 14 -I{} sh -c 'f={}; b=$(basename ${f%.cu}); nvcc -O3 -arch=sm_90 -Xptxas -v "$f" -o '"$S"'/bin/$b > '"$S"'/bin/$b.ptxas 2>&1 || echo "BUILD FAILED $f"'
  mkdir -p $T/ptxas; cp $S/bin/*.ptxas $T/ptxas/; cp $S/src/*.fuse $T/
  touch $S/built; echo "call $c t=$(( $(date +%s) - t0 )) built $(ls $S/bin | grep -vc ptxas) of $(ls $S/src/*.cu | wc -l)" | tee -a $T/times.txt
fi
mkdir -p $T/runs
for r in 1 2; do for f in $(ls $S/src/*.fuse); do b=$(basename ${f%.fuse}); for v in as r8 r4 r1; do
  o=$T/runs/${b}_${v}_$r.txt; [ -s $o ] && continue; [ $(left) -gt 20 ] || break 3
  l=$(( $(left) - 10 )); [ $l -lt 60 ] || l=60
  timeout $l $S/bin/${b}_$v --no-verify $(cat $S/src/$b.args) --modes cold --reps 10 --passes 1 > $o 2>&1
done; done; done
echo "call $c t=$(( $(date +%s) - t0 )) runs $(ls $T/runs | wc -l) of $(( 2 * 4 * $(ls $S/src/*.fuse | wc -l) ))" | tee -a $T/times.txt
# (C) the five bench chains below Inductor at some n >= 2^20 in session 37's call 3 (H100), with the register
#     bound's variants, beside eager and Inductor in one process (a third call if the first two did not reach it)
if [ ! -f $S/C ] && [ $(left) -gt 200 ]; then
  timeout $(left) python3 bench/fusion_bench.py --fusec $F --out $T/fb --sizes 2^20,2^24,2^28 --modes cold --passes 3 \
    --no-cub --variants r8,r4,r1 bench/chains/lse_f64.fuse bench/chains/floordiv_f32.fuse bench/chains/idiv_i32.fuse \
    bench/chains/where_f16.fuse bench/chains/mish_f32.fuse > $T/fb.txt 2>&1
  rc=$?; rm -rf $T/fb/build; [ $rc = 0 ] && touch $S/C; echo "call $c t=$(( $(date +%s) - t0 )) fusion_bench rc=$rc" | tee -a $T/times.txt
fi

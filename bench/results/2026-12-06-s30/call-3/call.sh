# Session 30 call 3 (8e789ef, the fused call in one launch): the fidelity run of 100 programs of tests/randgen.py
# --seed 4242 (verified first), REPS=10, as session 29's call 2 ran them on the build before. Run twice on one
# warm machine: first plain (builds, then times until its limit), then with RESUME=1 (times what the first
# left; writes the table and fidelity.tgz; and verifies call 2's program 223 of --seed 2026, which the H100's
# memory could not hold at 4099 rows of [B, 130, 257] f64, at 64 and 1 rows). Everything under $T, back as
# one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c3out; W=/tmp/c3fid; mkdir -p $T $W; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz --exclude=fidelity .; }; trap save EXIT
E="ONLY_RANDOM=1 RANDOM_N=100 RANDOM_SEED=4242 REPS=10 LIMIT=40 FID_WORK=$W"
if [ -z "${RESUME:-}" ]; then
  env $E PHASE=build JOBS=14 bash bench/fidelity.sh $T $F > $T/fid_build.txt 2>&1; el "built $(ls $W/src/*.bin | wc -l)"
  env $E RESUME=1 PHASE=run timeout $((570 - $(date +%s) + t0)) bash bench/fidelity.sh $T $F > $T/fid_run1.txt 2>&1
else
  env $E RESUME=1 PHASE=run timeout $((480 - $(date +%s) + t0)) bash bench/fidelity.sh $T $F > $T/fid_run2.txt 2>&1
  python3 tests/randgen.py --seed 2026 --count 250 --out $W/r2026 > /dev/null; b=$W/r2026/rand_2026_0223
  $F -w $b.fuse -o $b.cu && nvcc -O3 -arch=sm_90 $b.cu -o $b.bin && timeout 60 $b.bin --verify-only --seed 7 --sizes 64,1 \
    --dims=B=3,R=130,C=257 > $T/verify_2026_0223.txt 2>&1; el "program 223 of --seed 2026 rc=$?"; tail -n 3 $T/verify_2026_0223.txt
fi
el "fidelity rc=$? timed $(ls $T/fidelity/*.csv 2>/dev/null | wc -l)"; tail -n 4 $T/fidelity.txt 2>/dev/null

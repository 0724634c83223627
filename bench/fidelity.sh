#!/bin/bash
# The model's fidelity on the GPU: every example, every tests/golden chain and
# RANDOM_N programs from tests/randgen.py (verified first), each through its
# emitted harness (which calibrates the profile on the GPU in hand), cold, hot
# and in a CUDA graph, at SIZES elements (a shaped chain too: bench/sweep_sizes.py);
# then bench/fidelity.py prints the table of
# |measured / predicted speedup - 1| by mode and size band, per chain and
# over all, and the worst rows.
#   bench/fidelity.sh OUT FUSEC
# RANDOM_N (default 100; 0: none), RANDOM_SEED (4242), ONLY_RANDOM=1 (no
# examples or golden chains), SIZES (default 2^12..2^28 in steps of 4x), REPS
# (default 15), JOBS (parallel nvcc builds, default 16). Each harness first
# verifies its chain at VERIFY_SIZES elements (default 4099,1000003: odd, so
# the tail too) and is timed only if that passes, with --no-verify. Harnesses
# run one at a time (they time the GPU); each step has a limit of LIMIT
# seconds (default 120).
# ONLY="name ..." keeps only those chains (golden_seed, rand_rand_4242_0003, ...).
# Each harness times each size twice over (its --passes 2, since session 23):
# twice the time of a run before that; LIMIT may need raising for long chains.
# RESUME=1 (with PHASE=run and the same OUT): skips the chains that have a CSV
# in OUT already and keeps OUT's folder, so that a sweep too long for one
# command goes on in the next one on the same machine.
# EXTRA="bench/chains/*.fuse" adds other chains, named bench_NAME.
# PHASE=build builds into FID_WORK (a folder) and stops; PHASE=run runs what
# is built there (so that other, untimed GPU work can share the build phase).
set -u
out=$1 fusec=$2
export PATH=/usr/local/cuda/bin:$PATH
work=${FID_WORK:-$(mktemp -d)}
phase=${PHASE:-all}
mkdir -p "$work/src" "$out/fidelity/src"
if [ "$phase" != run ]; then
if [ "${ONLY_RANDOM:-0}" != 1 ]; then
  cp examples/*.fuse "$work/src/"
  for f in tests/golden/*.fuse; do cp "$f" "$work/src/golden_$(basename "$f")"; done
  for f in ${EXTRA:-}; do cp "$f" "$work/src/bench_$(basename "$f")"; done
fi
if [ "${RANDOM_N:-100}" -gt 0 ]; then
  python3 tests/randgen.py --seed "${RANDOM_SEED:-4242}" --count "${RANDOM_N:-100}" --out "$work/rand" >/dev/null
  for f in "$work"/rand/*.fuse; do cp "$f" "$work/src/rand_$(basename "$f")"; done
fi
if [ -n "${ONLY:-}" ]; then
  for f in "$work"/src/*.fuse; do
    case " $ONLY " in *" $(basename "$f" .fuse) "*) ;; *) rm -f "$f" ;; esac
  done
fi
ls "$work"/src/*.fuse | xargs -P "${JOBS:-16}" -I{} sh -c '
  f={}; b=${f%.fuse}
  args=$(sed -n "1s/^# fusec-args: //p" "$f")
  "'"$fusec"'" -w $args "$f" -o "$b.cu" 2>"$b.err" && nvcc -O3 -arch=sm_90 "$b.cu" -o "$b.bin" 2>>"$b.err" ||
    echo "BUILD FAILED $f"'
fi
# a run that does not resume starts from an empty table: a device machine can hand over /tmp with an
# earlier session's OUT in it (session 31's call 2 found nine CSVs of 06:47 that day, which its RESUME=1
# run phase took as timed)
[ "${RESUME:-0}" = 1 ] || rm -f "$out/fidelity/status.txt" "$out"/fidelity/*.csv
if [ "${RESUME:-0}" = 1 ] && [ -f "$out/fidelity/status.txt" ]; then
  # a chain without a CSV runs again: its old line goes
  while read -r rc name rest; do
    [ -f "$out/fidelity/$name.csv" ] && echo "$rc $name${rest:+ $rest}"
  done <"$out/fidelity/status.txt" >"$out/fidelity/status.new"
  mv "$out/fidelity/status.new" "$out/fidelity/status.txt"
fi
cp "$work"/src/*.fuse "$out/fidelity/src/" # beside the CSVs (bench/repredict.py reads them), in either phase
[ "$phase" = build ] && exit 0
for b in "$work"/src/*.bin; do
  name=$(basename "${b%.bin}")
  case " ${ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac # ONLY in the run phase too
  [ "${RESUME:-0}" = 1 ] && [ -f "$out/fidelity/$name.csv" ] && continue
  # the sizes (a shaped chain: its --dims, and the sizes of its swept dim that make SIZES elements)
  args=$(python3 bench/sweep_sizes.py "$fusec" "${b%.bin}.fuse" \
    "${SIZES:-4096,16384,65536,262144,1048576,4194304,16777216,67108864,268435456}")
  # verified first (at VERIFY_SIZES elements: on the host, its double reference is slow at 2^28), then timed
  vargs=$(python3 bench/sweep_sizes.py "$fusec" "${b%.bin}.fuse" "${VERIFY_SIZES:-4099,1000003}")
  if timeout "${LIMIT:-120}" "$b" --verify-only --seed 7 $vargs >"$work/$name.log" 2>&1; then
    timeout "${LIMIT:-120}" "$b" --no-verify --seed 7 --reps "${REPS:-15}" $args \
      --csv "$out/fidelity/$name.csv" >>"$work/$name.log" 2>&1
    echo "$? $name"
  else
    echo "$? $name (verification)"
  fi
done >>"$out/fidelity/status.txt"
# each harness's printout (its calibration, the model's table, the timings) beside its CSV
mkdir -p "$out/fidelity/logs" && cp "$work"/*.log "$out/fidelity/logs/" 2>/dev/null
python3 bench/fidelity.py "$out/fidelity" | tee "$out/fidelity.txt"
tar -C "$out" -czf "$out/fidelity.tgz" fidelity && { [ "${RESUME:-0}" = 1 ] || rm -rf "$out/fidelity"; }

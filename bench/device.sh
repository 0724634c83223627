#!/bin/bash
# Runs on a machine with an NVIDIA GPU: emits the examples with fusec, builds
# them with nvcc, verifies and times every harness (cold, hot, graph), and
# writes everything under OUT as one tarball plus a summary.
#   bench/device.sh OUT FUSEC [examples] [tests] [random] [kernels] [torch]
# examples: every examples/*.fuse (and seed in f16/bf16, swiglu in bf16), full
#   sweep, cold/hot/graph; seed's calibration becomes h200-calibrated.json.
#   EXAMPLES="seed seed_f16" runs only those.
# tests: the test chains (tests/golden, tests/sass), verified at four sizes.
# random: RANDOM_N (default 500) generated programs, verified at RANDOM_SIZES
#   (default 1000003, an odd size so the tail and scalar paths run); with
#   RANDOM_FROM=K (default 0) and RANDOM_TO=M (default RANDOM_N - 1) only
#   programs K..M of them, so that one set can be verified in two calls. A
#   program whose every size needs more device memory than the GPU has is
#   verified at RANDOM_SMALL_SIZES (65537; a shaped one RANDOM_SHAPED_SMALL_SIZES,
#   64 rows) instead, and its status line says so.
# torch: bench/torch_bench.py TORCH_ARGS (default: the seed chain, f32 and f16,
#   2^12..2^28, 5 passes, the fastest pass of each row; runs G and H of
#   docs/results.md used 3 passes and their median), pinned to two CPUs (TORCH_CPUS), then the other
#   examples at 2^28 cold (TORCH_MORE=0 skips them); the PyTorch host costs go
#   into the calibrated profile (measured here if no examples phase ran first)
#   and compare_pytorch.py checks --host=pytorch against it. TORCH_RUNS repeats
#   the seed sweep. TORCH_ARGS="--dtype f32,f16 --passes 1" sweeps every example
#   (a long run).
# kernels: each unfused and fused kernel of the examples at 2^28 elements (a
#   shaped one at its --dims, the swept dim making up 2^28), alone and cold,
#   timed by Nsight Compute (ncu); bench/kernels.py sets them against the copy
#   and their DRAM bytes against the model's (fusec --predict --format=json).
#   KERNELS="mixed" runs only those.
# At the end bench/merge.py puts every harness's and torch's rows into one table,
# results/sweep.csv (and sweep.json). Each harness and torch run has a time
# limit (PHASE_LIMIT seconds, default 480), and the tarball is written even
# when one hangs or the script is stopped.
# FUSEC is a fusec binary (built here, or carried). docs/results.md records
# each run with its date, GPU, driver and this command.
set -u
out=$1 fusec=$2
shift 2
work=$(mktemp -d)
res=$work/results
mkdir -p "$res"
export PATH=/usr/local/cuda/bin:$PATH
arch=${ARCH:-sm_90}
log() { echo "[$(date -u +%H:%M:%S)] $*"; }
limit=${PHASE_LIMIT:-480}
# The tarball is written at the end, and also when the script is stopped
# (timeout 560 bench/device.sh ... keeps what was measured).
finish() {
  [ -f "$res/h200-calibrated.json" ] && python3 bench/merge.py "$res" # sweep.csv, sweep.json: one table
  tar -C "$work" -czf "$out/results.tar.gz" results; log "done: $(du -h "$out/results.tar.gz" | cut -f1)"; }
# stoppable CMD...: CMD in the background, waited for, so that a stop reaches
# the trap at once (bash runs a trap only when the foreground command returns)
# and the trap can end CMD; returns CMD's exit status. CMD keeps the caller's
# standard input (bash gives a background command /dev/null otherwise).
child=""
stoppable() {
  "$@" <&0 &
  child=$!
  wait "$child"
  local rc=$?
  child=""
  return $rc
}
limited() { stoppable timeout "$limit" "$@"; } # CMD under the time limit too
trap 'log "stopped"; [ -n "$child" ] && kill "$child" 2>/dev/null; finish; exit 1' TERM INT

for phase in "$@"; do # every phase name is known before anything runs
  case $phase in
  examples | tests | random | kernels | torch) ;;
  *) echo "bench/device.sh: unknown phase '$phase' (examples, tests, random, kernels, torch)" >&2; exit 2 ;;
  esac
done

{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2; } >"$res/machine.txt" 2>&1
cat "$res/machine.txt"

gpu_cpus() { # the last two CPUs of those local to GPU 0 (its PCI device's local_cpulist)
  local bus list
  bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader -i 0 2>/dev/null | head -n 1)
  bus=$(echo "${bus#????}" | tr 'A-F' 'a-f')
  list=$(cat "/sys/bus/pci/devices/$bus/local_cpulist" 2>/dev/null) || list="0-$(($(nproc) - 1))"
  python3 -c 'import sys
c = []
for p in sys.argv[1].split(","):
    a, _, b = p.partition("-")
    c += range(int(a), int(b or a) + 1)
print(",".join(map(str, c[-2:])))' "$list"
}

dims_of() { # dims_of FILE.fuse: a shaped chain's --dims and --sweep, from its first line "# fusec-args: ..."
  sed -n '1s/^# fusec-args: //p' "$1" | tr ' ' '\n' | grep -E '^--(dims|sweep)=' | tr '\n' ' '
}

build() { # build NAME FILE.fuse [fusec args...]: emit and compile one harness
  local name=$1 src=$2
  shift 2
  "$fusec" -w "$@" --name="$name" "$src" -o "$work/$name.cu" &&
    nvcc -O3 -arch=$arch "$work/$name.cu" -o "$work/$name" 2>"$work/$name.nvcc.log" ||
    { echo "BUILD FAILED: $name"; cat "$work/$name.nvcc.log"; return 1; }
}

build_example() { # build_example NAME: examples/NAME.fuse; NAME_f16 / NAME_bf16 with --dtype
  case $1 in
  *_f16) build "$1" "examples/${1%_f16}.fuse" --dtype=f16 ;;
  *_bf16) build "$1" "examples/${1%_bf16}.fuse" --dtype=bf16 ;;
  *) build "$1" "examples/$1.fuse" ;;
  esac
}

for phase in "$@"; do
  case $phase in
  examples)
    # EXAMPLES (default: all) names the harnesses: an example's name, or NAME_f16 /
    # NAME_bf16 for it built with --dtype. seed comes first: its calibration
    # becomes the profile the others are predicted with.
    ex=${EXAMPLES:-seed seed_f16 seed_bf16 swiglu swiglu_bf16 gelu_tanh two_out mixed softplus_f64 mask_combine quantize_i8 dequantize_i8 fp8_quantize fp8_dequantize}
    log "building the examples: $ex"
    for n in $ex; do
      build_example "$n" &
    done
    wait
    for n in $ex; do
      [ -x "$work/$n" ] || { echo "MISSING $n"; continue; }
      log "running $n"
      extra=""
      [ -f "$res/h200-calibrated.json" ] || extra="--calibrate $res/h200-calibrated.json"
      src=examples/${n%_f16}.fuse; src=${src%_bf16.fuse}; case $src in *.fuse) ;; *) src=$src.fuse ;; esac
      limited "$work/$n" --seed 1 --json "$res/$n.json" --csv "$res/$n.csv" $extra $(dims_of "$src") >"$res/$n.txt" 2>&1
      echo "$n exit $?" | tee -a "$res/status.txt"
      grep -E '^ +2\^(12|22|24|26|28) +cold' "$res/$n.txt"
    done
    ;;
  tests)
    log "building the test chains"
    for f in tests/golden/*.fuse tests/sass/*.fuse; do
      build "test_$(basename "$f" .fuse)" "$f" &
    done
    wait
    for f in tests/golden/*.fuse tests/sass/*.fuse; do
      n=test_$(basename "$f" .fuse)
      [ -x "$work/$n" ] || { echo "MISSING $n" | tee -a "$res/status.txt"; continue; }
      sizes=4096,1000003,2^24,2^26
      [ -n "$(dims_of "$f")" ] && sizes=1,5,1000,4099 # a shaped chain: rows, its other dims at --dims
      limited "$work/$n" --verify-only --seed 3 --sizes $sizes $(dims_of "$f") >"$res/$n.txt" 2>&1
      echo "$n exit $?" | tee -a "$res/status.txt"
    done
    ;;
  random)
    n=${RANDOM_N:-500}
    log "random programs: $n"
    mkdir -p "$work/rand"
    python3 tests/randgen.py --seed 2026 --count "$n" --out "$work/rand" >/dev/null
    from=${RANDOM_FROM:-0} to=${RANDOM_TO:-$((n - 1))}
    for f in "$work/rand"/*.fuse; do
      k=$(basename "$f" .fuse); k=$((10#${k##*_}))
      [ "$k" -ge "$from" ] && [ "$k" -le "$to" ] || rm -f "$f"
    done
    log "random programs $from..$to: $(ls "$work/rand" | wc -l)"
    # Each build and each verification has the time limit; the whole of each
    # xargs runs in the background, so that a stop reaches the trap.
    ls "$work/rand"/*.fuse >"$work/rand_sources.txt"
    stoppable xargs -P 16 -I{} sh -c '
      f={}; b=${f%.fuse}
      "'"$fusec"'" -w "$f" -o "$b.cu" 2>"$b.err" &&
        timeout '"$limit"' nvcc -O3 -arch='"$arch"' "$b.cu" -o "$b.bin" 2>>"$b.err" || echo "BUILD FAILED $f"' \
      <"$work/rand_sources.txt"
    ls "$work/rand"/*.bin >"$work/rand_binaries.txt"
    stoppable xargs -P 8 -I{} sh -c '
      b={}; dims=$(sed -n "1s/^# fusec-args: //p" "${b%.bin}.fuse" | tr " " "\n" | grep -E "^--(dims|sweep)=" | tr "\n" " ")
      sizes='"${RANDOM_SIZES:-1000003}"'
      [ -n "$dims" ] && sizes='"${RANDOM_SHAPED_SIZES:-4099}"' # a shaped program: rows, its other dims at --dims
      timeout '"$limit"' "$b" --verify-only --seed 7 --sizes $sizes $dims >"${b%.bin}.log" 2>&1
      rc=$? at=
      # every size skipped for want of device memory: verify at a smaller size instead, and say so
      if [ $rc = 1 ] && grep -q "no size could be run" "${b%.bin}.log" && grep -q "skipped: needs .* of device memory" "${b%.bin}.log"; then
        at='"${RANDOM_SMALL_SIZES:-65537}"'; [ -n "$dims" ] && at='"${RANDOM_SHAPED_SMALL_SIZES:-64}"'
        timeout '"$limit"' "$b" --verify-only --seed 7 --sizes $at $dims >>"${b%.bin}.log" 2>&1
        rc=$? at=" (every size skipped for device memory; at $at)"
      fi
      echo "$rc $b$at"' <"$work/rand_binaries.txt" >"$res/random_status.txt"
    pass=$(grep -c '^0 ' "$res/random_status.txt"); total=$(wc -l <"$res/random_status.txt")
    small=$(grep -c '^0 .*(every size skipped' "$res/random_status.txt")
    line="random programs verified: $pass of $total passed"
    [ "$small" -gt 0 ] && line="$line ($small of them at the smaller size: every size asked for needed more device memory than this GPU has)"
    echo "$line" | tee "$res/random_summary.txt"
    grep -v '^0 ' "$res/random_status.txt" | head -20 | while read -r rc b _; do
      echo "== $b (exit $rc)"; cp "${b%.bin}.fuse" "$res/" 2>/dev/null; tail -n 15 "${b%.bin}.log"
    done | tee -a "$res/random_summary.txt"
    ;;
  kernels)
    log "each kernel alone, ncu"
    prof=$res/h200-calibrated.json
    ks=${KERNELS:-seed seed_f16 seed_bf16 swiglu swiglu_bf16 gelu_tanh two_out mixed}
    for n in $ks; do
      [ -x "$work/$n" ] || build_example "$n" &
    done
    wait
    for n in $ks; do
      [ -x "$work/$n" ] || continue
      # 2^28 elements: a shaped example's swept dim is 2^28 over its other dims (its --dims)
      src=examples/${n%_f16}.fuse; src=${src%_bf16.fuse}; case $src in *.fuse) ;; *) src=$src.fuse ;; esac
      dims=$(dims_of "$src") size=2^28 pdims=""
      # the profile the table needs, from the first build (a shaped one with its dims: without them its
      # harness wrote none, and bias_gelu, first in the list, had no table; call 4 of session 37)
      [ -f "$prof" ] || "$work/$n" --no-verify --sizes 2^12 $dims --modes hot --calibrate "$prof" >/dev/null 2>&1
      if [ -n "$dims" ]; then
        fixed=$(echo "$dims" | tr ' ' '\n' | sed -n 's/^--dims=//p')
        size=$((1 << 28)) sweep=$(echo "$dims" | tr ' ' '\n' | sed -n 's/^--sweep=//p')
        [ -n "$sweep" ] || sweep=$("$fusec" -w --predict --format=json $dims "$src" | python3 -c 'import json, sys; print(json.load(sys.stdin)["shape"]["sweep"])')
        for d in $(echo "$fixed" | tr ',' ' '); do size=$((size / ${d#*=})); done
        pdims="--dims=$fixed,$sweep=$size"
      fi
      limited ncu --csv --page raw --print-units base --cache-control all --clock-control none \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        -k regex:'_k[0-9]+|_fused_kernel' "$work/$n" --no-verify --sizes $size $dims --modes cold --reps 1 --warmup 0 --passes 1 \
        >"$res/$n.ncu.csv" 2>"$res/$n.ncu.err"
      echo "== $n"
      case $n in  # the model's bytes of the same build (build_example's flags)
      *_f16) "$fusec" -w --predict --format=json --dtype=f16 $pdims "$src" >"$res/$n.predict.json" ;;
      *_bf16) "$fusec" -w --predict --format=json --dtype=bf16 $pdims "$src" >"$res/$n.predict.json" ;;
      *) "$fusec" -w --predict --format=json $pdims "$src" >"$res/$n.predict.json" ;;
      esac
      python3 bench/kernels.py "$prof" "$res/$n.ncu.csv" --predict "$res/$n.predict.json" | tee "$res/$n.kernels.txt"
    done
    ;;
  torch)
    log "torch bench"
    # The PyTorch host costs go into the calibrated profile when the examples
    # phase wrote one in this run.
    if [ ! -f "$res/h200-calibrated.json" ]; then
      build seed examples/seed.fuse &&
        "$work/seed" --no-verify --sizes 2^12 --modes hot --calibrate "$res/h200-calibrated.json" \
          >"$res/calibrate.txt" 2>&1
      grep -A9 '^calibration' "$res/calibrate.txt"
    fi
    # Python's dispatch speed on this host is bimodal when the process may run on
    # any CPU (eager chain 33 or 48 us, compiled call 36 or 60 us, switching every
    # few seconds), so the torch runs are pinned to two CPUs near the GPU
    # (TORCH_CPUS overrides; empty with TORCH_CPUS= to not pin).
    cpus=${TORCH_CPUS-$(gpu_cpus)}
    pin=""
    [ -n "$cpus" ] && command -v taskset >/dev/null && pin="taskset -c $cpus"
    echo "torch runs pinned to CPUs: ${cpus:-none}" | tee "$res/torch_cpus.txt"
    # TORCH_RUNS (default 1) repeats the sweep; run k writes torch.csv (k=1) or
    # torch_runK.csv, its profile and its comparison.
    for k in $(seq 1 "${TORCH_RUNS:-1}"); do
      t=torch; [ "$k" = 1 ] || t=torch_run$k
      prof=""
      [ -f "$res/h200-calibrated.json" ] &&
        prof="--profile-in $res/h200-calibrated.json --profile-out $res/h200-calibrated-$t.json"
      PYTHONUNBUFFERED=1 limited $pin python3 bench/torch_bench.py \
        ${TORCH_ARGS:---chain seed --dtype f32,f16 --passes 5 --estimator min} \
        --csv "$res/$t.csv" --json "$res/$t.json" $prof >"$res/$t.txt" 2>"$res/$t.err"
      echo "$t exit $?" | tee -a "$res/status.txt"
      tail -n 60 "$res/$t.txt"
      tail -n 5 "$res/$t.err"
      # The --host=pytorch prediction against what was just measured.
      if [ -f "$res/h200-calibrated-$t.json" ]; then
        for dt in f32 f16; do
          python3 bench/compare_pytorch.py "$res/$t.csv" "$res/h200-calibrated-$t.json" --dtype $dt \
            --fusec "$fusec" | tee "$res/compare_pytorch_${t}_$dt.txt"
        done
      fi
    done
    if [ "${TORCH_MORE:-1}" = 1 ]; then
      PYTHONUNBUFFERED=1 limited $pin python3 bench/torch_bench.py --chain swiglu,gelu_tanh,two_out,mixed,softplus_f64,mask_combine \
        --dtype f32,bf16 --sizes 2^28 --modes cold --csv "$res/torch_more.csv" --json "$res/torch_more.json" \
        >"$res/torch_more.txt" 2>"$res/torch_more.err"
      echo "torch_more exit $?" | tee -a "$res/status.txt"
      tail -n 12 "$res/torch_more.txt"
      tail -n 3 "$res/torch_more.err"
    fi
    ;;
  esac
done
finish

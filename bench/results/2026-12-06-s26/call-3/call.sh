# Session 26 call 3: this session's build (b3c6273 and later: hot_call_us 1.3, the gathers' slots, the passes,
# one vector for 16-bit busy kernels). (1) fusion_bench --variants: pow_f16 at one vector (now) against two
# (e16), three_f16 and quantize_i8 against their other shape, 2^20 and 2^26, cold, three passes, no CUB;
# (2) bench/device.sh random: tests/randgen.py --seed 2026 programs 0..49 (shapes, integers, fp8) built
# and verified against the harness's reference (--verify-only), as far as the time allows. Everything is
# written under $T and comes back as one all.tgz (the device returns a limited number of files).
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c3out; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt
timeout 80 python3 bench/fusion_bench.py --fusec $F --out $T/va --sizes 2^20,2^26 --modes cold --passes 3 --no-cub \
  --variants e16,e8 bench/chains/pow_f16.fuse bench/chains/three_f16.fuse examples/quantize_i8.fuse > $T/va.txt 2>&1
el "variants rc=$?"; rm -rf $T/va/build; sed -n '/^variants/,/^$/p' $T/va.txt
RANDOM_N=50 PHASE_LIMIT=150 timeout $((230 - $(date +%s) + t0)) bash bench/device.sh $T $F random > $T/random.txt 2>&1
el "random rc=$?"; tail -n 25 $T/random.txt
tar -C $T -czf $OUT/all.tgz .; cp $T/va.txt $T/random.txt $OUT/ 2>/dev/null

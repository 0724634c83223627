# Session 20's build on the H200 (this session had no GPU; for the next one): every example's and golden
# shape_names' emitted harness (cold, hot, graph; verified first), then fusion_bench.py on the examples beside
# eager and torch.compile in one process, with session 19's build's fused kernel as fused@base (the A/B of the
# kernels without the grid-stride loop). Run from the repository root with .dev/bin/fusec (this build) and
# .dev/bin/fusec_s19 (92813d9) carried.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; B=$PWD/.dev/bin/fusec_s19; R=/tmp/r; mkdir -p $R/h
t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
save() { tar czf $OUT/results.tgz --exclude=build --exclude='*.bin' --exclude='*.so' -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/machine.txt
for f in examples/*.fuse tests/golden/shape_names.fuse; do echo $f; done | xargs -P 8 -I{} sh -c \
  'b=/tmp/r/h/$(basename {} .fuse); a=$(sed -n "1s/^# fusec-args: //p" {}); cp {} $b.fuse; '"$F"' -w $a {} -o $b.cu && nvcc -O3 -arch=sm_90 $b.cu -o $b.bin'
el "built $(ls $R/h/*.bin | wc -l)"
for b in $R/h/*.bin; do  # the sizes as bench/fidelity.sh gives them (a shaped chain: its dims)
  args=$(python3 bench/sweep_sizes.py $F ${b%.bin}.fuse 4096,65536,1048576,4194304,8388608,16777216,268435456)
  timeout 60 $b --seed 7 --reps 15 $args --csv ${b%.bin}.csv > ${b%.bin}.txt 2>&1
  echo "$? $(basename $b)"
done > $R/status.txt; el "harnesses"; save
timeout $(( 560 - ($(date +%s) - t0) )) python3 bench/fusion_bench.py --fusec $F --baseline $B --out $R/fb \
  --sizes 2^12,2^20,2^26 --modes cold,hot --passes 3 examples/*.fuse > $R/fb.txt 2>&1; el "fusion_bench rc=$?"; save
cat $R/status.txt | tr '\n' ' '; tail -30 $R/fb.txt

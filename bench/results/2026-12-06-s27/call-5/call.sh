# Session 27 call 5 (the build of 1057dc8): the 1-byte examples below the copy at 2^26 (dequantize_i8 98.7%,
# quantize_i8 98.6% in call 1): launch-shape variants t256 and t64 (threads per block), lb (launch bounds
# for full occupancy) and s0, against the emitted shape, cold, 2^24-2^28, five passes, no CUB. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c5out; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
timeout 280 python3 bench/fusion_bench.py --fusec $F --out $T/va --sizes 2^24,2^26,2^28 --modes cold --passes 5 --no-cub \
  --variants t256,t64,lb,s0 examples/dequantize_i8.fuse examples/quantize_i8.fuse examples/fp8_dequantize.fuse > $T/va.txt 2>&1
el "variants rc=$?"; rm -rf $T/va/build; sed -n '/^chain  /,/^$/p' $T/va/table.txt | head -12; sed -n '/^variants/,/^$/p' $T/va.txt

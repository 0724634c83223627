# Session 27 call 4: is the 7% that call 3 found between identical fused kernels at 4096 elements (fused@y0,
# built into a library of its own, 3.9 us against the chain's library 4.2 us) the order the libraries' modules
# were loaded in? Three variants that leave these light chains' kernels unchanged (y1, y0: FX_TINY_BLOCKS;
# w0: FX_WIDE_BLOCKS), first launched in the order fused, y1, y0, w0; once with CUDA's lazy module loading
# (the default), once with CUDA_MODULE_LOADING=EAGER. Cold, 2^12 and 2^16, five passes, no CUB. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c4out; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
for mode in LAZY EAGER; do
  CUDA_MODULE_LOADING=$mode timeout 200 python3 bench/fusion_bench.py --fusec $F --out $T/$mode --sizes 2^12,2^16 --modes cold \
    --passes 5 --no-cub --variants y1,y0,w0 examples/dequantize_i8.fuse examples/seed.fuse examples/swiglu.fuse > $T/$mode.txt 2>&1
  el "$mode rc=$?"; rm -rf $T/$mode/build; sed -n '/^variants/,/^$/p' $T/$mode.txt
done

# Session 27 call 4 (the build of 1057dc8): is the 7% that call 3 found between identical fused kernels at 4096 elements (fused@y0,
# built into a library of its own, 3.9 us against the chain's library 4.2 us) the order the libraries' modules
# were loaded in? Three variants that leave these light chains' kernels unchanged (y1, y0: FX_TINY_BLOCKS;
# w0: FX_WIDE_BLOCKS), first launched in the order fused, y1, y0, w0; once with CUDA's lazy module loading
# (the default), once with CUDA_MODULE_LOADING=EAGER. Cold, 2^12 and 2^16, five passes, no CUB. Then this
# session's final build's harness (the model's in_again terms, fusec_kernel_bytes) on the seed and the
# LayerNorm epilogue: verified and timed at 4096, 2^20 and 2^24. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c4out; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
for mode in LAZY EAGER; do
  CUDA_MODULE_LOADING=$mode timeout 200 python3 bench/fusion_bench.py --fusec $F --out $T/$mode --sizes 2^12,2^16 --modes cold \
    --passes 5 --no-cub --variants y1,y0,w0 examples/dequantize_i8.fuse examples/seed.fuse examples/swiglu.fuse > $T/$mode.txt 2>&1
  el "$mode rc=$?"; rm -rf $T/$mode/build; sed -n '/^variants/,/^$/p' $T/$mode.txt
done
for ex in seed layernorm_affine; do
  a=$(sed -n "1s/^# fusec-args: //p" examples/$ex.fuse)
  $F -w $a examples/$ex.fuse -o $T/$ex.cu && nvcc -O3 -arch=sm_90 $T/$ex.cu -o $T/$ex.bin &&
    timeout 60 $T/$ex.bin $a --sizes=4096,2^20,2^24 > $T/$ex.txt 2>&1
  el "$ex rc=$?"; rm -f $T/$ex.bin; grep -E "verification|passed|speedup|^ +[0-9]" $T/$ex.txt | tail -12
done

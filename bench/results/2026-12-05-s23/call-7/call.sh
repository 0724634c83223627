# Session 23 call 7: fusion_bench with every fusec version's outputs allocated per call from torch's caching
# allocator, as eager's and Inductor's are (call 6: the same fused kernel 2-5% faster at 2^12-2^16 into
# CUB's buffers than into buffers of its own); fused@base is the same build from a library of its own.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1; F=$PWD/.dev/bin/fusec_s23
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt; cat $OUT/machine.txt
timeout 150 python3 bench/fusion_bench.py --fusec $F --baseline $F --out $OUT/fb --sizes 2^12,2^16 --modes cold --passes 3 \
  examples/seed.fuse examples/quantize_i8.fuse examples/two_out.fuse examples/gelu_tanh.fuse bench/chains/pow_f16.fuse \
  examples/dequantize_i8.fuse > $OUT/fb.txt 2>&1; echo "fb rc=$?"; rm -rf $OUT/fb/build
sed -n '/^cold, GPU/,/^$/p' $OUT/fb/table.txt | cut -c1-100; sed -n '/^variants/,/^$/p' $OUT/fb/table.txt

# Session 37, call 4 (as run, one line; carry .dev)
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH; nvidia-smi --query-gpu=name --format=csv,noheader; KERNELS="$(ls examples/*.fuse | sed 's|examples/||;s|\.fuse||' | tr '\n' ' ') seed_f16 seed_bf16 swiglu_bf16" PHASE_LIMIT=300 timeout 420 bash bench/device.sh $OUT/k $PWD/.dev/bin/fusec kernels > $OUT/kernels.txt 2>&1

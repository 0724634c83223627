# Session 23 call 3 (run by hand right after call 2, on the same H100): the shaped examples, this session's
# build against session 21's, beside eager, Inductor and a copy of their bytes.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1; mkdir -p $OUT/sh
timeout 110 python3 bench/shaped_bench.py $OUT/sh new=$PWD/.dev/bin/fusec_cur s21=$PWD/.dev/bin/fusec \
  --chains bias_gelu,layernorm_affine,rmsnorm_scale --inductor > $OUT/sh.txt 2>&1; echo rc=$?; head -50 $OUT/sh/shaped.txt

# Session 23 call 4: why the fused column at 2^12 is 3-6% slower than fused@base in call 1 (and in session
# 22's call 2), where both run one vector a thread. fused@base here is the same build (.dev/bin/fusec_cur)
# built as a library of its own, without FUSEC_CUB; the fused column is the chain's library: with CUB
# compiled in (fb_cub) and without (fb_nocub, --no-cub). Same chains, 2^12 and 2^16, cold.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec_cur; R=$OUT; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
CH="examples/seed.fuse examples/quantize_i8.fuse bench/chains/pow_f16.fuse examples/two_out.fuse examples/gelu_tanh.fuse examples/fp8_quantize.fuse"
for v in cub nocub; do
  x=; [ $v = nocub ] && x=--no-cub
  timeout 110 python3 bench/fusion_bench.py --fusec $F --baseline $F $x --out $R/fb_$v --sizes 2^12,2^16 --modes cold \
    --passes 3 $CH > $R/fb_$v.txt 2>&1; el "$v rc=$?"
  rm -f $R/fb_$v/build/*.so; sed -n '/^variants/,/^$/p' $R/fb_$v/table.txt
done

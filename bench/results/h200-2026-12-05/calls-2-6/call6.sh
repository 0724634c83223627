# Session 18 call 6: the fused integer-division kernel's shape, A/B: 64 registers and one vector (HEAD) against 32 and two (v2)
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
for v in fusec fusec_v2; do timeout 45 python3 bench/fusion_bench.py --fusec $PWD/.dev/bin/$v --out /tmp/ab_$v --sizes 2^20,2^26 --modes cold --passes 1 .dev/s18/ab/*.fuse 2>&1 | grep -A7 "^chain "; done

# Session 38, call 6 (an H100, as it ran): random program 38's lead, the register bound. The fused kernel of
# 8 i64 // by a tensor (bench/opcost_fused.py's floordiv_t chain, lb.fuse) as fusec emits it (lb_a: its
# __launch_bounds__(FX_THREADS, 2048 / FX_THREADS), 32 registers, 172 bytes spilled under nvcc 13 -O3 sm_90, the 32-bit E = 4 instance)
# and with the minimum of blocks taken out (lb_b: 50 registers, no spill), each timed by its own harness,
# cold, at 2^24 and 2^26, twice, interleaved. Prepared here (HEAD's fusec in .dev/bin), carry .dev:
#   python3 -c "import sys; sys.path.insert(0, 'bench'); import opcost_fused as o; \
#     open('.dev/lb.fuse', 'w').write(o.chain_source('floordiv_t', 'i64', 8))"
#   .dev/bin/fusec -w .dev/lb.fuse -o .dev/lb_a.cu
#   sed 's/__launch_bounds__(FX_THREADS, 2048 \/ FX_THREADS) lb_fused_kernel/__launch_bounds__(FX_THREADS) lb_fused_kernel/' \
#     .dev/lb_a.cu > .dev/lb_b.cu
export PATH=/usr/local/cuda/bin:$PATH; cd .dev && nvcc -O3 -arch=sm_90 lb_a.cu -o lb_a & (cd .dev && nvcc -O3 -arch=sm_90 lb_b.cu -o lb_b); wait; cd .dev; for r in 1 2; do for v in a b; do ./lb_$v --no-verify --sizes 2^24,2^26 --modes cold --reps 10 --passes 1 2>&1 | grep -i "^ *[0-9].*cold\|fused" | tail -3 | sed "s/^/$v: /"; done; done

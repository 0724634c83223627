# Session 35, ready, not run: ready/floordiv-fidelity's first half alone, for a short budget (about 280 s):
# its opcost_fused rows and fusion_bench at 2^20, 2^24, 2^28; with B=280 its fidelity part has no time left and
# is skipped. The same .dev (HEAD in .dev/bin/fusec, 0f8e402 in .dev/base/fusec). Back as one all.tgz.
B=280 SIZES=2^20,2^24,2^28 bash bench/results/2026-12-07-s35/ready/floordiv-fidelity/call.sh

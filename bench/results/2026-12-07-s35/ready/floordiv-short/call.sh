# Session 35, ready, not run: the short form of ready/floordiv-fidelity for the device time left (HEAD in .dev/bin/fusec, src/ and runtime/ as 5a20d4a;
# 0f8e402, the build before the fast float //, in .dev/base/fusec): bench/opcost_fused.py on the float // and %
# rows (f32, f16, the harness's data) for src/ops.c's FLOORDIV_FAST_T_S32, then bench/fusion_bench.py on session
# 34's two tensor-// chains (ready/floordiv-t) and bench/chains/floordiv_f32 (by numbers: unchanged code, the
# noise) at 2^20, 2^24, 2^28, cold, three passes, 0f8e402 as fused@base, beside eager and Inductor, with ulps.
# Carry .dev. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/s35c3out; rm -rf $T; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
D=bench/results/2026-12-06-s34/ready/floordiv-t
timeout 110 python3 bench/opcost_fused.py --fusec $F --out $T/oc --ops floordiv_over_t,rem_over_t,floordiv_num,rem_num \
  --types f32,f16 --data harness > $T/oc.txt 2>&1; el "opcost_fused rc=$?"; rm -rf $T/oc/build; tail -n 12 $T/oc.txt
timeout 170 python3 bench/fusion_bench.py --fusec $F --baseline .dev/base/fusec --out $T/fb --sizes 2^20,2^24,2^28 \
  --modes cold --passes 3 --no-cub $D/floordiv_t_f32.fuse $D/floordiv_t_mix.fuse bench/chains/floordiv_f32.fuse > $T/fb.txt 2>&1
el "fusion_bench rc=$?"; rm -rf $T/fb/build; cat $T/fb/table.txt 2>/dev/null | head -60

# Session 34, ready, not run: float // by a tensor on its fast path (fx_floor_fast, the session's last
# commit) against eager's form (the build before it). Before the call: build that commit's fusec into
# .dev/bin/fusec and the one before it (0f8e402) into .dev/base/fusec; carry .dev. First
# bench/opcost_fused.py measures the slots of 7 // x and the other float % and // rows inside the fused
# kernel (f32 and f16, the harness's data) with the new build, to set src/ops.c's FLOORDIV_FAST_T_S32 (45.0
# is the old row scaled by the instructions); then bench/fusion_bench.py times the two chains here and
# bench/chains/floordiv_f32 (by numbers: the same code in both builds, the noise) at 2^20..2^28, cold, three
# passes, the old build as `fused@base`, beside eager and Inductor, with the ulps of each. Back as one all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
T=/tmp/fdt_ready; rm -rf $T; mkdir -p $T; D=bench/results/2026-12-06-s34/ready/floordiv-t
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $T/machine.txt; cat $T/machine.txt
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
timeout 200 python3 bench/opcost_fused.py --fusec .dev/bin/fusec --out $T/oc --ops floordiv_over_t,rem_over_t,floordiv_num,rem_num \
  --types f32,f16 --data harness > $T/oc.txt 2>&1; echo "opcost_fused rc=$?"; tail -n 12 $T/oc.txt
timeout 250 python3 bench/fusion_bench.py --fusec .dev/bin/fusec --baseline .dev/base/fusec --out $T/fb --sizes 2^20,2^22,2^24,2^26,2^28 \
  --modes cold --passes 3 --no-cub $D/floordiv_t_f32.fuse $D/floordiv_t_mix.fuse bench/chains/floordiv_f32.fuse > $T/fb.txt 2>&1
echo "fusion_bench rc=$?"; rm -rf $T/fb/build; sed -n '/^variants/,$p' $T/fb/table.txt

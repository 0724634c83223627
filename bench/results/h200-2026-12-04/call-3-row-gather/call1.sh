# Session 15, call 1: Inductor's code for the norm epilogues; row-kernel variants timed; ncu of fused variants and Inductor
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/machine.txt
v() { echo "$1=$F:$(cat .dev/$1.sed)"; }
TORCH_LOGS=output_code timeout 300 python3 bench/shaped_bench.py /tmp/a base=$F "$(v cr)" "$(v rpb16)" "$(v cr16)" "$(v flat)" "$(v r1)" --inductor --chains layernorm_affine,rmsnorm_scale,bcast_row,bcast_f32 > $OUT/shaped_stdout.txt 2> $OUT/inductor_code.txt; el "shaped rc=$?"
cp /tmp/a/shaped.txt $OUT/
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__maximum_warps_per_active_cycle_pct
for c in layernorm_affine rmsnorm_scale; do
  timeout 150 ncu --profile-from-start off --clock-control none --cache-control all --metrics $M --csv python3 .dev/ncu_drv.py $c base=$F "$(v cr)" "$(v flat)" "$(v r1)" > $OUT/ncu_$c.csv 2> $OUT/ncu_$c.err; el "ncu $c rc=$?"
done

# Session 16, call 3: (1) the unfused casts up from 1-byte arrays with the new widening rule (old = 1a2dd7c^'s build);
# (2) the norm epilogues' ROW instance at E = 16 (two vectors a thread), at 32 and 64 registers
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; v() { echo "$1=$F:$(cat bench/results/h200-2026-12-04/call-4-final-check/$1.sed)"; }
timeout 200 python3 bench/results/h200-2026-12-04/call-4-final-check/probe_cast.py $PWD/.dev/bin/fusec_prev $F > $OUT/probe_cast.txt 2>&1; echo rc=$?
timeout 200 python3 bench/shaped_bench.py /tmp/s base=$F "$(v e16)" "$(v e16lb)" --chains layernorm_affine,rmsnorm_scale,bcast_row,bias_gelu > /dev/null 2>&1; echo rc=$?
cp /tmp/s/shaped.txt $OUT/shaped_e16.txt
grep -v Warn $OUT/probe_cast.txt | tail -30; grep -E "^[a-z_0-9]+ +[a-z0-9]+ +R=" $OUT/shaped_e16.txt | cut -c1-200

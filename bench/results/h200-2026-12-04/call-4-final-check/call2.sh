# Session 16, call 2: (1) does the output buffer's place explain the norm epilogues' fused / Inductor at 2^26?
# (2) what limits an unfused broadcast kernel: issue slots or loads in flight?
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
timeout 200 python3 bench/results/h200-2026-12-04/call-4-final-check/probe_bk.py $PWD/.dev/bin/fusec > $OUT/probe_bk.txt 2>&1; echo rc=$?
timeout 280 python3 bench/results/h200-2026-12-04/call-4-final-check/probe_place.py $PWD/.dev/bin/fusec > $OUT/probe_place.txt 2>&1; echo rc=$?
grep -v Warn $OUT/probe_bk.txt | tail -30; grep -v Warn $OUT/probe_place.txt | tail -40

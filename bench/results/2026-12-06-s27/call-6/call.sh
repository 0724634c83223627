# Session 27 call 6 (the build of 1057dc8, bench/kernels.py with the write tail): Nsight Compute's DRAM bytes
# of each kernel at 2^28, alone and cold, against the model's (bench/device.sh kernels): softplus_f64, the one
# example no kernels run had covered, then seed and two_out as time allows. One all.tgz.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec; T=/tmp/c6out; mkdir -p $T; t0=$(date +%s); el() { echo "t=$(( $(date +%s) - t0 )) $*" | tee -a $T/times.txt; }
save() { tar -C $T -czf $OUT/all.tgz .; }; trap save EXIT
KERNELS="softplus_f64 seed two_out" PHASE_LIMIT=90 timeout 240 bash bench/device.sh $T $F kernels > $T/kernels.txt 2>&1
el "kernels rc=$?"; grep -E "^==|against|slowest" $T/kernels.txt

# Session 13, call S: Triton's lse_f64 kernel (Inductor's code) PTX/cubin/SASS; fusec's lse cubin SASS.
export LD_LIBRARY_PATH=$PWD/.dev/bin PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
F=$PWD/.dev/bin/fusec
mkdir -p /tmp/t
timeout 100 python3 .dev/sass2.py /tmp/t > /tmp/t/log.txt 2>&1; echo rc=$?
$F -w --name=lse_f64 bench/chains/lse_f64.fuse -o /tmp/t/lse.cu && nvcc -cubin -O3 -arch=sm_90 -DFUSEC_NO_HARNESS /tmp/t/lse.cu -o /tmp/t/fusec_lse.cubin && cuobjdump -sass /tmp/t/fusec_lse.cubin > /tmp/t/fusec_lse.sass
ls /usr/local/lib/python3*/dist-packages/triton/backends/nvidia/bin/ 2>/dev/null; python3 -c "import triton,os;d=os.path.dirname(triton.__file__)+'/backends/nvidia/bin';print(d, os.listdir(d))" ; $(python3 -c "import triton,os;print(os.path.dirname(triton.__file__)+'/backends/nvidia/bin/ptxas')") --version
tar czf $OUT/t.tgz -C /tmp t; cat /tmp/t/log.txt; mkdir -p /tmp/s
# the final build's fidelity on chains call R did not run (held out from the reuse rule's check)
ONLY="swiglu gelu_tanh mask_combine quantize_i8 golden_seed golden_pow golden_where bench_mish_f32 bench_sigtanh_f64 bench_gelu_bf16 bench_pow_f16 bench_cmp_f32" EXTRA="$(ls bench/chains/*.fuse | tr '\n' ' ')" \
  RANDOM_N=0 SIZES=4096,65536,1048576,4194304,16777216 REPS=9 LIMIT=45 timeout 150 bash bench/fidelity.sh /tmp/s/fid $F > $OUT/fidelity_stdout.txt 2>&1; echo "fidelity rc=$?"
cp /tmp/s/fid/fidelity.tgz /tmp/s/fid/fidelity.txt $OUT/ 2>/dev/null
# the fused kernel from its own library (t128: the same source), with and without the CUB version beside it
timeout 150 python3 bench/fusion_bench.py --fusec $F --sizes 4096,65536,1048576 --passes 3 --reps 9 --modes cold --variants t128,t128cub --out /tmp/fb examples/seed.fuse examples/two_out.fuse bench/chains/three_f16.fuse bench/chains/pow_f16.fuse bench/chains/trig_f32.fuse examples/swiglu.fuse > $OUT/fusion_bench.txt 2>&1; echo "fusion_bench rc=$?"

s/__launch_bounds__\(FX_THREADS, 1024 \/ FX_THREADS\) ([a-z_0-9]+_fused_kernel\()/__launch_bounds__(FX_THREADS, 2048 \/ FX_THREADS) \1/

# Cold (sleep, flush, start event, call, end event) times of trivial kernels launched from a .so (small and 240-byte
# parameters), eager's fill_, Inductor's trivial kernel, and the fused layernorm_affine / rmsnorm_scale / seed at small
# sizes against Inductor's: is a fusec call's extra time in the events the launch or the kernel?
import ctypes, os, statistics, subprocess, sys, torch
sys.path.insert(0, "bench")
import shaped_bench as sb, torch_check as tc
F = sys.argv[1]
subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-Xcompiler", "-fPIC", "-shared", ".dev/probe_launch.cu", "-o", "/tmp/probe_launch.so"], check=True)
lib = ctypes.CDLL("/tmp/probe_launch.so")
l2 = torch.cuda.get_device_properties(0).L2_cache_size
flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device="cuda")
o = torch.zeros(1024, device="cuda")
st = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
def cold(fn, reps=31):
    ts = []
    for _ in range(reps):
        torch.cuda._sleep(1_000_000); flush.add_(1.0)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e) * 1e3)
    return statistics.median(ts)
ind = torch.compile(lambda x: x + 1)
ind(o); ind(o)
fns = {"so_small_1blk": lambda: lib.launch_small(ctypes.c_void_p(o.data_ptr()), 1, st()),
       "so_big_1blk": lambda: lib.launch_big(ctypes.c_void_p(o.data_ptr()), 1, st()),
       "so_small_32blk": lambda: lib.launch_small(ctypes.c_void_p(o.data_ptr()), 32, st()),
       "so_big_32blk": lambda: lib.launch_big(ctypes.c_void_p(o.data_ptr()), 32, st()),
       "eager_fill": lambda: o.fill_(1.0), "inductor_x+1_1024": lambda: ind(o), "empty": lambda: None}
for p in range(3):
    print("pass", p, " ".join("%s=%.2f" % (k, cold(f)) for k, f in fns.items()), flush=True)
# fused chains at small sizes against Inductor
for name, dims_list in (("layernorm_affine", [{"R": 1, "C": 4096}, {"R": 16, "C": 4096}, {"R": 256, "C": 4096}]),
                        ("rmsnorm_scale", [{"R": 1, "C": 4096}, {"R": 16, "C": 4096}, {"R": 256, "C": 4096}])):
    src, fn = tc.CHAINS[name][0], tc.CHAINS[name][1]
    for dims in dims_list:
        lib2, desc = sb.build("/tmp", F, "", name, src, dims, "p%d" % dims["R"])
        ins = [tc.make_input(i["dtype"], tc.sizes_of(i["shape"], dims), 1000 + k) for k, i in enumerate(desc["inputs"])]
        params = [(p["value"], p["dtype"]) for p in desc["params"]]
        outs = [torch.empty(tc.sizes_of(desc["shape"]["shape"], dims), device="cuda", dtype=tc.TORCH_DTYPE[x["dtype"]]) for x in desc["outputs"]]
        fused = sb.api(lib2, name, "fused", ins, outs, params, [dims[d] for d in desc["shape"]["dims"]])
        comp = torch.compile(fn); call = lambda: comp(*ins, *[v for v, _ in params])
        for _ in range(3): call()
        r = {"fused": [], "inductor": [], "eager": []}
        for _ in range(3):
            r["fused"].append(cold(fused)); r["inductor"].append(cold(call)); r["eager"].append(cold(lambda: fn(*ins, *[v for v, _ in params])))
        m = {k: statistics.median(v) for k, v in r.items()}
        print("%s %s: fused %.2f us, inductor %.2f us (fused / inductor %.3f), eager %.2f" % (name, dims, m["fused"], m["inductor"], m["fused"] / m["inductor"], m["eager"]), flush=True)

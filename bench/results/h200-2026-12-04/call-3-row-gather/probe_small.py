# Cold (sleep, flush, start event, call, end event) times of trivial kernels launched from a .so (small and 240-byte
# parameters), eager's fill_, Inductor's trivial kernel, and the fused layernorm_affine / rmsnorm_scale / seed at small
# sizes against Inductor's: is a fusec call's extra time in the events the launch or the kernel?
import ctypes, os, statistics, subprocess, sys, torch
sys.path.insert(0, "bench")
import shaped_bench as sb, torch_check as tc
F = sys.argv[1]
VARIANTS = [("base", ""), ("e8", "1i #define FX_SMALL_BLOCKS 1")]
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
# fused chains at small sizes against Inductor
from concurrent.futures import ThreadPoolExecutor
CH = ("layernorm_affine", "rmsnorm_scale", "bias_gelu")
jobs = [(n, t, sed) for n in CH for t, sed in VARIANTS]
with ThreadPoolExecutor(8) as ex:
    B = dict(zip([(n, t) for n, t, _ in jobs], ex.map(lambda j: sb.build("/tmp", F, j[2], j[0], tc.CHAINS[j[0]][0], {"R": 16, "C": 4096}, j[1]), jobs)))
for name, dims_list in (("layernorm_affine", [{"R": r, "C": 4096} for r in (1, 4, 16, 64, 256)]),
                        ("rmsnorm_scale", [{"R": r, "C": 4096} for r in (1, 4, 16, 64, 256)]), ("bias_gelu", [{"R": r, "C": 4096} for r in (1, 16, 256)])):
    src, fn = tc.CHAINS[name][0], tc.CHAINS[name][1]
    for dims in dims_list:
        built = [(tag,) + B[(name, tag)] for tag, _ in VARIANTS]
        desc = built[0][2]
        ins = [tc.make_input(i["dtype"], tc.sizes_of(i["shape"], dims), 1000 + k) for k, i in enumerate(desc["inputs"])]
        params = [(p["value"], p["dtype"]) for p in desc["params"]]
        outs = [torch.empty(tc.sizes_of(desc["shape"]["shape"], dims), device="cuda", dtype=tc.TORCH_DTYPE[x["dtype"]]) for x in desc["outputs"]]
        fns = {tag: sb.api(lib2, name, "fused", ins, outs, params, [dims[d] for d in desc["shape"]["dims"]]) for tag, lib2, _ in built}
        comp = torch.compile(fn); fns["inductor"] = lambda: comp(*ins, *[v for v, _ in params])
        for _ in range(3): fns["inductor"]()
        r = {k: [] for k in fns}
        for _ in range(5):
            for k, f in fns.items():
                r[k].append(cold(f))
        m = {k: statistics.median(v) for k, v in r.items()}
        print("%s %s: %s" % (name, dims, ", ".join("%s %.2f us (/ind %.3f)" % (k, v, v / m["inductor"]) for k, v in m.items())), flush=True)

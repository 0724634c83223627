# ncu driver: each variant's fused kernel and torch.compile's kernel, once each, inside a profiler range
import os, sys, torch
sys.path.insert(0, "bench")
import shaped_bench as sb, torch_check as tc
name, variants = sys.argv[1], sys.argv[2:]
if name in sb.SHAPED:
    src, fn, dims = tc.CHAINS[name][0], tc.CHAINS[name][1], sb.SHAPED[name]
else:
    src, fn, dims = sb.ONE_OP[name]
os.makedirs("/tmp/ncu", exist_ok=True)
calls = []
for v in variants:
    tag, spec = v.split("=", 1)
    fusec, _, sed = spec.partition(":")
    lib, desc = sb.build("/tmp/ncu", fusec, sed, name, src, dims, tag)
    ins = [tc.make_input(i["dtype"], tc.sizes_of(i["shape"], dims), 1000 + k) for k, i in enumerate(desc["inputs"])]
    params = [(p["value"], p["dtype"]) for p in desc["params"]]
    api_dims = [dims[d] for d in desc["shape"]["dims"]]
    outs = [torch.empty(tc.sizes_of(desc["shape"]["shape"], dims), device="cuda", dtype=tc.TORCH_DTYPE[o["dtype"]])
            for o in desc["outputs"]]
    calls.append(sb.api(lib, name, "fused", ins, outs, params, api_dims))
compiled = torch.compile(fn)
for _ in range(3):
    compiled(*ins, *[v for v, _ in params])
torch.cuda.synchronize()
torch.cuda.profiler.start()
for c in calls:
    c()
compiled(*ins, *[v for v, _ in params])
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("variants in order:", [v.split("=")[0] for v in variants], "+ inductor")

# Does the output buffer's place explain fused / Inductor at 2^26 for the norm epilogues?
# Fused with: its preallocated output (as shaped_bench), a fresh torch.empty each call (as Inductor's
# output comes from the caching allocator), views of one big buffer at 8 offsets; Inductor; the copy.
# Cold (1 ms sleep, write flush of 2x L2, events), 5 interleaved passes of 15 calls, medians.
import statistics, sys, torch
sys.path.insert(0, "bench")
import shaped_bench as sb, torch_check as tc
F = sys.argv[1]
l2 = torch.cuda.get_device_properties(0).L2_cache_size
flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device="cuda")
for name in ("layernorm_affine", "rmsnorm_scale", "bcast_row"):
    if name in sb.SHAPED:
        src, fn, dims = tc.CHAINS[name][0], tc.CHAINS[name][1], sb.SHAPED[name]
    else:
        src, fn, dims = sb.ONE_OP[name]
    lib, desc = sb.build("/tmp", F, "", name, src, dims, "pl")
    ins = [tc.make_input(i["dtype"], tc.sizes_of(i["shape"], dims), 1000 + k) for k, i in enumerate(desc["inputs"])]
    params = [(p["value"], p["dtype"]) for p in desc["params"]]
    api_dims = [dims[d] for d in desc["shape"]["dims"]]
    shape = tc.sizes_of(desc["shape"]["shape"], dims)
    odt = tc.TORCH_DTYPE[desc["outputs"][0]["dtype"]]
    out0 = torch.empty(shape, device="cuda", dtype=odt)
    nel = out0.numel()
    big = torch.empty(nel + 9 * (1 << 20), device="cuda", dtype=odt)
    fns = {"fused": sb.api(lib, name, "fused", ins, [out0], params, api_dims)}
    def fresh():
        o = torch.empty(shape, device="cuda", dtype=odt)
        sb.api(lib, name, "fused", ins, [o], params, api_dims)()
    fns["fused_fresh"] = fresh
    for k in (0, 1, 2, 3, 5, 8):  # offsets of k MiB elements (k * 2 MiB bytes for bf16)
        fns["fused_off%d" % k] = sb.api(lib, name, "fused", ins, [big[k << 20: (k << 20) + nel].view(shape)], params, api_dims)
    comp = torch.compile(fn, dynamic=False)
    fns["inductor"] = lambda: comp(*ins, *[v for v, _ in params])
    for _ in range(3): fns["inductor"]()
    nb = nel * out0.element_size()
    a, b = torch.empty(nb, dtype=torch.uint8, device="cuda"), torch.empty(nb, dtype=torch.uint8, device="cuda")
    fns["copy_out"] = lambda: b.copy_(a)
    r = {k: [] for k in fns}
    for _ in range(5):
        for k, f in fns.items():
            r[k].append(sb.cold_us(f, flush, 15))
    m = {k: statistics.median(v) for k, v in r.items()}
    print("%s %s: out at %#x, inductor's out at %#x" % (name, dims, out0.data_ptr(), comp(*ins, *[v for v, _ in params]).data_ptr()))
    for k, v in m.items():
        print("   %-12s %7.2f us  (/ inductor %.3f)   passes %s" % (k, v, v / m["inductor"], " ".join("%.1f" % x for x in r[k])), flush=True)
    del ins, out0, big, a, b

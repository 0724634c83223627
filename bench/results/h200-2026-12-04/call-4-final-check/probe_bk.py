# What limits an unfused broadcast kernel (eager's elementwise_kernel<128, 4> form: 4 elements a thread, 128 apart,
# each operand's offset computed per element)? y = x * s with x of 1, 2, 4, 8 bytes and s: f32[R, 1] or f32[C]
# (R = 16384, C = 4096, 2^26 elements), unfused (one broadcast kernel) and fused (ROW), and flat y = x * 2.5
# (vectorized unfused kernel), cold (1 ms sleep, write flush, events), median of 5 interleaved passes of 15.
# Issue-bound: the same elements a second whatever x's size; loads in flight: elements a second grow with x's bytes.
import statistics, sys, torch
sys.path.insert(0, "bench")
import shaped_bench as sb, torch_check as tc
F = sys.argv[1]
l2 = torch.cuda.get_device_properties(0).L2_cache_size
flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device="cuda")
dims = {"R": 16384, "C": 4096}
fns, meta = {}, {}
keep = []
for dt in ("i8", "f16", "f32", "f64"):
    for sh in ("[R, 1]", "[C]", None):
        name = "bk_%s_%s" % (dt, {"[R, 1]": "row", "[C]": "col", None: "flat"}[sh])
        src = ("in x: %s[R, C]\nin s: f32%s\ny = x * s\n" % (dt, sh)) if sh else ("in x: %s[R, C]\ny = x * 2.5\n" % dt)
        lib, desc = sb.build("/tmp", F, "", name, src, dims, "bk")
        ins = [tc.make_input(i["dtype"], tc.sizes_of(i["shape"], dims), 1000 + k) for k, i in enumerate(desc["inputs"])]
        odt = tc.TORCH_DTYPE[desc["outputs"][0]["dtype"]]
        out = torch.empty(tc.sizes_of(desc["shape"]["shape"], dims), device="cuda", dtype=odt)
        keep += [ins, out]
        api_dims = [dims[d] for d in desc["shape"]["dims"]]
        nb = sum(t.numel() * t.element_size() for t in ins) + out.numel() * out.element_size()
        for v in ("unfused", "fused"):
            fns[name + " " + v] = sb.api(lib, name, v, ins, [out], [], api_dims)
            meta[name + " " + v] = nb
a, b = torch.empty(1 << 28, dtype=torch.uint8, device="cuda"), torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
fns["copy 2^28 B"] = lambda: b.copy_(a); meta["copy 2^28 B"] = 1 << 29
for f in fns.values(): f()
torch.cuda.synchronize()
r = {k: [] for k in fns}
for _ in range(5):
    for k, f in fns.items():
        r[k].append(sb.cold_us(f, flush, 15))
n = dims["R"] * dims["C"]
for k in fns:
    m = statistics.median(r[k])
    print("%-22s %8.1f us  %6.0f GB/s  %6.1f Gel/s   passes %s" % (k, m, meta[k] / m / 1e3, n / m / 1e3, " ".join("%.1f" % x for x in r[k])), flush=True)

# Unfused casts up from 1-byte arrays (the widening rule changed in session 16: no two vectors a thread
# where the widest array is only written): eager, fusec's unfused old and new, fused, at 2^26 and 2^22,
# cold (1 ms sleep, write flush, events), median of 5 interleaved passes of 15.
import ctypes, json, statistics, subprocess, sys, torch
sys.path.insert(0, "bench")
import shaped_bench as sb, torch_check as tc
FO, F = sys.argv[1], sys.argv[2]
l2 = torch.cuda.get_device_properties(0).L2_cache_size
flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device="cuda")
def load(path):
    return open(path).read() if "\n" not in path else path
CH = {"dequantize_i8": (load(tc.CHAINS["dequantize_i8"][0]), tc.CHAINS["dequantize_i8"][1]),
      "fp8_dequantize": (load(tc.CHAINS["fp8_dequantize"][0]), tc.CHAINS["fp8_dequantize"][1]),
      "i8_to_f32": ("in x: i8\ny = x * 2.5\n", lambda x: x * 2.5),
      "bool_to_f16": ("in m: bool\ny = f16(m)\n", lambda m: m.half()),
      "u8_to_bf16": ("in q: u8\ny = bf16(q)\n", lambda q: q.bfloat16())}
def build(fusec, name, src, tag):
    p = "/tmp/%s_%s" % (name, tag)
    open(p + ".fuse", "w").write(src)
    subprocess.run([fusec, "-w", "--name=" + name, p + ".fuse", "-o", p + ".cu"], check=True)
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared", p + ".cu", "-o", p + ".so"], check=True)
    desc = json.loads(subprocess.run([fusec, "-w", "--predict", "--format=json", "--name=" + name, p + ".fuse"], check=True, capture_output=True, text=True).stdout)
    return ctypes.CDLL(p + ".so"), desc
for name, (src, fn) in CH.items():
    lo, desc = build(FO, name, src, "old")
    ln, _ = build(F, name, src, "new")
    for n in (1 << 26, 1 << 22):
        ins = [tc.make_input(i["dtype"], n, 1000 + k) for k, i in enumerate(desc["inputs"])]
        params = [(p["value"], p["dtype"]) for p in desc["params"]]
        outs = [torch.empty(n, device="cuda", dtype=tc.TORCH_DTYPE[o["dtype"]]) for o in desc["outputs"]]
        fns = {"eager": lambda: fn(*ins, *[v for v, _ in params]),
               "unfused_old": sb.api(lo, name, "unfused", ins, outs, params, [n]),
               "unfused_new": sb.api(ln, name, "unfused", ins, outs, params, [n]),
               "fused": sb.api(ln, name, "fused", ins, outs, params, [n])}
        for f in fns.values(): f()
        r = {k: [] for k in fns}
        for _ in range(5):
            for k, f in fns.items():
                r[k].append(sb.cold_us(f, flush, 15))
        m = {k: statistics.median(v) for k, v in r.items()}
        print("%-15s n=2^%d: %s; eager / unfused old %.3f new %.3f" % (name, n.bit_length() - 1, ", ".join("%s %.1f" % kv for kv in m.items()),
              m["eager"] / m["unfused_old"], m["eager"] / m["unfused_new"]), flush=True)
        ref = fn(*ins, *[v for v, _ in params])
        fns["unfused_new"](); torch.cuda.synchronize()
        same = torch.equal(outs[0].view(torch.uint8) if outs[0].element_size() == 1 else outs[0], ref.view(torch.uint8) if ref.element_size() == 1 else ref) if ref.dtype == outs[0].dtype else "dtype differs"
        print("   unfused new equals eager bit for bit: %s" % same, flush=True)

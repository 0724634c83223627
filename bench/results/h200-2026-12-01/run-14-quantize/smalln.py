# Why does fusion_bench time "fused" ~0.6 us slower than the same kernel as "fused@base" at 4096?
# Libraries: A = .cu built with -DFUSEC_CUB (as fusion_bench's main lib), B = without. Output buffers
# o1 / o2. Cold: sleep, flush, event, call, event; interleaved; median of 41.
import ctypes, subprocess, sys, os, statistics, torch
F = sys.argv[1]; out = sys.argv[2]; os.makedirs(out, exist_ok=True)
chains = sys.argv[3:]
flush = torch.empty(2 * (60 << 20) // 4, dtype=torch.int32, device="cuda")
for _ in range(200): flush.zero_()
torch.cuda.synchronize()
s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
s.record(); torch.cuda._sleep(1000000); e.record(); e.synchronize()
cyc = int(500 / (s.elapsed_time(e) * 1e3 / 1e6))
res = []
for path in chains:
    name = os.path.basename(path)[:-5]
    cu = "%s/%s.cu" % (out, name)
    subprocess.check_call([F, "-w", path, "-o", cu])
    libs = {}
    for tag, extra in (("cub", ["-DFUSEC_CUB"]), ("nocub", [])):
        so = "%s/lib%s_%s.so" % (out, name, tag)
        subprocess.check_call(["nvcc", "-O3", "-arch=sm_90", "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared"] + extra + [cu, "-o", so])
        libs[tag] = ctypes.CDLL(so)
    for n in (4096, 65536, 1 << 20):
        x = torch.randn(n, device="cuda") * 3
        o1 = torch.empty(n, device="cuda"); o2 = torch.empty(n, device="cuda")
        st = torch.cuda.current_stream().cuda_stream
        calls = {}
        for tag, lib in libs.items():
            fn = getattr(lib, name + "_fused")
            fn.argtypes = [ctypes.c_void_p] * 2 + [ctypes.c_size_t, ctypes.c_void_p]
            for oname, o in (("o1", o1), ("o2", o2)):
                calls["%s/%s" % (tag, oname)] = (lambda fn=fn, o=o: fn(x.data_ptr(), o.data_ptr(), n, st))
        calls["copy"] = lambda: o1.copy_(x)
        calls["torch_mul"] = lambda: torch.mul(x, 2.0, out=o1)
        for f in calls.values(): f()
        torch.cuda.synchronize()
        samp = {k: [] for k in calls}
        order = list(calls)
        for r in range(41):
            pairs = []
            for k in (order if r % 2 == 0 else order[::-1]):
                a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
                torch.cuda._sleep(cyc); flush.zero_(); a.record(); calls[k](); b.record(); pairs.append((k, a, b))
            torch.cuda.synchronize()
            for k, a, b in pairs: samp[k].append(a.elapsed_time(b) * 1e3)
        line = "%-10s n=%-8d " % (name, n) + " ".join("%s %.2f" % (k, statistics.median(v)) for k, v in samp.items())
        print(line, flush=True); res.append(line)
open(out + "/smalln.txt", "w").write("\n".join(res) + "\n")

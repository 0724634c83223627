# Session 19: f16 sigmoid, eager / Inductor / fusec's unfused and fused kernels and variants, at 2^26.
# python3 probe_sig.py FUSEC OUTDIR [--ncu]   (under ncu: each version runs twice, no timing)
import ctypes, os, subprocess, sys, statistics, random
import torch
fusec, out = sys.argv[1], sys.argv[2]
under_ncu = "--ncu" in sys.argv
os.makedirs(out, exist_ok=True)
chains = {"sig": "in x: f16\ny = sigmoid(x)\n", "spsq": "in x: f16\ny = sqrt(softplus(x))\n"}
variants = {  # name: (sed-like replacements on the .cu, extra nvcc flags)
    "base": ([], []),
    "nocap": ([("__launch_bounds__(FX_THREADS, 2048 / FX_THREADS) %s_k1", "__launch_bounds__(FX_THREADS) %s_k1")], []),
    "e8": ([], ["-DFX_WIDE_BLOCKS=1000000000"]),
}
libs = {}
for c, text in chains.items():
    src = os.path.join(out, c + ".fuse")
    open(src, "w").write(text)
    cu = os.path.join(out, c + ".cu")
    subprocess.check_call([fusec, src, "-o", cu])
    base = open(cu).read()
    for v, (reps, flags) in variants.items():
        s = base
        for a, b in reps:
            a, b = (a % c, b % c) if "%s" in a else (a, b)
            assert a in s, (v, a)
            s = s.replace(a, b)
        vcu = os.path.join(out, "%s_%s.cu" % (c, v))
        open(vcu, "w").write(s)
        so = vcu[:-3] + ".so"
        subprocess.check_call(["nvcc", "-O3", "-arch=sm_90", "-DFUSEC_NO_HARNESS", "-Xcompiler", "-fPIC", "-shared",
                               "-Xptxas", "-v"] + flags + [vcu, "-o", so], stderr=open(vcu[:-3] + ".ptxas", "w"))
        lib = ctypes.CDLL(so)
        for ver in ("fused", "unfused"):
            fn = getattr(lib, "%s_%s" % (c, ver))
            fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
            fn.restype = ctypes.c_int
            libs[(c, v, ver)] = fn
n = 1 << 26
x = (torch.randn(n, device="cuda") * 4).half()
y = torch.empty_like(x)
torch_fns = {"sig": torch.sigmoid, "spsq": lambda t: torch.sqrt(torch.nn.functional.softplus(t))}
comp = {c: torch.compile(f) for c, f in torch_fns.items()}
def call(key):
    c, what = key[0], key[1:]
    st = torch.cuda.current_stream().cuda_stream
    if what == ("eager",):
        torch_fns[c](x)
    elif what == ("compile",):
        comp[c](x)
    elif what == ("copy",):
        y.copy_(x)
    else:
        assert libs[(c,) + what](x.data_ptr(), y.data_ptr(), n, st) == 0
keys = [(c, w) for c in chains for w in ("eager", "compile", "copy")] + [(c, v, ver) for c in chains for v in variants for ver in ("fused", "unfused")]
for k in keys:
    call(k); call(k)
torch.cuda.synchronize()
if under_ncu:
    sys.exit(0)
flush = torch.empty(2 * 60 << 20 // 4, dtype=torch.int32, device="cuda")
times = {k: [] for k in keys}
ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
for rep in range(25):
    order = keys[:]
    random.Random(rep).shuffle(order)
    for k in order:
        torch.cuda._sleep(1000000)
        flush.add_(1)
        ev[0].record(); call(k); ev[1].record()
        torch.cuda.synchronize()
        times[k].append(ev[0].elapsed_time(ev[1]) * 1e3)
with open(os.path.join(out, "times.txt"), "w") as f:
    for k in keys:
        line = "%-28s %8.2f us" % ("/".join(k), statistics.median(times[k]))
        print(line); f.write(line + "\n")

# Inductor's kernel for a chain's torch line, compiled at n, its cubin's SASS printed.
# usage: python3 sass.py CHAIN.fuse N DIR (Inductor's cache, cubins included, under DIR)
import glob, os, re, subprocess, sys
path, n, cache = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
os.environ["TRITON_CACHE_DIR"] = cache + "/triton"
import torch
print("sass.py", path, n, flush=True)
line = [re.match(r"\s*#\s*torch:\s*(.*)$", l).group(1) for l in open(path) if re.match(r"\s*#\s*torch:", l)][0]
dt = {"f64": torch.float64, "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
ins = {}
for l in open(path):
    m = re.match(r"\s*in\s+(.*)$", l)
    if m:
        for part in m.group(1).split(","):
            name, _, t = part.partition(":")
            ins[name.strip()] = dt[(t.strip() or "f32").split("[")[0]]
names = sorted(set(re.findall(r"\b([a-z]\w*)\b", line)) & set("abcdefghijklmnopqrstuvwxyz") - {"y", "z"})
def f(**kw):
    ns = dict(kw, torch=torch); exec(line, ns); return ns.get("y")
args = {v: (torch.randn(n, device="cuda") * 3).to(ins.get(v, torch.float32)) for v in names}
g = torch.compile(lambda *a: f(**dict(zip(names, a))))
g(*args.values()); torch.cuda.synchronize()
for cub in sorted(glob.glob(cache + "/**/*.cubin", recursive=True)):
    print("#### " + cub)
    sys.stdout.flush()
    subprocess.run(["cuobjdump", "-sass", cub])
    subprocess.run(["cuobjdump", "-res-usage", cub])

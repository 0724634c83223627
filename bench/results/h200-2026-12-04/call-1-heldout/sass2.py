# Inductor's lse_f64 kernel written out as Triton (the code TORCH_LOGS=output_code shows), compiled
# at 2^20 with XBLOCK 1024 and 4 warps; its PTX, cubin and SASS into DIR.
import os, sys, subprocess, torch, triton, triton.language as tl
from triton.language.extra import libdevice
out = sys.argv[1]
os.makedirs(out, exist_ok=True)

@triton.jit
def lse(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tmp1 = tl.abs(tmp0)
    tmp2 = -tmp1
    tmp3 = libdevice.exp(tmp2)
    tmp4 = libdevice.log1p(tmp3)
    tmp5 = 0.0
    tmp6 = triton.language.maximum(tmp0, tmp5)
    tmp7 = tmp4 + tmp6
    tl.store(out_ptr0 + (xindex), tmp7, xmask)

n = 1 << 20
x = torch.randn(n, dtype=torch.float64, device="cuda") * 4
y = torch.empty_like(x)
k = lse[(n // 1024,)](x, y, n, XBLOCK=1024, num_warps=4)
ref = torch.log1p(torch.exp(-x.abs())) + x.clamp_min(0)
print("max diff", (y - ref).abs().max().item())
for key in ("ptx", "cubin"):
    data = k.asm[key]
    open(os.path.join(out, "triton_lse." + key), "wb" if isinstance(data, bytes) else "w").write(data)
print("n_regs", getattr(k, "n_regs", None), "n_spills", getattr(k, "n_spills", None))
from triton.backends.nvidia import compiler as c
print("ptxas", c.get_ptxas().path if hasattr(c, "get_ptxas") else "?")
subprocess.run(["bash", "-c", "cuobjdump -sass %s/triton_lse.cubin > %s/triton_lse.sass; ls -la %s" % (out, out, out)])

"""Patch an emitted .cu: a tiny-grid tier (E = 1) before the small-grid one, on when
fx_blocks(full, E/2) < FX_TINY (a -D macro; 0 turns it off)."""
import re, sys
p = sys.argv[1]
s = open(p).read()
m = re.search(r"    if \(full > 0 && full <= 0x7fffffffu && fx_blocks\(full, (\d+)\) < FX_SMALL_BLOCKS\)\n"
              r"        (\w+)_fused_kernel<unsigned, (\d+), false><<<fx_blocks\(full, \d+\), FX_THREADS, 0, stream>>>\((.*)\(unsigned\)full, 0u\);\n", s)
assert m, p
es, name, args = m.group(3), m.group(2), m.group(4)
tier = ("    if (full > 0 && full <= 0x7fffffffu && fx_blocks(full, %s) < FX_TINY)\n"
        "        %s_fused_kernel<unsigned, 1, false><<<fx_blocks(full, 1), FX_THREADS, 0, stream>>>(%s(unsigned)full, 0u);\n"
        "    else\n") % (es, name, args)
s = s[:m.start()] + tier + s[m.start():]
s = "#ifndef FX_TINY\n#define FX_TINY 0\n#endif\n" + s
open(p, "w").write(s)

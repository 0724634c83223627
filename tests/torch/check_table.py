#!/usr/bin/env python3
"""bench/torch_check.py's chain table, without torch or a GPU.

    tests/torch/check_table.py FUSEC

For every chain of torch_check.py's CHAINS, the torch function must take the
chain's inputs and params in the C API's order, by the same names (where it
names them), and return one value per output of fusec's chain: torch_check
pairs them by position, so a function that returns an intermediate as well
(tests/golden/ints.fuse's quant) compares every later output with the wrong
one. The functions run on a stand-in torch whose every tensor and function
gives another tensor, which is enough to count what they return.
"""
import inspect
import json
import os
import subprocess
import sys
import tempfile
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Fake:
    """Every tensor, dtype and function of the stand-in torch: each operation
    on it, call of it or attribute of it is another."""

    def __getattr__(self, name):
        return Fake()

    def __call__(self, *args, **kwargs):
        return Fake()

    def item(self):
        return 0

    __hash__ = object.__hash__


for _op in ("add sub mul truediv floordiv mod pow and or xor lshift rshift matmul").split():
    setattr(Fake, "__%s__" % _op, lambda self, other: Fake())
    setattr(Fake, "__r%s__" % _op, lambda self, other: Fake())
for _op in ("neg pos invert abs").split():
    setattr(Fake, "__%s__" % _op, lambda self: Fake())
for _op in ("lt le gt ge eq ne getitem").split():
    setattr(Fake, "__%s__" % _op, lambda self, other: Fake())


def main():
    fusec = sys.argv[1]
    torch = types.ModuleType("torch")
    torch.__getattr__ = lambda name: Fake()
    sys.modules["torch"] = torch
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    sys.dont_write_bytecode = True
    import torch_check as tc

    fails = 0
    work = tempfile.mkdtemp(prefix="check_table_")
    for name, entry in tc.CHAINS.items():
        src, fn = entry[:2]
        path = src
        if "\n" in src:
            path = os.path.join(work, name + ".fuse")
            with open(path, "w") as f:
                f.write(src)
        dims = tc.chain_dims(src)
        extra = ["--dims=" + ",".join("%s=%d" % (d, tc.SHAPED_DIMS[0].get(d, 3)) for d in dims)] if dims else []
        run = subprocess.run([fusec, "-w", "--predict", "--format=json", "--name=" + name, path] + extra,
                             capture_output=True, text=True)
        if run.returncode != 0:
            print("FAIL %s: fusec --predict: %s" % (name, run.stderr.strip()))
            fails += 1
            continue
        desc = json.loads(run.stdout)
        args = [i["name"] for i in desc["inputs"]] + [p["name"] for p in desc["params"]]
        sig = inspect.signature(fn).parameters.values()
        if not any(p.kind == p.VAR_POSITIONAL for p in sig):
            names = [p.name for p in sig]
            if names != args:
                print("FAIL %s: the torch function takes (%s), the chain's API (%s)"
                      % (name, ", ".join(names), ", ".join(args)))
                fails += 1
                continue
        got = fn(*[Fake() for _ in desc["inputs"]], *[p["value"] for p in desc["params"]])
        got = got if isinstance(got, tuple) else (got,)
        outs = [o["name"] for o in desc["outputs"]]
        if len(got) != len(outs):
            print("FAIL %s: the torch function returns %d values, the chain has %d outputs (%s)"
                  % (name, len(got), len(outs), ", ".join(outs)))
            fails += 1
            continue
        print("ok   %s: %d inputs and params, %d outputs" % (name, len(args), len(outs)))
    print("%s: %d of %d chains" % ("ok" if fails == 0 else "FAIL", len(tc.CHAINS) - fails, len(tc.CHAINS)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""torch_bench.py: time fusec's elementwise chains in PyTorch, eager and torch.compile.

PyTorch eager runs a chain as one kernel per op: every intermediate makes a round
trip through memory. torch.compile fuses the chain into one kernel that reads each
input once and writes each output once. This script measures both, with the same
method as fusec's CUDA harness, so the three can share one table:

  hot   back-to-back calls on the same buffers: CUDA events around a loop of
        calls, divided by the number of calls; the median over several loops.
  cold  L2 flushed before each call (a buffer of twice the L2 size is written),
        each call timed alone with CUDA events; the median over the calls. A
        torch.cuda._sleep of --cold-sleep-us (default 500 us of GPU time) is queued
        before the flush and the start event, so the host has queued the whole
        call before the GPU reaches it: the time is the GPU's, launch gaps and
        all, not the host's dispatch (0 times as runs A-O of docs/results.md did).

With --fusec FUSEC it also times fusec's own kernels through PyTorch, as users call
them: each chain is emitted with `FUSEC --emit=torch` (examples/<chain>.fuse, with
--dtype), built and imported (docs/torch.md), and the versions fusec (the fused op)
and fusec_unfused (its unfused op) are timed in the same loops as eager and compile,
after the same check against eager. The host costs then include fusec's call.

At each size the versions are compiled first, warmed up for a quarter second each,
then timed in turns (eager loop, compiled loop, compiled loop, eager loop, ...), so
a slow spell of the host falls on both alike. Below about 2^23 elements a call is
bound by the host (Python dispatch, guards), and the host's speed drifts: it
has slow spells a few seconds long. So the whole sweep runs --passes times
(default 3) and each row is the median of the passes' medians.

GB/s counts the bytes that version must move: for eager the sum over its per-op
kernels (each op reads each distinct tensor operand once and writes its result),
for compile the inputs read once and the outputs written once. speedup is eager
time / this version's time at the same chain, dtype, mode and n; traffic_ratio is
eager bytes / this version's bytes, the speedup to expect when memory is the limit.

The host costs of PyTorch go into a fusec device profile with --profile-in and
--profile-out (eager_op_us, compiled_call_us): taken from the sweep's host-bound
rows (seed chain, hot, n <= 2^16: the eager chain's time over its 4 ops, the
compiled call's time). At the end it also times, apart, loops of one eager op
(x*2.0) and of the compiled seed chain at n=4096, f32 (wall clock per call, then a
synchronize); those are printed and kept in the JSON, and used for the profile only
when the sweep has no such rows.

CSV columns (--csv; --json holds the same rows under "rows", plus a header):
  chain, dtype, version, mode, n, us, us_min, us_max, samples, calls,
  bytes_per_elem, gb_s, traffic_ratio, speedup, compile_s
  us is the median per call; us_min/us_max the extremes of the samples; samples
  the number of medians' samples; calls the calls per sample (1 for cold);
  compile_s the wall time of the throwaway first call of a compiled version at
  that n (empty for eager).

Needs torch (CUDA) and the standard library; --help and --dry-run work without torch.
"""
import argparse
import atexit
import csv
import datetime
import gc
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

torch = None  # imported by main() once the arguments are read (after --fresh-cache)


# --------------------------------------------------------------------------------------
# The chains: the same programs fusec compiles, written as a PyTorch user would.
# --------------------------------------------------------------------------------------

def chain_seed(x):
    return torch.relu(x * 2.0 + 1.0) * 0.5


def chain_swiglu(a, b):
    return torch.nn.functional.silu(a) * b


def chain_gelu_tanh(x):
    return torch.nn.functional.gelu(x * 1.5 + 0.25, approximate="tanh")


def chain_two_out(x):
    y = torch.sigmoid(x) * x
    z = y * y + x
    return y, z


def chain_mixed(h, g):
    act = torch.where(h > 0, h, torch.nn.functional.leaky_relu(h, 0.01))
    gated = act.float() * torch.sigmoid(g) * 0.125
    return torch.clamp(gated, -4, 4).half(), gated.abs() >= 1e-3


def chain_mask_combine(x, valid, forced, pad):
    keep = valid & ((x > 0.5) | forced) & ~pad
    return torch.where(keep, x, 0), keep


def chain_softplus_f64(x):
    return (torch.nn.functional.softplus(x) + torch.log1p(torch.exp(-torch.abs(x))) * torch.erf(x)
            + torch.pow(x, 2))


# eager / compile: tensor elements moved per element of n; bytes per element is that
# times the dtype size (seed: 8 x 4 = 32 B in f32, 8 x 2 = 16 B in f16).
CHAINS = {
    "seed": dict(fn=chain_seed, inputs=("x",), n_out=1, text="y = relu(x*2+1)*0.5",
                 # x*2, +1, relu, *0.5: 4 kernels, each reads 1 tensor and writes 1
                 eager=8, compile=2),
    "swiglu": dict(fn=chain_swiglu, inputs=("a", "b"), n_out=1, text="y = silu(a)*b",
                   # silu: a -> t (2); mul: t, b -> y (3)
                   eager=5, compile=3),
    "gelu_tanh": dict(fn=chain_gelu_tanh, inputs=("x",), n_out=1,
                      text="y = gelu_tanh(x*1.5+0.25)",
                      # x*1.5, +0.25, gelu: 3 kernels x (read 1 + write 1)
                      eager=6, compile=2),
    "two_out": dict(fn=chain_two_out, inputs=("x",), n_out=2,
                    text="y = sigmoid(x)*x; z = y*y+x",
                    # sigmoid(x) 2; t*x 3; y*y 2 (y read once); +x 3
                    eager=10, compile=3),
    # Chains whose inputs declare their own dtypes: --dtype does not apply, the
    # row's dtype is the label, and bytes are per element as fusec counts them.
    "mixed": dict(fn=chain_mixed, inputs=("h", "g"), n_out=2,
                  text="examples/mixed.fuse (h f16, g bf16 -> y f16, keep bool)",
                  fixed=("mixed", ("float16", "bfloat16")),
                  # eager rounds sigmoid(g) to bf16 and leaky_relu to f16; Inductor keeps
                  # them in f32, so keep = |gated| >= 1e-3 flips next to the threshold
                  # (about 2 elements in 10,000 of normal inputs)
                  bool_flip_frac=1e-3,
                  # 11 kernels: 39 B read + 30 B written; fused 4 B + 3 B
                  eager_bytes=69, compile_bytes=7),
    "softplus_f64": dict(fn=chain_softplus_f64, inputs=("x",), n_out=1,
                         text="examples/softplus_f64.fuse (x f64)",
                         fixed=("f64", ("float64",)),
                         # 10 kernels: 104 B read + 80 B written; fused 8 B + 8 B
                         eager_bytes=184, compile_bytes=16),
    "mask_combine": dict(fn=chain_mask_combine, inputs=("x", "valid", "forced", "pad"), n_out=2,
                         text="examples/mask_combine.fuse (x bf16, three bool masks -> y bf16, keep bool)",
                         fixed=("mixed", ("bfloat16", "bool", "bool", "bool")),
                         # 6 kernels: 12 B read + 7 B written; fused 5 B + 3 B
                         eager_bytes=19, compile_bytes=8),
}

# name -> (torch dtype name, bytes, rtol, atol). The tolerances compare compiled with
# eager: eager rounds every intermediate to the storage dtype, the fused kernel
# computes in f32 and rounds once, so in f16/bf16 they differ by a few units in the
# last place; a wrong kernel misses by far more.
DTYPES = {
    "f32": ("float32", 4, 1e-4, 1e-5),
    "f16": ("float16", 2, 1e-2, 1e-3),
    "bf16": ("bfloat16", 2, 5e-2, 1e-2),
    "f64": ("float64", 8, 1e-9, 1e-12),
    "mixed": ("", 0, 1e-2, 1e-3),  # chains of several dtypes (mixed, mask_combine): bools compared exactly
}
SWEEP_DTYPES = ("f32", "f16", "bf16")  # what --dtype chooses from

MODES = ("hot", "cold")
COLUMNS = ["chain", "dtype", "version", "mode", "n", "us", "us_min", "us_max", "samples",
           "calls", "bytes_per_elem", "gb_s", "traffic_ratio", "speedup", "compile_s"]

DEFAULT_SIZES = "2^12..2^28"
QUICK_SIZES = "2^12,2^16,2^20,2^22,2^24,2^26,2^28"

# Repetitions, chosen per row from a rough time per call so that small sizes get
# many samples and 2^28 does not take all day.
WARMUP_CALLS = 3        # untimed: allocations, kernel loads, CUDA-graph recording
WARMUP_S = 0.25         # ... and at least this long (the host settles after a compile)
HOT_LOOPS = 9           # samples (loops) per hot row and pass; we report their median
HOT_LOOP_US = 10000.0   # aim for loops this long (host-bound rows drift: average more)
HOT_CALLS = (3, 500)    # calls per loop, at least / at most
COLD_BUDGET_US = 30000.0
COLD_CALLS = (10, 100)  # cold samples per row, at least / at most
HOST_N, HOST_CALLS, HOST_LOOPS = 4096, 2000, 9
SWEEP_HOST_MAX_N = 1 << 16  # the sweep's hot rows up to here are host-bound
SEED_OPS = 4                # eager ops of the seed chain

# fusec's profile JSON, in the key order and number formats of
# fusec_profile_write_json (runtime/fusec_model.h).
PROFILE_FORMAT = [("name", "s"), ("note", "s"), ("hbm_gbps", "%.1f"), ("l2_gbps", "%.1f"),
                  ("l2_bytes", "%.0f"), ("launch_us", "%.3f"), ("graph_node_us", "%.3f"),
                  ("fp32_gflops", "%.0f"), ("fp64_gflops", "%.0f"), ("sfu_gops", "%.0f"),
                  ("eager_op_us", "%.3f"), ("compiled_call_us", "%.3f")]
PROFILE_STR_MAX = {"name": 63, "note": 255}  # char name[64], note[256] in FusecProfile
NOTE_MARK = "torch host"                     # starts what this script appends to "note"


# --------------------------------------------------------------------------------------
# Pure Python: sizes, bytes, the profile file, formatting.
# --------------------------------------------------------------------------------------

# The grammar of runtime/fusec_sizes.h, fusec's and the harness's --sizes (that
# file says it in full); tests/bench.sh checks this copy case by case against
# fusec. A..B is A, 2A, 4A, ... up to B; the sizes come in the order written.
SIZE_COUNT = re.compile(r"2\^([0-9]+)|([0-9]+)([kKmMgG]?)")
SIZES_MAX_N = 1 << 40


def parse_size(text):
    """One count: 4096, 4K / 1M / 1G (2^10, 2^20, 2^30 times), or 2^k; 1 to 2^40."""
    m = SIZE_COUNT.fullmatch(text)
    if m and m.group(1) is not None:
        if int(m.group(1)) <= 40:
            return 1 << int(m.group(1))
    elif m:
        n = int(m.group(2)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(3).lower()]
        if 1 <= n <= SIZES_MAX_N:
            return n
    raise ValueError("bad size %r (write e.g. 4096,1M,2^20..2^28)" % text)


def parse_sizes(text):
    """A comma list of counts; A..B stands for A, 2A, 4A, ... while not above B."""
    sizes = []
    for item in text.split(","):
        lo, dots, hi = item.partition("..")
        a = parse_size(lo)
        b = parse_size(hi) if dots else a
        if b < a:
            raise ValueError("bad size range %r (the end is below the start)" % item)
        while a <= b:
            sizes.append(a)
            a *= 2
    return sizes


def parse_list(text, allowed, what):
    items = [s.strip() for s in text.split(",") if s.strip()]
    bad = [s for s in items if s not in allowed]
    if bad or not items:
        raise ValueError("unknown %s %s; choose from %s" % (what, ",".join(bad), ",".join(allowed)))
    return list(dict.fromkeys(items))


def fmt_n(n):
    return "2^%d" % (n.bit_length() - 1) if n & (n - 1) == 0 else str(n)


# Versions that move eager's bytes (one kernel per op); every other one moves the
# fused bytes.
UNFUSED_VERSIONS = ("eager", "fusec_unfused")
FUSEC_VERSIONS = ("fusec", "fusec_unfused")


def bytes_per_elem(chain, version, dtype):
    """Bytes this version must move per element of n (compile_ro moves what compile
    does; its CUDA graph also copies the inputs into static buffers, not counted;
    fusec moves what compile does, fusec_unfused what eager does)."""
    c = CHAINS[chain]
    unfused = version in UNFUSED_VERSIONS
    if "fixed" in c:
        return c["eager_bytes" if unfused else "compile_bytes"]
    return c["eager" if unfused else "compile"] * DTYPES[dtype][1]


def bytes_needed(chain, n, dtype):
    """GPU memory one size needs at most: inputs, eager intermediates and outputs, the
    compiled outputs and their copies for the check, and the check's float64 temporaries."""
    c = CHAINS[chain]
    if "fixed" in c:
        return n * (2 * c["eager_bytes"] + 48)
    return n * (DTYPES[dtype][1] * (len(c["inputs"]) + 4 * c["n_out"] + 2) + 48)


def chain_dtypes(chain, args):
    """The dtypes a chain runs in: --dtype's, or its own label when its inputs
    declare their dtypes."""
    c = CHAINS[chain]
    return [c["fixed"][0]] if "fixed" in c else args.dtypes


def clean_str(s, limit):
    """The C writer prints strings raw with %s: keep them printable ASCII, without
    quotes or backslashes, and within the struct's char array."""
    s = "".join(ch for ch in str(s) if " " <= ch <= "~" and ch not in '"\\')
    return s[:limit]


def render_profile(p):
    """The profile exactly as fusec_profile_write_json prints it."""
    lines = []
    for key, fmt in PROFILE_FORMAT:
        value = '"%s"' % clean_str(p[key], PROFILE_STR_MAX[key]) if fmt == "s" else fmt % float(p[key])
        lines.append('  "%s": %s' % (key, value))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def read_profile(path):
    with open(path) as f:
        p = json.load(f)
    missing = [k for k, _ in PROFILE_FORMAT if k not in p]
    if missing:
        raise ValueError("%s: not a fusec profile, missing %s" % (path, ", ".join(missing)))
    return p


def updated_note(old, addition):
    """old note + ' | ' + addition, within char note[256]. An earlier addition of this
    script is replaced, not stacked; a long old note is shortened, not the addition."""
    old = old.split(" | " + NOTE_MARK)[0]
    if old.startswith(NOTE_MARK):
        old = ""
    addition = clean_str(addition, PROFILE_STR_MAX["note"])
    room = PROFILE_STR_MAX["note"] - len(addition) - 3
    if len(old) > room:
        old = old[:max(0, room - 3)] + "..." if room > 3 else ""
    return old + " | " + addition if old else addition


def sweep_host_costs(rows):
    """The host costs as the sweep itself saw them: the seed chain's hot rows with
    n <= SWEEP_HOST_MAX_N, where its kernels take a few microseconds and the host
    sets the pace; over all dtypes, the median eager chain time over its ops and
    the median compiled call time. None without such rows."""
    def us(version):
        return [r["us"] for r in rows if r["chain"] == "seed" and r["mode"] == "hot"
                and r["n"] <= SWEEP_HOST_MAX_N and r["version"] == version]
    eager, compiled = us("eager"), us("compile")
    if not eager or not compiled:
        return None
    return dict(eager_op_us=round(statistics.median(eager) / SEED_OPS, 3),
                compiled_call_us=round(statistics.median(compiled), 3))


def profile_with_host_costs(p, host, header, source):
    """A copy of profile p with the measured host costs and a note saying so."""
    q = dict(p)
    q["eager_op_us"] = host["eager_op_us"]
    q["compiled_call_us"] = host["compiled_call_us"]
    addition = ("%s %s %s torch %s: eager_op_us, compiled_call_us per call from %s "
                "(bench/torch_bench.py)" % (NOTE_MARK, header["date_utc"], header["gpu"],
                                            header["torch"], source))
    q["note"] = updated_note(clean_str(p["note"], 10 ** 6), addition)
    return q


def csv_value(v):
    return "" if v is None else v


# --------------------------------------------------------------------------------------
# GPU work: inputs, timing, compiling, checking.
# --------------------------------------------------------------------------------------

START = time.perf_counter()


def log(msg):
    """Progress goes to stderr, with the seconds since the start."""
    print("[%7.1fs] %s" % (time.perf_counter() - START, msg), file=sys.stderr, flush=True)


def events():
    return torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def free_bytes():
    """Free GPU memory, counting what PyTorch's caching allocator holds but does not use."""
    free, _ = torch.cuda.mem_get_info()
    return free + torch.cuda.memory_reserved() - torch.cuda.memory_allocated()


def make_inputs(chain, n, dtype, seed, dist="normal"):
    """Seeded random inputs (dtype: a DTYPES key, or each input's own for a chain
    that declares them): never zeros, which hide unwritten outputs and can run
    faster than real data. dist "normal": N(0, 1). "harness": the emitted
    harness's values (fh_gen_value): 7 in 8 uniform in [-4, 4), the others of
    magnitude [2^-12, 2^-1) with a random sign. The time of a compute-bound chain
    (f64 transcendentals) depends on its values; a memory-bound one's does not."""
    c = CHAINS[chain]
    names = c["fixed"][1] if "fixed" in c else [DTYPES[dtype][0]] * len(c["inputs"])
    g = torch.Generator(device="cuda")
    out = []
    for i, name in enumerate(names):
        g.manual_seed(seed * 1000 + i)
        if name == "bool":  # a mask: true half the time, whatever the distribution
            out.append(torch.rand(n, generator=g, device="cuda") < 0.5)
            continue
        if dist == "normal":
            out.append(torch.randn(n, generator=g, device="cuda", dtype=getattr(torch, name)))
            continue
        v = torch.rand(n, generator=g, device="cuda", dtype=torch.float64) * 8 - 4
        small = torch.rand(n, generator=g, device="cuda", dtype=torch.float64) < 0.125
        mag = torch.exp2(torch.randint(-12, -1, (n,), generator=g, device="cuda").double())
        mag *= 1 + torch.rand(n, generator=g, device="cuda", dtype=torch.float64)
        v = torch.where(small, torch.where(v < 0, -mag, mag), v)
        out.append(torch.where(v == 0, 0.5, v).to(getattr(torch, name)))
        del v, small, mag
    return out


def make_flush_buffer():
    """A buffer twice the L2 size: writing it evicts everything the last call left in L2."""
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 0) or 60 << 20
    return torch.empty(2 * l2 // 4, dtype=torch.int32, device="cuda"), l2


def flush_time_us(flush):
    start, end = events()
    start.record()
    for _ in range(10):
        flush.zero_()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / 10


def spin_up(flush, seconds=0.5):
    """Keep the GPU busy for a moment so its clocks leave idle before the first timing."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            flush.zero_()
        torch.cuda.synchronize()


def warm_up(fn, inputs):
    """Untimed calls first (memory allocation, kernel loading, and for reduce-overhead
    the CUDA-graph recording), for at least WARMUP_S seconds: right after a compile
    the host is still busy (worker processes, caches being written) and the first
    hundred milliseconds of host-bound calls run slow. Then a rough time per call to
    choose the repetitions."""
    t0 = time.perf_counter()
    calls = 0
    while calls < WARMUP_CALLS or time.perf_counter() - t0 < WARMUP_S:
        fn(*inputs)
        calls += 1
        if calls % 50 == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    start, end = events()
    start.record()
    for _ in range(5):
        fn(*inputs)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / 5


def time_hot(fns, inputs, est_us):
    """Back-to-back calls: events around a loop of calls, divided by the calls. A loop
    hides the launch gaps the host can keep ahead of; the median over loops drops
    the odd loop that met a hiccup. The versions take turns, loop by loop (in the
    order A B B A ...), so a slow spell of the host (another process, a clock
    change) falls on all of them alike instead of on one version's whole row."""
    calls = {v: int(min(max(HOT_LOOP_US / max(est_us[v], 1e-3), HOT_CALLS[0]), HOT_CALLS[1]))
             for v in fns}
    samples = {v: [] for v in fns}
    order = list(fns)
    for loop in range(HOT_LOOPS):
        for v in (order if loop % 2 == 0 else order[::-1]):
            fn = fns[v]
            start, end = events()
            start.record()
            for _ in range(calls[v]):
                fn(*inputs)
            end.record()
            end.synchronize()
            samples[v].append(start.elapsed_time(end) * 1e3 / calls[v])
    return samples, calls


def sleep_cycles_per_us():
    """GPU clock cycles per microsecond of torch.cuda._sleep, measured once."""
    start, end = events()
    torch.cuda._sleep(1000)  # warm
    start.record()
    torch.cuda._sleep(1 << 20)
    end.record()
    end.synchronize()
    return (1 << 20) / max(start.elapsed_time(end) * 1e3, 1e-3)


def time_cold(fns, inputs, flush, est_us, flush_us, sleep_cycles=0):
    """Each call alone after an L2 flush, as triton's do_bench does: the events bracket
    the call only; the flush runs before the start event. Before the flush, a
    torch.cuda._sleep of sleep_cycles keeps the GPU busy while the host queues the
    flush, the start event, the call and the end event, so the call's kernels run
    back to back as the GPU reaches them and the host's dispatch is not in the time.
    The versions take turns."""
    slowest = max(est_us.values())
    reps = int(min(max(COLD_BUDGET_US / (slowest + flush_us), COLD_CALLS[0]), COLD_CALLS[1]))
    pairs = {v: [] for v in fns}
    for _ in range(reps):
        for v, fn in fns.items():
            start, end = events()
            if sleep_cycles:
                torch.cuda._sleep(sleep_cycles)
            flush.zero_()
            start.record()
            fn(*inputs)
            end.record()
            pairs[v].append((start, end))
    torch.cuda.synchronize()
    return {v: [a.elapsed_time(b) * 1e3 for a, b in p] for v, p in pairs.items()}


# torch.compile caches compiled code per code object. Each compiled version gets
# an entry function of its own, so compile and compile_ro, timed in turns, never
# share (or evict) each other's cache entries.
def entry_compile(fn):
    def compile_entry(*args):
        return fn(*args)
    return compile_entry


def entry_compile_ro(fn):
    def compile_ro_entry(*args):
        return fn(*args)
    return compile_ro_entry


ENTRIES = {"compile": entry_compile, "compile_ro": entry_compile_ro}


def compile_version(fn, version, inputs):
    """torch.compile fn for these inputs and make the throwaway first call, which pays
    for tracing, code generation, Triton compilation and autotuning: it is timed
    apart (compile_s) and never mixed into the per-call times.

    Each size gets its own static-shape compile (dynamic=False; the caller resets
    dynamo before each size): the kernel is specialised to n as fusec's is, there is
    one cache entry to check per call, and no recompile limit can silently send us
    back to eager."""
    mode = "reduce-overhead" if version == "compile_ro" else None
    compiled = torch.compile(ENTRIES[version](fn), mode=mode, dynamic=False)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    compiled(*inputs)
    torch.cuda.synchronize()
    return compiled, time.perf_counter() - t0


def as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


class CheckFailed(Exception):
    pass


def check_close(compiled, fn, inputs, dtype_name, where, chain=None):
    """Compiled must compute what eager computes, within the dtype's tolerance."""
    _, _, rtol, atol = DTYPES[dtype_name]
    want = as_tuple(fn(*inputs))
    # reduce-overhead returns buffers its next replay overwrites: copy them now
    got = tuple(t.clone() for t in as_tuple(compiled(*inputs)))
    # A comparison next to its threshold flips when the two compute its operand
    # a little apart: a bool output may differ in a fraction of its elements
    # (the chain's bool_flip_frac, default one in a million).
    frac = CHAINS.get(chain, {}).get("bool_flip_frac", 1e-6)
    for i, (a, b) in enumerate(zip(got, want)):
        if a.dtype == torch.bool or b.dtype == torch.bool:
            if a.dtype != b.dtype or a.shape != b.shape:
                raise CheckFailed("%s: output %d is %s %s, eager's %s %s"
                                  % (where, i, a.dtype, tuple(a.shape), b.dtype, tuple(b.shape)))
            bad = int((a != b).sum())
            if bad > a.numel() * frac:
                raise CheckFailed("%s: bool output %d differs from eager in %d of %d elements"
                                  % (where, i, bad, a.numel()))
    pairs = [(a, b) for a, b in zip(got, want) if not (a.dtype == torch.bool and b.dtype == torch.bool)]
    try:
        torch.testing.assert_close([a for a, _ in pairs], [b for _, b in pairs], rtol=rtol, atol=atol)
        if len(got) != len(want):
            raise AssertionError("%d outputs against %d" % (len(got), len(want)))
    except AssertionError as e:
        raise CheckFailed("%s: compiled result differs from eager (rtol %g, atol %g):\n%s"
                          % (where, rtol, atol, e)) from None


def make_row(chain, dtype, version, mode, n, samples, calls, compile_s, eager_us):
    """One result: the median of the samples, the GB/s of the bytes this version must
    move, and the speedup over eager's median (eager_us) in the same mode."""
    us = statistics.median(samples)
    bpe = bytes_per_elem(chain, version, dtype)
    eager_bpe = bytes_per_elem(chain, "eager", dtype)
    if version == "eager":
        eager_us = us
    return dict(chain=chain, dtype=dtype, version=version, mode=mode, n=n,
                us=round(us, 3), us_min=round(min(samples), 3), us_max=round(max(samples), 3),
                samples=len(samples), calls=calls, bytes_per_elem=bpe,
                gb_s=round(n * bpe / us / 1e3, 1), traffic_ratio=round(eager_bpe / bpe, 3),
                speedup=round(eager_us / us, 3) if eager_us else None,
                compile_s=None if compile_s is None else round(compile_s, 3))


def run_size(chain, dtype, n, args, flush, flush_us):
    """All versions and modes of one chain, dtype and size: the rows. The compiled
    versions are compiled and checked first; then every mode times all versions
    in turns."""
    c = CHAINS[chain]
    inputs = make_inputs(chain, n, dtype, args.seed, args.inputs)
    fns, compile_s = {"eager": c["fn"]}, {"eager": None}
    torch._dynamo.reset()
    for version in args.versions[1:]:
        if version in FUSEC_VERSIONS:
            module = fusec_module(chain, dtype, args)
            fns[version] = module.fused if version == "fusec" else module.unfused
            compile_s[version] = None
        else:
            fns[version], compile_s[version] = compile_version(c["fn"], version, inputs)
        check_close(fns[version], c["fn"], inputs, dtype, "%s %s %s n=%s" % (chain, dtype, version, fmt_n(n)),
                    chain)
    est_us = {v: warm_up(fn, inputs) for v, fn in fns.items()}
    rows = []
    for mode in args.modes:
        gc.collect()
        gc.disable()  # no collection pauses inside the timed loops
        try:
            if mode == "hot":
                samples, calls = time_hot(fns, inputs, est_us)
            else:
                samples = time_cold(fns, inputs, flush, est_us, flush_us, args.sleep_cycles)
                calls = {v: 1 for v in fns}
        finally:
            gc.enable()
        eager_us = statistics.median(samples["eager"])
        for v in fns:
            row = make_row(chain, dtype, v, mode, n, samples[v], calls[v], compile_s[v], eager_us)
            rows.append(row)
            log("%-9s %-4s %-10s %-4s n=%-5s %10.3f us %7.1f GB/s%s"
                % (chain, dtype, v, mode, fmt_n(n), row["us"], row["gb_s"],
                   "" if compile_s[v] is None else "  (compile %.2f s)" % compile_s[v]))
    return rows


def run_group(chain, dtype, args, flush, flush_us, skipped):
    """Every size of one chain and dtype. Sizes that do not fit are refused, not fatal."""
    rows = []
    for n in args.sizes:
        need, free = bytes_needed(chain, n, dtype), free_bytes()
        if need > 0.9 * free:
            msg = "%s %s n=%s: needs about %.1f GiB of GPU memory, %.1f GiB free" % (
                chain, dtype, fmt_n(n), need / 2**30, free / 2**30)
            log("skipped " + msg)
            skipped.append(msg)
            continue
        try:
            rows += run_size(chain, dtype, n, args, flush, flush_us)
        except CheckFailed:
            raise
        except Exception as e:  # an OOM inside Inductor's compile arrives wrapped
            if not isinstance(e, torch.cuda.OutOfMemoryError) and "out of memory" not in str(e).lower():
                raise
            msg = "%s %s n=%s: out of GPU memory" % (chain, dtype, fmt_n(n))
            log("skipped " + msg)
            skipped.append(msg)
        torch.cuda.empty_cache()
    if "compile_ro" in args.versions:
        torch._dynamo.reset()  # let go of the CUDA graphs and their memory pools
    return rows


ESTIMATORS = {"median": statistics.median, "min": min}


def merge_passes(passes, estimator="median"):
    """One row per chain, dtype, version, mode and n from every pass's rows: us is
    the passes' medians combined by estimator (median: a slow spell of the host,
    a few seconds long, then spoils one pass of a size, not the result; min: the
    fastest pass, since a slow spell only adds time), pass_us the passes' medians,
    us_min and us_max the extremes of all samples, and the speedup is over the
    merged eager time."""
    by, order = {}, []
    for rows in passes:
        for r in rows:
            key = (r["chain"], r["dtype"], r["version"], r["mode"], r["n"])
            if key not in by:
                order.append(key)
            by.setdefault(key, []).append(r)
    merged = {}
    for key in order:
        rs = by[key]
        m = dict(rs[0])
        m["us"] = round(ESTIMATORS[estimator]([r["us"] for r in rs]), 3)
        m["pass_us"] = [r["us"] for r in rs]
        m["us_min"] = min(r["us_min"] for r in rs)
        m["us_max"] = max(r["us_max"] for r in rs)
        m["samples"] = sum(r["samples"] for r in rs)
        m["gb_s"] = round(m["n"] * m["bytes_per_elem"] / m["us"] / 1e3, 1)
        merged[key] = m
    for key, m in merged.items():
        eager = merged.get(key[:2] + ("eager",) + key[3:])
        m["speedup"] = round(eager["us"] / m["us"], 3) if eager else None
    return list(merged.values())


def host_costs_us(fns, inputs):
    """Wall clock per call of a loop of calls, the synchronize included, at a size where
    each kernel takes a couple of microseconds: the host is the bottleneck, so this is
    the host's cost per call. The functions take turns loop by loop; the median over
    the loops of each."""
    for fn in fns.values():
        warm_up(fn, inputs)
    samples = {k: [] for k in fns}
    gc.collect()
    gc.disable()
    try:
        for loop in range(HOST_LOOPS):
            for k in (list(fns) if loop % 2 == 0 else list(fns)[::-1]):
                fn = fns[k]
                t0 = time.perf_counter()
                for _ in range(HOST_CALLS):
                    fn(*inputs)
                torch.cuda.synchronize()
                samples[k].append((time.perf_counter() - t0) / HOST_CALLS * 1e6)
    finally:
        gc.enable()
    return {k: statistics.median(v) for k, v in samples.items()}


def scale_op(x):
    return x * 2.0


# fusec's chains as PyTorch ops (--fusec): one extension per chain and dtype, built
# once per run into a temporary folder.
FUSEC_MODULES = {}


def fusec_module(chain, dtype, args):
    """Emits examples/<chain>.fuse with --emit=torch (op name <chain>_<dtype>, so that
    the dtypes of one chain load side by side), builds it (docs/torch.md) and imports it."""
    key = (chain, dtype)
    if key in FUSEC_MODULES:
        return FUSEC_MODULES[key]
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    name = "%s_%s" % (chain, dtype)
    folder = os.path.join(args.fusec_dir, name)
    cmd = [args.fusec, "-w", "--emit=torch", "--name=" + name, os.path.join(root, "examples", chain + ".fuse"),
           "-o", folder]
    if "fixed" not in CHAINS[chain]:
        cmd.insert(1, "--dtype=" + dtype)
    subprocess.run(cmd, check=True)
    log("building the fusec extension %s (torch.utils.cpp_extension)" % name)
    t0 = time.perf_counter()
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    log("built %s in %.1f s" % (name, time.perf_counter() - t0))
    FUSEC_MODULES[key] = module
    return module


def host_costs(seed, args):
    x = make_inputs("seed", HOST_N, "f32", seed)
    torch._dynamo.reset()
    compiled, _ = compile_version(chain_seed, "compile", x)
    fns = dict(eager_op_us=scale_op, eager_seed_chain_us=chain_seed, compiled_call_us=compiled)
    if args.fusec:
        module = fusec_module("seed", "f32", args)
        fns.update(fusec_call_us=module.fused, fusec_unfused_call_us=module.unfused)
    return host_costs_us(fns, x)


def driver_version():
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=20)
        return r.stdout.strip().splitlines()[0] if r.returncode == 0 and r.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def run_header(args, l2_bytes, flush, flush_us):
    try:
        import triton
        triton_version = triton.__version__
    except ImportError:
        triton_version = None
    props = torch.cuda.get_device_properties(0)
    return dict(date_utc=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                gpu=props.name, sm_count=props.multi_processor_count, l2_bytes=l2_bytes,
                torch=torch.__version__, triton=triton_version, cuda=torch.version.cuda,
                driver=driver_version(), python=platform.python_version(),
                command=shlex.join([sys.executable] + sys.argv),
                chains=args.chains, dtypes=args.dtypes, sizes=args.sizes,
                versions=args.versions, modes=args.modes, seed=args.seed, passes=args.passes,
                estimator=args.estimator, inputs=args.inputs,
                flush_bytes=flush.numel() * 4, flush_us=round(flush_us, 3),
                cpus=sorted(os.sched_getaffinity(0)),
                fresh_cache=args.fresh_cache, cold_sleep_us=args.cold_sleep_us,
                cold_sleep_cycles=args.sleep_cycles, fusec=args.fusec)


# --------------------------------------------------------------------------------------
# Output.
# --------------------------------------------------------------------------------------

def save(args, header, rows, host, skipped):
    """Rewritten after every chain and dtype, so a run cut short keeps what it measured."""
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            for r in rows:
                w.writerow({k: csv_value(r[k]) for k in COLUMNS})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(header=header, host_us=host, sweep_host_us=sweep_host_costs(rows),
                           skipped=skipped, columns=COLUMNS, rows=rows), f, indent=1)
            f.write("\n")


def print_group(chain, dtype, rows, versions):
    """One readable table for a chain and dtype: per mode and n, each version's time and
    GB/s, then each compiled version's speedup over eager."""
    c = CHAINS[chain]
    print("\n== %s %s: %s   bytes/elem: eager %d, compiled %d (traffic ratio %.2f)"
          % (chain, dtype, c["text"], bytes_per_elem(chain, "eager", dtype),
             bytes_per_elem(chain, "compile", dtype),
             bytes_per_elem(chain, "eager", dtype) / bytes_per_elem(chain, "compile", dtype)))
    for v in versions[1:]:
        comp = [r["compile_s"] for r in rows if r["version"] == v and r["mode"] == rows[0]["mode"]
                and r["compile_s"] is not None]  # fusec's rows compile nothing here
        if comp:
            print("   %s: the first call (compiling) took %.2f s at the first size%s" % (
                v, comp[0], ", median %.2f s at the others" % statistics.median(comp[1:])
                if comp[1:] else ""))
    head = "%-5s %6s" % ("mode", "n")
    for v in versions:
        head += " %14s %9s" % (v + " us", "GB/s")
    for v in versions[1:]:
        head += " %12s" % ("x " + v)
    print(head)
    by_key = {(r["mode"], r["n"], r["version"]): r for r in rows}
    for mode in MODES:
        for n in sorted({r["n"] for r in rows if r["mode"] == mode}):
            line = "%-5s %6s" % (mode, fmt_n(n))
            for v in versions:
                r = by_key.get((mode, n, v))
                line += " %14.3f %9.1f" % (r["us"], r["gb_s"]) if r else " %14s %9s" % ("-", "-")
            for v in versions[1:]:
                r = by_key.get((mode, n, v))
                line += " %11.2fx" % r["speedup"] if r and r["speedup"] else " %12s" % "-"
            print(line)
    sys.stdout.flush()


def print_summary(rows, host, skipped):
    if host:
        print("\n== host cost per call, n=%d f32 (wall clock over %d calls, median of %d loops)"
              % (HOST_N, HOST_CALLS, HOST_LOOPS))
        print("   eager op x*2.0            %8.3f us" % host["eager_op_us"])
        print("   eager seed chain (4 ops)  %8.3f us   (%.1f eager ops)"
              % (host["eager_seed_chain_us"], host["eager_seed_chain_us"] / host["eager_op_us"]))
        print("   compiled seed chain       %8.3f us" % host["compiled_call_us"])
        if "fusec_call_us" in host:
            print("   fusec seed.fused          %8.3f us   (target <= 10 us: %s)"
                  % (host["fusec_call_us"], "met" if host["fusec_call_us"] <= 10 else "NOT met"))
            print("   fusec seed.unfused        %8.3f us" % host["fusec_unfused_call_us"])
    sweep = sweep_host_costs(rows)
    if sweep:
        print("== host cost per call in the sweep (seed, hot, n <= 2^%d, median over sizes and dtypes)"
              % (SWEEP_HOST_MAX_N.bit_length() - 1))
        print("   eager op (chain / %d)      %8.3f us" % (SEED_OPS, sweep["eager_op_us"]))
        print("   compiled seed chain       %8.3f us" % sweep["compiled_call_us"])
    big = {}
    for r in rows:
        if r["version"] != "eager":
            key = (r["chain"], r["dtype"], r["version"], r["mode"])
            if key not in big or r["n"] > big[key]["n"]:
                big[key] = r
    if big:
        print("\n== at the largest n: measured speedup over eager vs the traffic ratio")
        print("%-10s %-5s %-10s %-5s %6s %9s %9s %8s" % ("chain", "dtype", "version", "mode", "n",
                                                         "GB/s", "speedup", "traffic"))
        for (chain, dtype, version, mode), r in big.items():
            print("%-10s %-5s %-10s %-5s %6s %9.1f %8.2fx %7.2fx" % (
                chain, dtype, version, mode, fmt_n(r["n"]), r["gb_s"], r["speedup"] or 0,
                r["traffic_ratio"]))
    for msg in dict.fromkeys(skipped):
        print("skipped: " + msg)
    sys.stdout.flush()


def dry_run(args):
    """The plan, without a GPU or torch: what would be timed and with how many bytes."""
    print("chains   %s" % ", ".join(args.chains))
    print("dtypes   %s" % ", ".join(args.dtypes))
    print("sizes    %s" % ", ".join(fmt_n(n) for n in args.sizes))
    print("versions %s; modes %s" % (", ".join(args.versions), ", ".join(args.modes)))
    print("%-10s %-5s %-28s %s" % ("chain", "dtype", "program", "bytes/elem per version, max memory"))
    for chain in args.chains:
        for dtype in chain_dtypes(chain, args):
            per = ", ".join("%s %d" % (v, bytes_per_elem(chain, v, dtype)) for v in args.versions)
            print("%-10s %-5s %-28s %s; %.2f GiB at n=%s" % (
                chain, dtype, CHAINS[chain]["text"], per,
                bytes_needed(chain, max(args.sizes), dtype) / 2**30, fmt_n(max(args.sizes))))
    n_rows = sum(len(chain_dtypes(c, args)) for c in args.chains) * len(args.sizes) * len(args.versions) \
        * len(args.modes)
    compiled = [v for v in args.versions if v.startswith("compile")]
    print("%d rows, %d passes, %d compiles" % (n_rows, args.passes, args.passes * (
        n_rows // len(args.modes) // len(args.versions) * len(compiled))))
    if args.fusec:
        print("fusec    %s --emit=torch, one extension per chain and dtype" % args.fusec)
    if args.profile_in:
        p = read_profile(args.profile_in)
        print("profile %s as it would be written, before the host costs replace "
              "eager_op_us and compiled_call_us:" % args.profile_in)
        sys.stdout.write(render_profile(p))


# --------------------------------------------------------------------------------------
# Driver.
# --------------------------------------------------------------------------------------

def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chain", default=",".join(CHAINS),
                    help="comma list of chains (default: all): " + ", ".join(
                        "%s (%s)" % (k, c["text"]) for k, c in CHAINS.items()))
    ap.add_argument("--dtype", default="f32,f16", help="comma list of f32, f16, bf16 (default f32,f16)")
    ap.add_argument("--sizes", default=None,
                    help="comma list of element counts: 4096, 64K, 16M, 1G (K/M/G = 2^10/2^20/2^30), "
                         "2^k, or A..B for A, 2A, 4A, ... up to B, as fusec --sizes (default %s)" % DEFAULT_SIZES)
    ap.add_argument("--quick", action="store_true", help="sizes %s (unless --sizes is given)" % QUICK_SIZES)
    ap.add_argument("--modes", default="hot,cold", help="comma list of hot, cold (default both)")
    ap.add_argument("--reduce-overhead", action="store_true",
                    help="also time compile_ro: torch.compile(mode='reduce-overhead'), CUDA graphs")
    ap.add_argument("--passes", type=int, default=3,
                    help="sweeps over all sizes; each row is the median of the passes' medians (default 3)")
    ap.add_argument("--estimator", choices=sorted(ESTIMATORS), default="median",
                    help="how the passes combine: median (default) or min (the fastest pass)")
    ap.add_argument("--seed", type=int, default=0, help="random seed of the inputs (default 0)")
    ap.add_argument("--inputs", choices=("normal", "harness"), default="normal",
                    help="input values: normal N(0,1) (default), or the distribution of fusec's harness")
    ap.add_argument("--csv", metavar="FILE", help="write the rows as CSV")
    ap.add_argument("--json", metavar="FILE", help="write a header and the rows as JSON")
    ap.add_argument("--profile-in", metavar="FILE",
                    help="a fusec device profile (JSON from fusec_profile_write_json) ...")
    ap.add_argument("--profile-out", metavar="FILE",
                    help="... written back with eager_op_us and compiled_call_us measured here")
    ap.add_argument("--host-only", action="store_true",
                    help="measure only the host costs (and write the profile), no sweep")
    ap.add_argument("--fresh-cache", action="store_true",
                    help="compile into empty Inductor/Triton caches, so compile_s is what a "
                         "fresh machine pays (default: use the caches as found)")
    ap.add_argument("--fusec", metavar="FUSEC",
                    help="also time fusec's kernels through --emit=torch ops (versions fusec and "
                         "fusec_unfused), built with this fusec executable (docs/torch.md)")
    ap.add_argument("--cold-sleep-us", type=float, default=500.0,
                    help="GPU sleep queued before each cold call's flush, so the host's dispatch is "
                         "hidden (default 500; 0: none, as runs A-O of docs/results.md)")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the plan (and the profile as it would be written); needs no GPU or torch")
    args = ap.parse_args(argv)
    try:
        args.chains = parse_list(args.chain, list(CHAINS), "chain")
        args.dtypes = parse_list(args.dtype, list(SWEEP_DTYPES), "dtype")
        args.modes = parse_list(args.modes, list(MODES), "mode")
        args.sizes = parse_sizes(args.sizes or (QUICK_SIZES if args.quick else DEFAULT_SIZES))
    except ValueError as e:
        ap.error(str(e))
    if args.passes < 1:
        ap.error("--passes must be at least 1")
    args.versions = ["eager", "compile"] + (["compile_ro"] if args.reduce_overhead else []) \
        + (list(FUSEC_VERSIONS) if args.fusec else [])
    if args.cold_sleep_us < 0:
        ap.error("--cold-sleep-us must be 0 or more")
    if bool(args.profile_in) != bool(args.profile_out) and not args.dry_run:
        ap.error("--profile-in and --profile-out go together")
    return args


def main(argv=None):
    global torch
    args = parse_args(argv)
    if args.dry_run:
        dry_run(args)
        return 0
    profile = read_profile(args.profile_in) if args.profile_in else None  # fail before timing
    if args.fresh_cache:
        # before torch is imported: both read their cache folder from the environment
        cache = tempfile.mkdtemp(prefix="torch_bench_cache_")
        atexit.register(shutil.rmtree, cache, ignore_errors=True)
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
        os.environ["TRITON_CACHE_DIR"] = os.path.join(cache, "triton")
    import torch
    import torch._dynamo
    if not torch.cuda.is_available():
        print("torch_bench: no CUDA device", file=sys.stderr)
        return 1

    if args.fusec:
        args.fusec = os.path.abspath(args.fusec)
        args.fusec_dir = tempfile.mkdtemp(prefix="torch_bench_fusec_")
        atexit.register(shutil.rmtree, args.fusec_dir, ignore_errors=True)
    flush, l2_bytes = make_flush_buffer()
    spin_up(flush)
    flush_us = flush_time_us(flush)
    args.sleep_cycles = int(args.cold_sleep_us * sleep_cycles_per_us()) if args.cold_sleep_us else 0
    header = run_header(args, l2_bytes, flush, flush_us)
    log("%s, torch %s, triton %s, CUDA %s, driver %s; L2 %d MiB, flush %.1f us"
        % (header["gpu"], header["torch"], header["triton"], header["cuda"], header["driver"],
           l2_bytes >> 20, flush_us))
    print("# %s\n# %s | torch %s | triton %s | CUDA %s | driver %s | %s" % (
        header["command"], header["gpu"], header["torch"], header["triton"], header["cuda"],
        header["driver"], header["date_utc"]), flush=True)

    rows, skipped, host, passes = [], [], None, []
    try:
        if not args.host_only:
            for p in range(args.passes):
                passes.append([])
                for chain in args.chains:
                    for dtype in chain_dtypes(chain, args):
                        passes[-1] += run_group(chain, dtype, args, flush, flush_us, skipped)
                        rows = merge_passes(passes, args.estimator)
                        save(args, header, rows, host, skipped)
                log("pass %d of %d done" % (p + 1, args.passes))
            for chain in args.chains:
                for dtype in chain_dtypes(chain, args):
                    group = [r for r in rows if r["chain"] == chain and r["dtype"] == dtype]
                    if group:
                        print_group(chain, dtype, group, args.versions)
        # last, so that the first compile of the sweep shows what a cold start costs
        log("host costs at n=%d" % HOST_N)
        host = {k: round(v, 3) for k, v in host_costs(args.seed, args).items()}
    except CheckFailed as e:
        print("\nFAILED: %s" % e, flush=True)
        print("FAILED: %s" % e, file=sys.stderr, flush=True)
        return 1
    finally:
        save(args, header, rows, host, skipped)  # whatever was measured, also on a crash
    print_summary(rows, host, skipped)
    # The profile takes the host costs the sweep itself saw, when it has them: the
    # host's speed drifts (on the H200 host, by up to 1.5x between minutes), and
    # the prediction is checked against this sweep. Else the loop's.
    sweep = sweep_host_costs(rows)
    use, source = (sweep, "the sweep's host-bound rows (seed, hot, n<=%d)" % SWEEP_HOST_MAX_N) if sweep \
        else (host, "loops of x*2.0 and the compiled seed, f32 n=%d" % HOST_N)
    if profile is not None and use is not None:
        with open(args.profile_out, "w") as f:
            f.write(render_profile(profile_with_host_costs(profile, use, header, source)))
        print("wrote profile %s (eager_op_us %.3f, compiled_call_us %.3f, from %s)"
              % (args.profile_out, use["eager_op_us"], use["compiled_call_us"], source))
    for path in (args.csv, args.json):
        if path:
            print("wrote " + path)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

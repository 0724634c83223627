/*
 * fusec_model.h: the traffic and time model of an elementwise chain.
 *
 * One source of truth, compiled twice: into the fusec compiler (C11) and,
 * embedded verbatim, into every emitted .cu file (C++), so the timing harness
 * re-evaluates exactly the compiler's prediction with the profile it
 * calibrates on the GPU in hand. docs/model.md explains every term.
 *
 * Units: bytes, microseconds, GB/s (1e9 B/s), GFLOP/s. The dtypes (FX_*) are
 * fusec_dtype.h's, included first.
 */
#ifndef FUSEC_MODEL_H
#define FUSEC_MODEL_H

#include <math.h>
#include <stdio.h>

/* What one kernel costs per element. Reads of chain inputs and writes of chain
 * outputs go to HBM when cold; intermediates (buffers that one kernel writes
 * and a later one reads) and inputs an earlier kernel read are read back from
 * L2 as far as they fit, and the intermediates' writes reach HBM unless they
 * overwrite an earlier intermediate's lines still in L2 (reuse;
 * fusec_model_time). */
typedef struct FusecKernelCost {
    double in_bytes;  /* reads of chain inputs no earlier kernel of the call read */
    double mid_read;  /* reads of intermediates */
    double mid_write; /* writes of intermediates */
    double out_bytes; /* writes of chain outputs */
    double flops;     /* simple arithmetic, as the language counts it (the report) */
    double trans;     /* transcendental functions (exp, log, erf, ...), likewise */
    double slots32;   /* issue slots the emitted code takes per element in float
                         ops, counted in fp32 FMAs (src/opcost.def: measured per op) */
    double slots64;   /* the same for its double ops, in fp64 FMAs */
    int fp64;         /* 1 when the kernel computes in double */
    int count;        /* how many kernels cost exactly this (0 is read as 1) */
    int reuse;        /* 1 when an unfused kernel writes its intermediate into the
                         scratch slot of one no longer needed (src/traffic.c) */
    double mid_dist;  /* bytes per element through L2 from the write of the
                         farthest intermediate it reads to the read, that
                         intermediate's own included (src/traffic.c) */
    double gather;    /* elements an unfused kernel with a broadcast operand
                         computes in eager's per-element form (each operand's
                         offset an element: src/emit_cuda.c,
                         emit_broadcast_kernel), whose rate gather_gelems caps */
    int last;         /* 1 for the call's last kernel: cold, the first
                         write_tail_bytes of its writes end the call in L2 */
    double reread;    /* reads of broadcast operands beyond their own bytes: a
                         pass over an operand for each step of a broadcast dim
                         with a dim it varies along inside (a [S, D] table of a
                         [B, S, D] result: B passes), from HBM unless the
                         kernel's traffic between two passes stays in L2 */
    double reread_dist; /* elements of the chain's shape between two passes */
    double reread_row;  /* the same for operands whose passes lie a row apart (a
                           [C] bias of an [R, C] result: R passes), from HBM
                           once the kernel's traffic over one row no longer
                           stays in L2 (a [3, 2^24] image's [2^24] mask) */
    double row_dist;    /* elements of the chain's shape in one row of the
                           kernel's result (its last dim), where it has such
                           an operand */
    double in_again;    /* reads of chain inputs an earlier kernel of the call
                           read (eager's x * sigmoid(x) reads x twice) */
    double again_dist;  /* as mid_dist, from the farthest such input's last
                           read before (src/traffic.c) */
} FusecKernelCost;

/* The bytes per element a kernel moves, read and written. */
static inline double fusec_kernel_bytes(const FusecKernelCost *k)
{
    return k->in_bytes + k->in_again + k->mid_read + k->mid_write + k->out_bytes;
}

/* Elements a thread of eager's per-element broadcast form (the unfused kernel
 * of an op with a broadcast operand: src/emit_cuda.c, emit_broadcast_kernel),
 * FX_THREADS apart; the harness times its own kernel of this form
 * (runtime/harness/calibrate.cuh, fh_gather_kernel) beside gather_gelems. */
#define FUSEC_BCAST_E 4

/* gather_gelems on the H200: call 2 of session 16 (2026-12-04,
 * bench/results/h200-2026-12-04/call-4-final-check, probe_bk.txt): i8 and
 * f16 [R, 4096] times an f32 [R, 1] or [C] in that form, 2^26 elements, cold:
 * 539-552 G elements/s once the first launch and the bytes' time are taken
 * out (fusec_overlap). The built-in profiles' value, and the harness's: its own
 * kernel of the form timed 450 (call 5), slower than the emitted ones, for a
 * reason not found, so it prints that figure but keeps this one. */
#define FUSEC_GATHER_GELEMS_H200 545.0

/* write_tail_bytes on the H200: Nsight Compute's DRAM write bytes of the
 * seed's kernels alone after an L2 flush (call 8 of 2026-12-03,
 * bench/results/h200-2026-12-03/call-8-shaped-fp8-l2, docs/model.md): each
 * ended with 23-24 MB of its writes not yet in HBM. The built-in profile's
 * value, and the harness's: a copy kernel cannot tell it from the ramp (both
 * grow with its bytes), so the harness keeps this figure and fits the ramp
 * beside it. */
#define FUSEC_WRITE_TAIL_BYTES_H200 24e6

/* hot_call_us, the GPU's own cost of a hot call besides its kernels (the
 * event between calls): 1.3 us, the value that bench/repredict.py --set
 * found best on the harnesses' own hot rows (session 24's calls 2-3 on an
 * H100 and three kept H200 runs, docs/model.md). The built-in profiles' value,
 * and the harness's: its own measurement (a one-kernel call queued behind a
 * spin, less launch_next_us) gave 1.91-2.03 us on an H100 in call 1 of
 * session 26, and with it the 14 examples' hot rows below 2^22 ran 12.7%
 * (median) faster than predicted, 3.1% with 1.3: calls queued deep behind a
 * spin cost the GPU more than the harness's hot loop, which the host leads;
 * so it prints that figure and keeps this one. */
#define FUSEC_HOT_CALL_US 1.3

/* A version of the chain: its kernels' costs (kernels that cost the same
 * are one entry with a count; order does not matter). footprint is the
 * distinct bytes per element of every buffer it touches (for the hot mode). */
typedef struct FusecVersion {
    int nkernels; /* entries of kernels[], not kernels: see count */
    const FusecKernelCost *kernels;
    double footprint;
    /* The fused call's chunks (src/emit_cuda.c, emit_flat_launches): its
     * kernel takes whole chunks of `chunk` elements a thread (E), and past
     * them the rest one element a thread, in the same launch (since session
     * 29; before, a second kernel took the rest). chunk 0: an unfused
     * version. row_max: a shaped chain's call that takes E / 2 at any n up to
     * row_max (FX_INDEX32_MAX) where its rows are a multiple of E / 2 but not
     * of E (its ROW instances: fusec_version_rows); 0 for none. gather_slots:
     * the fp32 issue slots an element that a shaped chain's fused kernel
     * spends finding its broadcast inputs' elements where each element finds
     * its own (FUSEC_GATHER_SLOTS_PER_DIM a divide); gather_run: the elements
     * that share one such offset at the point (fusec_version_rows: E in a ROW
     * instance, 0 or 1 where each element finds its own). */
    int chunk;
    double row_max;
    double gather_slots;
    int gather_run;
} FusecVersion;

/* The fp32 issue slots of each divide (a merged dim past the first) that the
 * fused kernel's per-element gather (runtime/fusec_kernel.cuh, fx_gather
 * without RUN) spends on each broadcast layout, an element: its magic-number
 * divide, remainder, stride and the address of its scalar load are about 8
 * integer instructions a dim (bench/sass_count.py --no-row, session 26: 8.0
 * for a [C] operand of [R, C], 17.0 for a [B, 1, C] one of [B, R, C], 24.0
 * for four dims), which issue at half the fp32 rate. Fitted on the probe of
 * call 1 of session 26 (an H100, bench/results/2026-12-06-s26/probe-rows):
 * six random programs' fused kernels at about 2^24 elements, last dims 33
 * and 257 against 32 and 256, took 8.6-39 us more per element-by-element
 * gather form, 245 slots an element over the six against 280 at 16 a
 * divide (docs/model.md, "What the model leaves out"). */
#define FUSEC_GATHER_SLOTS_PER_DIM 14.0

/* v at a point whose last dim is cols (a shaped chain: its call's chunks
 * follow its rows, with every pointer aligned): E / 2 a thread in ROW
 * instances where the rows are a multiple of E / 2 but not of E, and how many
 * elements share a gathered offset. */
static inline void fusec_version_rows(FusecVersion *v, double cols)
{
    int whole = v->chunk > 1 && fmod(cols, v->chunk) == 0;
    int half = !whole && v->row_max > 0 && v->chunk > 2 && fmod(cols, v->chunk / 2) == 0;
    v->gather_run = whole ? v->chunk : half ? v->chunk / 2 : 1;
}

/* A shaped chain's costs (docs/model.md, "Shapes"): a kernel's fields are
 * sums of terms, each coef times a count of elements, the product of the
 * dims' sizes raised to exp[] (a [C] bias read: 4 * C; an [R, C] output:
 * 2 * R * C). The model reads them per element of the chain's shape (n, the
 * product of its dims): fusec_costs_at fills kernels[] so at given dims. */
#define FUSEC_TERM_FIELDS(X)                                                                                 \
    X(IN, in_bytes) X(IN_AGAIN, in_again) X(MID_READ, mid_read) X(MID_WRITE, mid_write) X(OUT, out_bytes)    \
    X(FLOPS, flops) X(TRANS, trans) X(SLOTS32, slots32) X(SLOTS64, slots64) X(GATHER, gather)                 \
    X(REREAD, reread) X(REREAD_DIST, reread_dist) X(REREAD_ROW, reread_row) X(ROW_DIST, row_dist)
enum {
#define FUSEC_TERM_ENUM(E, field) FUSEC_##E,
    FUSEC_TERM_FIELDS(FUSEC_TERM_ENUM)
#undef FUSEC_TERM_ENUM
};
typedef struct FusecTerm {
    int kernel, field; /* FUSEC_IN ... */
    double coef;       /* bytes, flops or issue slots of one element */
    unsigned char exp[4];
} FusecTerm;

static inline double fusec_numel(const unsigned char *exp, const double *dims, int ndims)
{
    double v = 1;
    int d, k;
    for (d = 0; d < ndims; d++)
        for (k = 0; k < exp[d]; k++)
            v *= dims[d];
    return v;
}

/* Sets the summed fields of kernels[0..nk) to the terms' values at dims,
 * per element of n; the other fields (fp64, count) stay. */
static inline void fusec_costs_at(FusecKernelCost *kernels, int nk, const FusecTerm *terms, int nterms,
                                  const double *dims, int ndims, double n)
{
    int i;
    for (i = 0; i < nk; i++) {
        FusecKernelCost *k = &kernels[i];
#define FUSEC_TERM_ZERO(E, field) k->field = 0;
        FUSEC_TERM_FIELDS(FUSEC_TERM_ZERO)
#undef FUSEC_TERM_ZERO
    }
    for (i = 0; i < nterms; i++) {
        const FusecTerm *t = &terms[i];
        FusecKernelCost *k = &kernels[t->kernel];
        double v = t->coef * fusec_numel(t->exp, dims, ndims) / n;
        switch (t->field) {
#define FUSEC_TERM_ADD(E, field) \
    case FUSEC_##E: k->field += v; break;
            FUSEC_TERM_FIELDS(FUSEC_TERM_ADD)
#undef FUSEC_TERM_ADD
        }
    }
}

/* A version's footprint (FusecVersion.footprint) from its kernels' costs:
 * what the kernels write, plus the chain's inputs (inputs: the fused
 * kernel's in_bytes, which reads each input once). */
static inline double fusec_footprint(const FusecKernelCost *kernels, int nk, double inputs)
{
    double f = inputs;
    int i;
    for (i = 0; i < nk; i++)
        f += (kernels[i].count > 0 ? kernels[i].count : 1) * (kernels[i].mid_write + kernels[i].out_bytes);
    return f;
}

/* The fields of a device profile: X(name, printf format, lowest, highest,
 * default, meaning). One table for the struct, the JSON writer, fusec's
 * reader (which refuses a value outside [lowest, highest], naming the range,
 * and gives a field missing from a file its default, or refuses the file if
 * the default is FUSEC_REQUIRED) and the report. docs/model.md says how the
 * harness calibrates each. */
#define FUSEC_REQUIRED (-1.0)
/* A field that a profile file written before it existed takes from the
 * field that stood for it then, so the file keeps its model: launch_third_us
 * and launch_far_us from launch_next_us, graph_second_us, graph_third_us and
 * graph_far_us from graph_node_us (src/device.c, fill_older). */
#define FUSEC_OLDER (-2.0)
#define FUSEC_PROFILE_FIELDS(X)                                                                                               \
    X(hbm_gbps, "%.1f", 1.0, 1e6, FUSEC_REQUIRED, "device-to-device copy, read + write bytes, GB/s")                          \
    X(l2_gbps, "%.1f", 1.0, 1e7, FUSEC_REQUIRED, "the same for buffers that fit in L2, GB/s")                                 \
    X(l2_bytes, "%.0f", 1024.0, 1e12, FUSEC_REQUIRED, "L2 capacity, bytes")                                                   \
    X(ramp_us, "%.3f", 0.0, 1e3, FUSEC_REQUIRED, "what a kernel's memory pipeline adds once its bytes pass ramp_bytes, us")   \
    X(ramp_bytes, "%.0f", 1.0, 1e13, FUSEC_REQUIRED, "the bytes at which the ramp reaches 63% of ramp_us")                    \
    X(launch_first_us, "%.3f", 0.01, 1e4, FUSEC_REQUIRED, "cold: a call's first kernel, start event to its end, no work, us") \
    X(launch_second_us, "%.3f", 0.0, 1e4, FUSEC_REQUIRED, "cold: what the second kernel of a call adds, no work, us")         \
    X(launch_third_us, "%.3f", 0.0, 1e4, FUSEC_OLDER, "cold: what the third kernel of a call adds, no work, us")              \
    X(launch_next_us, "%.3f", 0.0, 1e4, FUSEC_REQUIRED, "cold: what each later, queued kernel adds, no work, us")             \
    X(launch_far_us, "%.3f", 0.0, 1e4, FUSEC_OLDER, "cold: what each kernel past the 32nd adds, no work, us")                 \
    X(host_call_us, "%.3f", 0.0, 1e4, FUSEC_REQUIRED, "hot: host time of a call besides its launches (the timing event), us") \
    X(host_launch_us, "%.3f", 0.0, 1e4, FUSEC_REQUIRED, "hot: host time of each kernel launch, back to back, us")             \
    X(hot_call_us, "%.3f", 0.0, 1e4, 0.0, "hot: GPU time of a call besides its kernels (the event between calls), queued, us") \
    X(graph_launch_us, "%.3f", 0.0, 1e4, FUSEC_REQUIRED, "graph: a replay of one node, back to back, us")                     \
    X(graph_second_us, "%.3f", 0.0, 1e4, FUSEC_OLDER, "graph: what a second dependent node adds, us")                          \
    X(graph_third_us, "%.3f", 0.0, 1e4, FUSEC_OLDER, "graph: what a third dependent node adds, us")                            \
    X(graph_node_us, "%.3f", 0.0, 1e4, FUSEC_REQUIRED, "graph: what each later dependent node adds, us")                      \
    X(graph_far_us, "%.3f", 0.0, 1e4, FUSEC_OLDER, "graph: what each node past the 32nd adds, us")                            \
    X(fp32_gflops, "%.0f", 1.0, 1e9, FUSEC_REQUIRED, "fp32 FMA rate, 2 flops each, GFLOP/s")                                  \
    X(fp64_gflops, "%.0f", 1.0, 1e9, FUSEC_REQUIRED, "fp64 FMA rate, 2 flops each, GFLOP/s")                                  \
    X(eager_op_us, "%.3f", 0.0, 1e5, FUSEC_REQUIRED, "host cost of one PyTorch eager op, us")                                 \
    X(compiled_call_us, "%.3f", 0.0, 1e6, FUSEC_REQUIRED, "host cost of one torch.compile'd call, us")                        \
    X(l2_hot_keep, "%.3f", 0.0, 1.0, 1.0, "hot: the share of a small footprint that L2 keeps between calls")                 \
    X(l2_hot_end, "%.3f", 0.25, 4.0, 1.1,                                                                                     \
      "hot: the footprint, in L2 sizes, from which L2 keeps none of it between calls (l2_hot_keep up to 0.25 less)")     \
    X(fma_latency_ns, "%.3f", 0.01, 1e3, 2.0, "fp32: one FMA that waits for the one before (one warp, one chain), ns")  \
    X(dfma_latency_ns, "%.3f", 0.01, 1e3, 4.0, "fp64: the same, ns")                                                        \
    X(code_us_per_kb, "%.4f", 0.0, 100.0, 0.0,                                                                                \
      "cold and graph: what a queued kernel's code adds per KiB beyond the calibration kernel's (fetched after the last), us") \
    X(gather_gelems, "%.1f", 0.0, 1e6, 0.0,                                                                                   \
      "an unfused broadcast kernel's elements a second (eager's per-element form; 0: no cap), G elements/s")            \
    X(write_tail_bytes, "%.0f", 0.0, 1e12, 0.0,                                                                               \
      "cold: the writes of a call's last kernel still in L2 when it ends, not yet in HBM, bytes")

/* A device profile. fusec has built-in ones; the harness writes calibrated
 * ones with --calibrate, in the JSON that fusec --device FILE reads. */
typedef struct FusecProfile {
    char name[64];
    char note[256];
#define FUSEC_PROFILE_MEMBER(f, fmt, lo, hi, def, doc) double f;
    FUSEC_PROFILE_FIELDS(FUSEC_PROFILE_MEMBER)
#undef FUSEC_PROFILE_MEMBER
} FusecProfile;

/* How the chain is launched: plain C launches (the emitted harness), one CUDA
 * graph replay, or PyTorch (unfused = eager, fused = torch.compile). */
enum { FUSEC_HOST_C, FUSEC_HOST_GRAPH, FUSEC_HOST_PYTORCH, FUSEC_NHOSTS };
static const char *const fusec_host_name[FUSEC_NHOSTS] = {"c", "graph", "pytorch"};

enum { FUSEC_OVERHEAD, FUSEC_MEMORY, FUSEC_COMPUTE };
static const char *const fusec_regime_name[3] = {"overhead", "memory", "compute"};

/* One predicted time and its parts (each summed over the version's kernels). */
typedef struct FusecTime {
    double us;
    double overhead_us; /* launches, graph nodes or host dispatch */
    double mem_us;      /* bytes over bandwidth, and the ramp */
    double ramp_us;     /* the ramp's share of mem_us */
    double l2_bytes;    /* bytes per element served by L2 (for the explanation) */
    double tail_bytes;  /* of them, the last kernel's writes still in L2 when a cold call ends (write_tail_bytes) */
    double compute_us;  /* issue slots over the FMA rate, and the drain (fusec_rate_us, fusec_drain_us) */
    double overlap_us;  /* what memory and compute add beyond the larger of the two */
    double gather_us;   /* what the per-element broadcast form's element rate adds to mem_us */
    double pass_us;     /* what broadcast operands read again from HBM on each pass (reread) add to mem_us */
    int regime;
} FusecTime;

/* Of a cold call's last kernel's writes (bytes), those still in L2 when it
 * ends: a smooth minimum of them and the profile's write_tail_bytes T,
 * T (1 - exp(-bytes / T)) (fusec_model_time; docs/model.md, "The write tail"). */
static inline double fusec_write_tail(const FusecProfile *p, double bytes)
{
    return p->write_tail_bytes > 0 ? p->write_tail_bytes * (1 - exp(-bytes / p->write_tail_bytes)) : 0;
}

/* A kernel whose bytes and instructions both take time runs a little longer
 * than the larger of the two: the smooth maximum (mem^8 + comp^8)^(1/8),
 * 9% over either when they are equal: with the shapes fusec emits, a
 * compute-heavy fused kernel keeps its loads in flight and runs close to
 * max(mem, comp) (docs/model.md says where that was fitted). */
static inline double fusec_overlap(double mem, double comp)
{
    double hi = mem > comp ? mem : comp, lo = mem > comp ? comp : mem;
    if (hi <= 0)
        return 0;
    double r = lo / hi, r2 = r * r, r4 = r2 * r2;
    return hi * pow(1 + r4 * r4, 0.125);
}

/* A kernel's compute, in two parts. Its rate: its issue slots over the FMA
 * rates while the GPU is full. Its drain: 0.4 of one thread's chain of
 * them, each slot as long as a dependent FMA (fma_latency_ns, dfma_latency_ns,
 * which the harness calibrates), which the kernel's last elements add after
 * their loads, whatever n is: the kernel's work is the smooth maximum of its
 * bytes' time and its rate (fusec_overlap) plus the drain. Until session 23
 * the chain was a floor under the rate (their smooth maximum) and the bytes
 * hid it; the fused kernels of 137 chains on an H100 then ran 12% (0.6 us)
 * over the model at 2^16 elements, more with more f64 slots. Of the shares
 * tried on every kept run (bench/repredict.py), 0.4 keeps the most cold rows
 * below 2^22 within 10%: 991 of 1685, against 907 before (docs/model.md,
 * "One thread's chain"). */
#define FUSEC_DRAIN_SHARE 0.4
static inline double fusec_rate_us(const FusecProfile *p, const FusecKernelCost *k, double n)
{
    return n * (k->slots32 / (p->fp32_gflops * 500) + k->slots64 / (p->fp64_gflops * 500));
}
/* An unfused kernel in eager's per-element broadcast form (gather > 0) waits
 * longer before its first loads: each element's offset comes from the
 * FxBcast dims, a loop over the call's parameters (src/emit_cuda.c,
 * emit_broadcast_kernel). Call 3 of session 28 (an H100, 2^12-2^16 elements
 * of [R, C], [B, R, C] and [A, B, R, C] chains, bench/results/2026-12-06-s28/
 * call-3): a call of one such kernel ran 0.2-0.9 us over the model cold and
 * 0.15-0.27 in a graph, a plain kernel beside it 0-0.3 and 0-0.2; four in a
 * call 1.15-1.40 us over, four plain ones 0.6-1.1 cold and -0.2-0 in a graph.
 * Re-predicted over every kept fidelity run (bench/repredict.py, eleven runs,
 * 12129 rows), 0.25-0.35 keep the most rows within target (docs/model.md,
 * "One thread's chain"). A shaped chain's fused kernel with a gathered
 * input waits the same, whether each element finds its own offsets or a ROW
 * instance's chunk shares one (fusec_drain_us; since session 29, when the
 * fused call's tail no longer hid it: golden shape_names' fused call at 1365
 * elements, [3, 455], 4.6 us cold against 3.7 predicted). Re-predicted, rows
 * within target: session 29's call 4 871 -> 889 of 987 (874 for the
 * per-element form alone), call 5 721 -> 725 of 966, the eleven kept runs
 * 9181 -> 9224 of 12129. */
#define FUSEC_GATHER_LATENCY_US 0.3
/* A kernel k of version v: its last elements' chain, and the wait of a
 * gathered input's offsets before its loads (an unfused kernel in eager's
 * broadcast form, gather; a shaped chain's fused kernel, gather_slots). */
static inline double fusec_drain_us(const FusecProfile *p, const FusecVersion *v, const FusecKernelCost *k)
{
    return FUSEC_DRAIN_SHARE * (k->slots32 * p->fma_latency_ns + k->slots64 * p->dfma_latency_ns) * 1e-3 +
           (k->gather > 0 || v->gather_slots > 0 ? FUSEC_GATHER_LATENCY_US : 0);
}

/* The share of `bytes` that L2 (of l2 bytes) keeps: 1 up to full * l2, 0
 * from none * l2 on, linear between (docs/model.md). */
static inline double fusec_l2_share(double bytes, double l2, double full, double none)
{
    double h = (none * l2 - bytes) / ((none - full) * l2);
    return h > 1 ? 1 : h < 0 ? 0 : h;
}
/* Within a call, what a kernel reads of an array an earlier kernel touched:
 * all of it from L2 while the kernel's distance to it is at most 0.35 of
 * the L2, none from 0.55 on (chains of 4 copy kernels on the H200, run 2:
 * 16 MiB buffers, 0.27 L2s, hit and 32 MiB ones, 0.53, did not; the line
 * between, re-predicted over every kept fidelity run, session 27:
 * docs/model.md, "Bytes"). Back to back (hot), the footprint's share kept
 * falls over the last 0.25 L2 sizes before l2_hot_end (the profile's). */
#define FUSEC_L2_MID_FULL 0.35
#define FUSEC_L2_MID_NONE 0.55
#define FUSEC_L2_HOT_SPAN 0.25
static inline double fusec_mid_share(double bytes, double l2)
{
    return fusec_l2_share(bytes, l2, FUSEC_L2_MID_FULL, FUSEC_L2_MID_NONE);
}
/* Of reads (bytes an element) of passes over a broadcast operand, what
 * comes from HBM: none while the kernel's traffic between two passes (`apart`
 * bytes) stays in L2, as an intermediate's read, all once it does not; hot,
 * less the share of the footprint L2 keeps (fusec_model_time). */
static inline double fusec_pass_hbm(const FusecProfile *p, double reads, double apart, double hot_hit)
{
    if (reads <= 0)
        return 0;
    double hit = fusec_mid_share(apart, p->l2_bytes);
    return reads * (1 - (hit > hot_hit ? hit : hot_hit));
}

/* The size of an emitted kernel's code (its 32-bit-index form, the one that
 * runs below 2^31 elements), KiB: a least-squares fit over the unfused
 * kernels of 77 chains (examples, tests/golden, bench/chains, random
 * programs 0-29) as nvcc 13.0 builds them for sm_90, to their issue slots
 * (bench/codesize.py; median error 19% of a chain's total). And the size of
 * the harness's calibration kernel, whose own fetch the launch terms hold. */
#define FUSEC_CODE_KB_KERNEL 3.41
#define FUSEC_CODE_KB_SLOT32 0.121
#define FUSEC_CODE_KB_SLOT64 0.117
#define FUSEC_CODE_KB_CAL 2.50
static inline double fusec_code_kb(const FusecKernelCost *k)
{
    return FUSEC_CODE_KB_KERNEL + FUSEC_CODE_KB_SLOT32 * k->slots32 + FUSEC_CODE_KB_SLOT64 * k->slots64;
}

/* What fetching the code of a call's queued kernels adds (cold and graph):
 * each kernel but the first (whose fetch its launch latency hides) waits for
 * its instructions, code_us_per_kb a KiB beyond the calibration kernel's
 * (bench/launchcost.cu, call 2 of session 12: 0.043 us a KiB cold, 0.050 in
 * a graph; docs/model.md). `kb` is the call's kernels' KiB in all. */
static inline double fusec_code_us(const FusecProfile *p, double kb, int nk)
{
    double extra = nk > 1 ? kb / nk - FUSEC_CODE_KB_CAL : 0;
    return extra > 0 ? (nk - 1) * extra * p->code_us_per_kb : 0;
}

/* The launch overhead of a call of k dependent kernels, cold or replayed in
 * a graph: the first kernel, the second, the third, each later one, and each
 * one past the FUSEC_CHAIN_FAR-th. The harness times chains of k = 1..8 tiny
 * kernels; the first three are their own terms, the rest the slope of the
 * line through k = 3..8 (in call U the third kernel of a chain cost 0.5-0.8 us more
 * than each later one cold, 0.2-0.4 in a graph, on the H200: call U of
 * session 14, docs/model.md); and chains of 32 and 64, whose slope is the
 * last term (a further kernel of a cold chain: 1.89 us at 3..8, 1.79 at
 * 16..32, 2.19 at 32..64, bench/probe_long.cu in session 14). */
#define FUSEC_CHAIN_FAR 32
static inline double fusec_chain_launches(double first, double second, double third, double next, double far, int k)
{
    if (k <= 0)
        return 0;
    int mid = (k < FUSEC_CHAIN_FAR ? k : FUSEC_CHAIN_FAR) - 3;
    return first + (k >= 2 ? second : 0) + (k >= 3 ? third : 0) + (mid > 0 ? mid * next : 0) +
           (k > FUSEC_CHAIN_FAR ? (k - FUSEC_CHAIN_FAR) * far : 0);
}
static inline double fusec_cold_launches(const FusecProfile *p, int k)
{
    return fusec_chain_launches(p->launch_first_us, p->launch_second_us, p->launch_third_us, p->launch_next_us,
                                p->launch_far_us, k);
}
static inline double fusec_graph_launches(const FusecProfile *p, int k)
{
    return fusec_chain_launches(p->graph_launch_us, p->graph_second_us, p->graph_third_us, p->graph_node_us,
                                p->graph_far_us, k);
}

/* A hot call of k kernels (back to back behind the last call's): on the
 * GPU, the call's own cost (the event between calls) and each kernel queued;
 * on the host, from C, its issue time. */
static inline double fusec_hot_launches(const FusecProfile *p, int k)
{
    return p->hot_call_us + k * p->launch_next_us;
}
static inline double fusec_host_issue(const FusecProfile *p, int k)
{
    return p->host_call_us + k * p->host_launch_us;
}

/* What a call of k kernels costs with no work: its launches (cold, hot or
 * graph replays), and from C, hot, the host's issue time when it is slower. */
static inline double fusec_launch_floor(const FusecProfile *p, int k, int host, int hot)
{
    if (k <= 0)
        return 0;
    if (host == FUSEC_HOST_GRAPH)
        return fusec_graph_launches(p, k);
    if (!hot)
        return fusec_cold_launches(p, k);
    double gpu = fusec_hot_launches(p, k), h = fusec_host_issue(p, k);
    return host == FUSEC_HOST_C && h > gpu ? h : gpu;
}

/* Predicted time of one call of version v at size n. hot: calls back to back
 * on the same buffers (what fits of the footprint stays in L2); otherwise
 * cold: L2 flushed before the call, so only intermediates can hit in L2. */
static inline FusecTime fusec_model_time(const FusecProfile *p, const FusecVersion *v, double n,
                                  int host, int fused, int hot)
{
    FusecTime t = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, FUSEC_MEMORY};
    /* hot: the share of the whole footprint that L2 keeps from one call to
     * the next: none from l2_hot_end L2 sizes on, l2_hot_keep up to 0.25 less */
    double hot_end = p->l2_hot_end, hot_full = hot_end - FUSEC_L2_HOT_SPAN;
    double hot_hit = hot ? p->l2_hot_keep * fusec_l2_share(n * v->footprint, p->l2_bytes, hot_full, hot_end) : 0;
    double work = 0, code_kb = 0;
    int nk = 0;
    for (int i = 0; i < v->nkernels; i++) {
        const FusecKernelCost *k = &v->kernels[i];
        double m = k->count > 0 ? k->count : 1;
        double io = k->in_bytes + k->out_bytes, mid = k->mid_read + k->mid_write, again = k->in_again;
        double moved = fusec_kernel_bytes(k); /* io + mid + again */
        /* a read of an intermediate hits in L2 while the array is small beside
         * the L2 (the next kernel's output streams in meanwhile): all of it up
         * to 0.35 of the L2, none from 0.55 on (FUSEC_L2_MID_FULL, _NONE; the
         * largest intermediate the kernel touches, or its distance, mid_dist,
         * stands for its buffers); so does a read of an input an earlier kernel
         * read, by its own distance (again_dist). Its write reaches HBM when
         * cold: the write allocates lines in an L2 full of dirty ones (the
         * caches were flushed by writing), and each evicted line is written back
         * (ncu, call 8 of 2026-12-03: a kernel ends with at most 23-24 MB of its
         * writes not yet in HBM). Not so for a write into the scratch slot of an
         * intermediate no longer needed (reuse: the emitted unfused version
         * hands slots on as eager's caching allocator hands on a freed
         * temporary's block): it overwrites lines still in L2 (call R of session
         * 13: the f64 chains' unfused calls 4-7% faster at 2^20). Eager (host
         * pytorch) also writes its last op's output into a recycled block, so
         * there every intermediate write counts so (seed at 2^22, run G of
         * 2026-11-30: eager 35.4 us, 39.1 predicted so, 44.4 with the writes at
         * HBM) */
        double buf = n * (k->mid_read > k->mid_write ? k->mid_read : k->mid_write);
        double far = n * k->mid_dist > buf ? n * k->mid_dist : buf;
        double mid_hit = mid > 0 ? fusec_mid_share(far, p->l2_bytes) : 0;
        if (mid_hit < hot_hit)
            mid_hit = hot_hit;
        double reuse_hit = k->reuse ? fusec_mid_share(2 * buf, p->l2_bytes) : 0;
        double write_hit = host == FUSEC_HOST_PYTORCH ? mid_hit : reuse_hit > hot_hit ? reuse_hit : hot_hit;
        double again_hit = again > 0 ? fusec_mid_share(n * k->again_dist, p->l2_bytes) : 0;
        if (again_hit < hot_hit)
            again_hit = hot_hit;
        double l2 = io * hot_hit + k->mid_read * mid_hit + k->mid_write * write_hit + again * again_hit;
        double hbm = moved - l2;
        /* a broadcast operand read again on each pass (reread): from HBM once
         * the kernel's traffic between two passes is large beside the L2, as
         * an intermediate's read, and for free while it stays (its lines are
         * read by every SM alongside the stream: golden shape_mid_bcast's
         * 64 KiB [R, C] of [B, R, C] ran at its own bytes' time, session 24's
         * call 2); session 26's probe: a bf16 [S, 4096] table added to [4,
         * S, 4096] ran 26-30% over the model that read it once, at 16 to 256
         * MiB of table (docs/model.md, "Passes") */
        double pass = fusec_pass_hbm(p, k->reread, n * k->reread_dist * moved, hot_hit) +
                      fusec_pass_hbm(p, k->reread_row, n * k->row_dist * moved, hot_hit);
        hbm += pass;
        /* cold, a call's last kernel ends with up to write_tail_bytes of its
         * writes still in L2 (ncu, call 8 of 2026-12-03: 23-24 MB on the
         * H200; 2% of the seed's writes had reached HBM at 2^22 elements, 64%
         * at 2^24, 91% at 2^26): the call's end event does not wait for them,
         * so they cost the L2 rate. How many: a smooth minimum of its writes
         * w and the tail T, T (1 - exp(-w / T)): where the writes are under
         * the tail the kernel's reads still take their time, and the plain
         * minimum gave too much (docs/model.md, "The write tail") */
        if (!hot && k->last && n > 0) {
            double tail = fusec_write_tail(p, n * (k->out_bytes + k->mid_write * (1 - write_hit))) / n;
            hbm -= tail;
            l2 += tail;
            t.tail_bytes += m * tail;
        }
        double bytes = n * (hbm + l2);
        double ramp = p->ramp_us * (1 - exp(-bytes / p->ramp_bytes));
        double mem = n * hbm / (p->hbm_gbps * 1e3) + n * l2 / (p->l2_gbps * 1e3) + ramp;
        t.pass_us += m * n * pass / (p->hbm_gbps * 1e3);
        /* eager's per-element broadcast form feeds the memory system at most
         * gather_gelems elements a second, whatever their bytes: an i8 and an
         * f16 [R, C] times an f32 [R, 1] or [C] both ran at 522-527 G elements/s
         * on the H200, an f32 one at 479-492 where its bytes take as long
         * (call 2 of session 16, docs/model.md): the smooth maximum of the two */
        if (k->gather > 0 && p->gather_gelems > 0) {
            double capped = fusec_overlap(mem, n * k->gather / (p->gather_gelems * 1e3));
            t.gather_us += m * (capped - mem);
            mem = capped;
        }
        /* a shaped chain's fused kernel: its broadcast inputs' offsets (gather_slots) */
        FusecKernelCost kg;
        if (v->gather_slots > 0) {
            kg = *k;
            kg.slots32 += v->gather_slots / (v->gather_run > 1 ? v->gather_run : 1);
            k = &kg;
        }
        double rate = fusec_rate_us(p, k, n), drain = fusec_drain_us(p, v, k), comp = rate + drain;
        double w = fusec_overlap(mem, rate) + drain;
        t.mem_us += m * mem;
        t.ramp_us += m * ramp;
        t.l2_bytes += m * l2;
        t.compute_us += m * comp;
        t.overlap_us += m * (w - (mem > comp ? mem : comp)); /* >= 0: w >= max(mem, rate) + drain */
        work += m * w;
        code_kb += m * fusec_code_kb(k);
        nk += (int)m;
    }
    if (host == FUSEC_HOST_GRAPH)
        t.overhead_us = fusec_graph_launches(p, nk);
    else if (hot)
        /* every kernel queued behind the last call's, and the call's own
         * cost on the GPU: the event between calls (hot_call_us; session
         * 24's runs: a one-kernel call at 2^12-2^18, where the GPU was
         * slower than the host, took 3.4 us besides its work, launch_next_us
         * 2.1) */
        t.overhead_us = fusec_hot_launches(p, nk);
    else
        t.overhead_us = fusec_cold_launches(p, nk);
    /* a graph replay fetches its kernels' code as a cold call does, back to
     * back or not: without this term the unfused calls of session 23's 137
     * chains (H100) ran 5% over the model at 2^12 in graphs, 12% at 2^16;
     * with it the graph rows below 2^22 within 10% went from 240 to 259 of
     * 441 there, and up on five of six kept H200 runs (docs/model.md) */
    if (!hot || host == FUSEC_HOST_GRAPH)
        t.overhead_us += fusec_code_us(p, code_kb, nk);
    double gpu_us = t.overhead_us + work;
    t.us = gpu_us;
    int host_bound = 0;
    if (host == FUSEC_HOST_C && hot) {
        /* back to back, the host may be slower than the GPU: a call costs the
         * larger of the host's issue time and the GPU's; while it is the
         * host's, the call is overhead-bound, whatever its work */
        double h = fusec_host_issue(p, nk);
        if (h > gpu_us) {
            t.overhead_us += h - gpu_us;
            t.us = h;
            host_bound = 1;
        }
    }
    if (host == FUSEC_HOST_PYTORCH) {
        /* The host dispatches asynchronously: a call costs the larger of the
         * host's work and the GPU's. */
        double h = fused ? p->compiled_call_us : nk * p->eager_op_us;
        t.overhead_us = h;
        t.us = h > gpu_us ? h : gpu_us;
    }
    if (host_bound || (t.overhead_us >= t.mem_us && t.overhead_us >= t.compute_us))
        t.regime = FUSEC_OVERHEAD;
    else
        t.regime = t.compute_us > t.mem_us ? FUSEC_COMPUTE : FUSEC_MEMORY;
    return t;
}

/* How many kernels a version launches (its entries' counts). */
static inline int fusec_kernel_count(const FusecVersion *v)
{
    int n = 0;
    for (int i = 0; i < v->nkernels; i++)
        n += v->kernels[i].count > 0 ? v->kernels[i].count : 1;
    return n;
}

/* The profile as JSON: the format fusec --device FILE reads. */
static inline void fusec_profile_write_json(FILE *f, const FusecProfile *p)
{
    fprintf(f, "{\n  \"name\": \"%s\",\n  \"note\": \"%s\"", p->name, p->note);
#define FUSEC_PROFILE_JSON(fl, fmt, lo, hi, def, doc) fprintf(f, ",\n  \"" #fl "\": " fmt, p->fl);
    FUSEC_PROFILE_FIELDS(FUSEC_PROFILE_JSON)
#undef FUSEC_PROFILE_JSON
    fprintf(f, "\n}\n");
}

#endif /* FUSEC_MODEL_H */

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

#include <stdio.h>

/* What one kernel costs per element. Reads of chain inputs and writes of chain
 * outputs always go to HBM; reads and writes of intermediates (buffers that one
 * kernel writes and a later one reads) stay in L2 when they fit. */
typedef struct FusecKernelCost {
    double in_bytes;  /* reads of chain inputs */
    double mid_read;  /* reads of intermediates */
    double mid_write; /* writes of intermediates */
    double out_bytes; /* writes of chain outputs */
    double flops;     /* simple arithmetic */
    double trans;     /* transcendental functions (exp, log, erf, ...) */
    int fp64;         /* 1 when the kernel computes in double */
    int count;        /* how many kernels cost exactly this (0 is read as 1) */
} FusecKernelCost;

/* A version of the chain: its kernels' costs (kernels that cost the same
 * are one entry with a count; order does not matter). footprint is the
 * distinct bytes per element of every buffer it touches (for the hot mode). */
typedef struct FusecVersion {
    int nkernels; /* entries of kernels[], not kernels: see count */
    const FusecKernelCost *kernels;
    double footprint;
} FusecVersion;

/* A device profile. fusec has built-in ones; the harness writes calibrated
 * ones with --calibrate, in the JSON that fusec --device FILE reads. */
typedef struct FusecProfile {
    char name[64];
    char note[256];
    double hbm_gbps;         /* device-to-device copy, read + write bytes */
    double l2_gbps;          /* the same, for buffers that fit in L2 */
    double l2_bytes;         /* L2 capacity */
    double launch_us;        /* one kernel launched from C, back to back */
    double graph_node_us;    /* one dependent kernel node in a CUDA graph */
    double fp32_gflops;      /* plain fp32 arithmetic (no tensor cores) */
    double fp64_gflops;      /* plain fp64 arithmetic */
    double sfu_gops;         /* fp32 transcendentals (special function units) */
    double eager_op_us;      /* host cost of one PyTorch eager op */
    double compiled_call_us; /* host cost of one torch.compile'd call */
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
    double mem_us;
    double compute_us;
    int regime;
} FusecTime;

/* A double-precision transcendental (exp, log, erf, ... in software) costs
 * about this many fp64 flops: fitted to examples/softplus_f64.fuse, which is
 * compute-bound on the H200 (docs/results.md has the fit). */
#define FUSEC_FP64_TRANS_FLOPS 115.0

/* Predicted time of one call of version v at size n. hot: calls back to back
 * on the same buffers (the whole footprint may sit in L2); otherwise cold: L2
 * flushed before the call, so only intermediates can hit in L2. */
static inline FusecTime fusec_model_time(const FusecProfile *p, const FusecVersion *v, double n,
                                  int host, int fused, int hot)
{
    FusecTime t = {0, 0, 0, 0, FUSEC_MEMORY};
    int all_l2 = hot && n * v->footprint <= p->l2_bytes;
    double gpu_us = 0, launch = host == FUSEC_HOST_GRAPH ? p->graph_node_us : p->launch_us;
    int nk = 0;
    for (int i = 0; i < v->nkernels; i++) {
        const FusecKernelCost *k = &v->kernels[i];
        double m = k->count > 0 ? k->count : 1;
        double mid = k->mid_read + k->mid_write;
        int mid_l2 = all_l2 || n * mid <= p->l2_bytes;
        double hbm = all_l2 ? 0 : k->in_bytes + k->out_bytes;
        double l2 = (all_l2 ? k->in_bytes + k->out_bytes : 0) + (mid_l2 ? mid : 0);
        if (!mid_l2)
            hbm += mid;
        double mem = n * hbm / (p->hbm_gbps * 1e3) + n * l2 / (p->l2_gbps * 1e3);
        double comp = k->fp64 ? n * (k->flops + FUSEC_FP64_TRANS_FLOPS * k->trans) / (p->fp64_gflops * 1e3)
                              : n * k->flops / (p->fp32_gflops * 1e3) + n * k->trans / (p->sfu_gops * 1e3);
        t.mem_us += m * mem;
        t.compute_us += m * comp;
        t.overhead_us += m * launch;
        gpu_us += m * (launch + (mem > comp ? mem : comp));
        nk += (int)m;
    }
    if (host == FUSEC_HOST_GRAPH && nk > 0) {
        /* A graph replay is one launch; its later kernels cost a node each. */
        t.overhead_us += p->launch_us - p->graph_node_us;
        gpu_us += p->launch_us - p->graph_node_us;
    }
    t.us = gpu_us;
    if (host == FUSEC_HOST_PYTORCH) {
        /* The host dispatches asynchronously: a call costs the larger of the
         * host's work and the GPU's. */
        double h = fused ? p->compiled_call_us : nk * p->eager_op_us;
        t.overhead_us = h;
        t.us = h > gpu_us ? h : gpu_us;
    }
    if (t.overhead_us >= t.mem_us && t.overhead_us >= t.compute_us)
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
    fprintf(f, "{\n  \"name\": \"%s\",\n  \"note\": \"%s\",\n", p->name, p->note);
    fprintf(f, "  \"hbm_gbps\": %.1f,\n  \"l2_gbps\": %.1f,\n  \"l2_bytes\": %.0f,\n", p->hbm_gbps,
            p->l2_gbps, p->l2_bytes);
    fprintf(f, "  \"launch_us\": %.3f,\n  \"graph_node_us\": %.3f,\n", p->launch_us, p->graph_node_us);
    fprintf(f, "  \"fp32_gflops\": %.0f,\n  \"fp64_gflops\": %.0f,\n  \"sfu_gops\": %.0f,\n",
            p->fp32_gflops, p->fp64_gflops, p->sfu_gops);
    fprintf(f, "  \"eager_op_us\": %.3f,\n  \"compiled_call_us\": %.3f\n}\n", p->eager_op_us,
            p->compiled_call_us);
}

#endif /* FUSEC_MODEL_H */

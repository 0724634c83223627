/*
 * fusec_chain.h: what an emitted .cu tells the timing harness about its chain.
 *
 * fusec writes one FusecChain per .cu file (under #ifndef FUSEC_NO_HARNESS);
 * fusec_harness.cuh reads nothing else. Needs fusec_dtype.h and fusec_model.h first.
 */
#ifndef FUSEC_CHAIN_H
#define FUSEC_CHAIN_H

#include <stddef.h>

/* One element's value for the reference: a float or bool (0 or 1) as a
 * double, an integer exactly (the dtype's kind says which member). */
typedef union FusecValue {
    double f;
    long long i;
} FusecValue;

typedef struct FusecTensorArg {
    const char *name;
    int dtype;     /* FX_* (fusec_dtype.h) */
    int tol_dtype; /* the least precise float dtype of any value it depends on:
                    * its error is that dtype's, whatever it is stored in */
    unsigned varies; /* a shaped chain: bit q set when it varies along position q
                      * of the chain's shape (a [C] bias of [R, C]: bit 1) */
} FusecTensorArg;

typedef struct FusecParamArg {
    const char *name;
    int dtype;    /* a float FX_*; passed to kernels as float, or double for f64 */
    double value; /* the default from the .fuse file: what the harness uses */
} FusecParamArg;

typedef struct FusecChain {
    const char *name;    /* the C prefix: P_fused, P_unfused */
    const char *source;  /* the .fuse file as given to fusec */
    const char *program; /* the program, one statement per line, for the banner */
    int n_in, n_out, n_par;
    const FusecTensorArg *in;  /* n_in entries, declaration order */
    const FusecTensorArg *out; /* n_out entries */
    const FusecParamArg *par;  /* n_par entries (NULL when none) */
    FusecVersion unfused, fused;
    double unfused_bytes, fused_bytes; /* per element; their ratio is the traffic ratio */
    /* Runs one version (0 unfused, 1 fused, 2 CUB) on device buffers: bufs[0..n_in) are the inputs,
     * bufs[n_in..n_in+n_out) the outputs; par[n_par] the params. Returns the
     * first CUDA error (launch errors included), cudaSuccess otherwise. */
    cudaError_t (*run)(int fused, void *const *bufs, const double *par, size_t n, cudaStream_t s);
    /* The host reference for one element, in double (integers exactly):
     * in[n_in] -> out[n_out].
     * It rounds where the version rounds (unfused: every intermediate to its
     * storage dtype, as eager does; fused: to the compute type), so the only
     * differences left are the device's own arithmetic. It sets
     * fusec_ref_fragile (fusec_ref.h) when a discontinuous op (comparison,
     * floor, round, sign, ...) was evaluated close to its jump. */
    void (*reference)(int fused, const FusecValue *in, const double *par, FusecValue *out);
    /* 2: unfused and fused; 3: also the CUB version, the fused chain's
     * element function through cub::DeviceTransform (a .cu of a chain
     * without shapes compiled with -DFUSEC_CUB), whose reference is the fused
     * version's. */
    int versions;
    /* A shaped chain (docs/language.md, "Shapes"); rank 0 and the rest NULL
     * for a chain of n elements. Its tensors are contiguous and row-major;
     * run is NULL and run_dims takes the dims' sizes, in the API's order.
     * unfused and fused above hold each kernel's fp64 flag; the terms give
     * its bytes and compute at any dims (fusec_costs_at). */
    int rank;
    const int *shape;        /* rank entries: the dim at each position, -1 for a 1 */
    int ndims;
    const char *const *dims; /* the dims' names, in the API's order */
    cudaError_t (*run_dims)(int fused, void *const *bufs, const double *par, const size_t *dims, cudaStream_t s);
    int nuterms, nfterms;
    const FusecTerm *uterms, *fterms;
} FusecChain;

#endif /* FUSEC_CHAIN_H */

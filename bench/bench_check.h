/* bench_check.h: CHECK(call) for the bench's standalone CUDA programs
 * (opcost.cu, launchcost.cu): a failed CUDA call prints where and exits 1. */
#ifndef BENCH_CHECK_H
#define BENCH_CHECK_H
#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                                        \
    do {                                                                                                \
        cudaError_t e_ = (x);                                                                           \
        if (e_ != cudaSuccess) {                                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                 \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

#endif

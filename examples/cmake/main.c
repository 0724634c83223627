/* Runs the seed chain y = relu(x*2+1)*0.5 fused and unfused on the GPU and
 * checks both against the host. Exit status 0 when they all agree. */
#include <stdio.h>
#include <stdlib.h>

#include "seed.h"

#define CHECK(call)                                                               \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));         \
            return 1;                                                             \
        }                                                                         \
    } while (0)

int main(void)
{
    const size_t n = (size_t)1 << 20;
    float *x = malloc(n * sizeof *x), *fused = malloc(n * sizeof *fused),
          *unfused = malloc(n * sizeof *unfused);
    float *dx, *dy;
    if (!x || !fused || !unfused)
        return 1;
    for (size_t i = 0; i < n; i++)
        x[i] = (float)i / (float)n * 8.0f - 4.0f; /* -4 .. 4: both sides of relu */

    CHECK(cudaMalloc((void **)&dx, n * sizeof *dx));
    CHECK(cudaMalloc((void **)&dy, n * sizeof *dy));
    CHECK(cudaMemcpy(dx, x, n * sizeof *x, cudaMemcpyHostToDevice));
    CHECK(seed_fused(dx, dy, n, 0));
    CHECK(cudaMemcpy(fused, dy, n * sizeof *fused, cudaMemcpyDeviceToHost));
    CHECK(seed_unfused(dx, dy, n, 0));
    CHECK(cudaMemcpy(unfused, dy, n * sizeof *unfused, cudaMemcpyDeviceToHost));
    seed_unfused_release();
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));

    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float t = x[i] * 2.0f + 1.0f, want = (t > 0.0f ? t : 0.0f) * 0.5f;
        if (fused[i] != want || unfused[i] != want) /* every step is exact here */
            if (bad++ < 5)
                fprintf(stderr, "x=%g: fused %g, unfused %g, expected %g\n", x[i],
                        fused[i], unfused[i], want);
    }
    printf("seed: %zu elements, %zu mismatches\n", n, bad);
    free(x), free(fused), free(unfused);
    return bad != 0;
}

// probe_idiv.cu: fusec's integer // and % (runtime/fusec_ops.cuh's fx_int_floor_divide and
// fx_int_remainder) on the GPU in hand for every pair (a, b) of u8, i8 and i16 (2^32 pairs),
// against Python's floor division computed in 64 bits, with fusec's answers for b = 0
// (fx_int_div0: -1, and a // 0 = -2 for a < 0; 255 in u8). u8, i8 and i16 divide in float
// there (fx_narrow_floor_divide), so this is the proof by exhaustion that the float quotient
// floors right. The reference (expect) is written apart from fusec's functions and from
// runtime/fusec_ref.h's host ones, on the device, where the 2^32 pairs take a second. One
// line per type: the pairs checked and the mismatches, with the first one.
//   nvcc -O3 -arch=sm_90 bench/probe_idiv.cu -o probe_idiv && ./probe_idiv
#include "../runtime/fusec_kernel.cuh"
#include "../runtime/fusec_ops.cuh"
#include <cstdio>

struct Miss {
    unsigned long long count;
    int a, b;
    long long q, r, want_q, want_r;
};

template <typename T> __device__ void expect(T a, T b, long long *q, long long *r)
{
    long long x = a, y = b;
    if (y == 0) {
        *q = (T)(x < 0 ? -2 : -1);
        *r = (T)-1;
        return;
    }
    long long tq = x / y, tr = x - tq * y;
    if (tr != 0 && (tr < 0) != (y < 0)) {
        tq -= 1;
        tr += y;
    }
    *q = (T)tq; /* MIN // -1 wraps to MIN */
    *r = (T)tr;
}

template <typename T> __global__ void check(int lo, Miss *m)
{
    const int nb = 1 << (8 * sizeof(T));
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < (long long)nb * nb;
         k += (long long)gridDim.x * blockDim.x) {
        const T a = (T)(lo + (int)(k / nb)), b = (T)(lo + (int)(k % nb));
        long long q = fx_int_floor_divide(a, b), r = fx_int_remainder(a, b), wq, wr;
        expect(a, b, &wq, &wr);
        if (q != wq || r != wr) {
            if (atomicAdd(&m->count, 1ull) == 0) {
                m->a = a, m->b = b, m->q = q, m->r = r, m->want_q = wq, m->want_r = wr;
            }
        }
    }
}

template <typename T> static int run(const char *name, int lo)
{
    Miss *m, h;
    cudaMallocManaged(&m, sizeof *m);
    m->count = 0;
    check<T><<<132 * 16, 256>>>(lo, m);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("%s: CUDA error %s\n", name, cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    h = *m;
    cudaFree(m);
    const unsigned long long pairs = 1ull << (16 * sizeof(T));
    if (h.count == 0)
        printf("%-4s %llu pairs: ok\n", name, pairs);
    else
        printf("%-4s %llu pairs: %llu MISMATCH, first %d // %d = %lld, %% = %lld (want %lld, %lld)\n", name, pairs,
               h.count, h.a, h.b, h.q, h.r, h.want_q, h.want_r);
    return h.count != 0;
}

int main()
{
    int bad = run<uint8_t>("u8", 0);
    bad |= run<int8_t>("i8", -128);
    bad |= run<int16_t>("i16", -32768);
    return bad;
}

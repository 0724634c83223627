/*
 * The fast path of the kernels' float // by a tensor (fx_fmod_q and
 * fx_floor_from_y in runtime/fusec_ops.cuh), compiled for the host by nvcc,
 * against fmodf and eager's formula (c10::div_floor_floating, written out
 * here), bit for bit (NaN with NaN): pairs of random bits,
 * quotients next to an integer (a = k b moved by a few ulps), operands of
 * close exponents, small integers over the chains' divisors, and every
 * special value against every other; each with the quotient estimate a / b
 * moved by 0, 1 and 2 ulps either way (the device's div.full.f32 is within
 * 2 ulp). Then fx_floor_divide itself on the same pairs. Needs no GPU.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "fusec_dtype.h"
#include "fusec_model.h"
#include "fusec_kernel.cuh"
#include "fusec_ops.cuh"

static uint64_t state = 88172645463325252ull;
static uint32_t rnd(void) /* xorshift64: the same pairs every run */
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)state;
}
static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static long checked, fast, failures;

static void expect(const char *what, float a, float b, float y, float got, float want)
{
    checked++;
    if (float_bits(got) != float_bits(want) && !(isnan(got) && isnan(want)) && failures++ < 20)
        printf("FAIL %s(%a, %a) with quotient %a: got %a want %a\n", what, a, b, y, got, want);
}

/* eager's // (c10::div_floor_floating) on fmodf, written out here apart from
 * the runtime's fx_floor_divide_from and fx_floor_step */
static float eager_floor_divide(float a, float b)
{
    if (b == 0.0f)
        return a / b;
    const float mod = fmodf(a, b);
    float div = (a - mod) / b;
    if (mod != 0.0f && (b < 0.0f) != (mod < 0.0f))
        div -= 1.0f;
    if (div == 0.0f)
        return copysignf(0.0f, a / b);
    const float floordiv = floorf(div);
    return div - floordiv > 0.5f ? floordiv + 1.0f : floordiv;
}

static void check(float a, float b)
{
    const float fm = fmodf(a, b), y0 = a / b, want = eager_floor_divide(a, b);
    for (int d = -2; d <= 2; d++) {
        float y = y0, q, out;
        for (int k = 0; k < (d < 0 ? -d : d) && isfinite(y0); k++)
            y = nextafterf(y, d < 0 ? -INFINITY : INFINITY);
        if (!fx_quot_ok(b, y))
            continue;
        fast++;
        expect("fx_fmod_q", a, b, y, fx_fmod_q(a, b, y, q), fm);
        expect("fx_floor_from_y", a, b, y, fx_floor_from_y(a, b, y, out) ? out : NAN, want);
    }
    expect("fx_floor_divide", a, b, y0, fx_floor_divide(a, b), want);
}

int main(void)
{
    const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, -2.5f, 0.37f, INFINITY, -INFINITY, NAN,
                             0x1p-149f, -0x1p-149f, 0x1p-126f, 0x1.fffffcp-127f, 0x1p126f, 0x1.8p126f,
                             3.4028235e38f, -3.4028235e38f, 0x1p22f, 0x1.fffffep21f, 0x1p24f, 16777215.0f};
    const int ns = sizeof special / sizeof special[0];
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < ns; j++)
            check(special[i], special[j]);
    const float divisors[] = {0.37f, 3.0f, -2.5f, 0.75f, 1.5f, -3.0f, 0.1f, 7.0f, 2.5f, 0.375f};
    for (long i = 0; i < 1000000; i++) {
        float a, b;
        switch (i % 4) {
        case 0: /* any bits */
            a = bits_float(rnd());
            b = bits_float(rnd());
            break;
        case 1: { /* a quotient next to an integer k below 2^22 */
            b = bits_float((rnd() & 0x807fffffu) | ((100u + rnd() % 60) << 23));
            float k = (float)(rnd() % (1u << (rnd() % 23))) * ((rnd() & 1) ? 1.0f : -1.0f);
            a = bits_float(float_bits(k * b) + (uint32_t)((int)(rnd() % 7) - 3));
            break;
        }
        case 2: { /* exponents within 30 of each other */
            uint32_t e = 1 + rnd() % 253, ea = e + rnd() % 30;
            b = bits_float((rnd() & 0x807fffffu) | (e << 23));
            a = bits_float((rnd() & 0x807fffffu) | ((ea > 254 ? 254 : ea) << 23));
            break;
        }
        default: /* small integers and quarters over the chains' divisors */
            a = (float)((int)(rnd() % 20001) - 10000) * ((rnd() & 1) ? 1.0f : 0.25f);
            b = divisors[rnd() % 10];
        }
        check(a, b);
    }
    printf("float // by a tensor: %ld checks, %ld estimates on the fast path, %ld differ\n", checked, fast, failures);
    return failures != 0;
}

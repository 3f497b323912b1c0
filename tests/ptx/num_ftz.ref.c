/* Reference for num_ftz.cu. `./num_ftz.ref` prints out (256*16 words, 8 hex digits);
 * `./num_ftz.ref inputs` prints a, b, then the zeroed out.
 * Build: gcc -O2 -std=c11 -frounding-math -ffp-contract=off num_ftz.ref.c -o num_ftz.ref -lm
 * .ftz: a subnormal binary32 input or result is a zero of its sign; NaN results 0x7fffffff. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcg(void) { S = S * 1664525u + 1013904223u; return S; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static float fz(float f) { return (fb(f) & 0x7f800000u) == 0 ? bf(fb(f) & 0x80000000u) : f; }
static uint32_t res(float f) { return isnan(f) ? 0x7fffffffu : fb(fz(f)); }

#define N 256
#define K 16

static uint32_t gen(int i)
{
    static const uint32_t sp[] = { 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                   0x00000001u, 0x807fffffu, 0x00800000u, 0x80800000u, 0x3f800000u, 0x3e800001u };
    uint32_t r = lcg();
    switch (i % 4) {
    case 0: return sp[(i / 4) % (sizeof sp / sizeof sp[0])];
    case 1: return r & 0x807fffffu;
    case 2: return (r & 0x80ffffffu) | (uint32_t)(1 + r % 40) << 23;   /* small normals */
    default: return (r & 0x80ffffffu) | (uint32_t)(100 + r % 50) << 23;
    }
}

static uint32_t fmin_c(float a, float b)
{
    if (isnan(a) && isnan(b)) return 0x7fffffffu;
    if (isnan(a)) return fb(b);
    if (isnan(b)) return fb(a);
    if (a == b) return fb(a) | fb(b);
    return a < b ? fb(a) : fb(b);
}
static uint32_t fmax_c(float a, float b)
{
    if (isnan(a) && isnan(b)) return 0x7fffffffu;
    if (isnan(a)) return fb(b);
    if (isnan(b)) return fb(a);
    if (a == b) return fb(a) & fb(b);
    return a > b ? fb(a) : fb(b);
}
static int32_t f2i(float f, int up)
{
    if (isnan(f)) return 0;
    double d = up ? ceil(f) : floor(f);
    return d <= -2147483648.0 ? INT32_MIN : d >= 2147483647.0 ? INT32_MAX : (int32_t)d;
}

int main(int argc, char **argv)
{
    static uint32_t a[N], b[N], out[N * K];
    S = 5301; for (int i = 0; i < N; i++) a[i] = gen(i);
    S = 5302; for (int i = 0; i < N; i++) b[i] = gen(i + 1);
    if (argc > 1 && strcmp(argv[1], "inputs") == 0) {
        for (int i = 0; i < N; i++) printf("%08x\n", a[i]);
        for (int i = 0; i < N; i++) printf("%08x\n", b[i]);
        for (int i = 0; i < N * K; i++) printf("%08x\n", 0u);
        return 0;
    }
    for (int i = 0; i < N; i++) {
        float x = fz(bf(a[i])), y = fz(bf(b[i]));   /* every use flushes its inputs */
        uint32_t *o = out + i * K;
        o[0] = res(x + y);
        o[1] = res(x * y);
        o[2] = res(fmaf(x, y, x));
        o[3] = res(x / y);
        o[4] = res(sqrtf(fabsf(x)));
        o[5] = res(1.0f / y);
        o[6] = fmin_c(x, y);
        o[7] = fmax_c(x, y);
        o[8] = (x < y ? 1u : 0u) | (x == y ? 2u : 0u) | (x == 0.0f ? 4u : 0u) | (!(y >= 0.0f) ? 8u : 0u);
        float x4 = bf(res(x * 4.0f));
        o[9] = isnan(x4) || x4 <= 0 ? 0 : x4 >= 1.0f ? 0x3f800000u : fb(x4);
        o[10] = (uint32_t)f2i(x, 0) ^ (uint32_t)f2i(y, 1) << 1;
        o[11] = res(bf(res(floorf(x))) + bf(res(ceilf(y))));
        /* neg.ftz and abs.ftz are arithmetic (as SASS FADD.FTZ with -RZ): a NaN becomes the canonical one */
        o[12] = res(-x) ^ res(fabsf(y));
        volatile float vx = x, vy = y, r;
        fesetround(FE_TOWARDZERO);
        r = vx * vy;
        fesetround(FE_TONEAREST);
        o[13] = res(r);
        o[14] = res((float)((double)x * (double)y));
        o[15] = res(x - y);
    }
    for (int i = 0; i < N * K; i++) printf("%08x\n", out[i]);
    return 0;
}

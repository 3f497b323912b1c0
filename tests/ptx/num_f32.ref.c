/* Reference for num_f32.cu. `./num_f32.ref` prints out (256*48 words, 8 hex digits);
 * `./num_f32.ref inputs` prints a, b, c, then the zeroed out.
 * Build: gcc -O2 -std=c11 -frounding-math -ffp-contract=off num_f32.ref.c -o num_f32.ref -lm
 * CUDA's rules beyond IEEE-754: a NaN result is 0x7fffffff; float-to-integer conversions
 * saturate and give 0 for NaN; saturation (__saturatef) clamps to [0, 1], NaN to 0; min/max
 * return the other operand for one NaN. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcg(void) { S = S * 1664525u + 1013904223u; return S; }
static float f_unit(uint32_t u) { return (float)(u >> 8) * (1.0f / 16777216.0f); }
static float f_sym(uint32_t u) { return f_unit(u) * 2.0f - 1.0f; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t res(float f) { return isnan(f) ? 0x7fffffffu : fb(f); }

#define N 256
#define K 48

static uint32_t gen(int i, int which)
{
    static const uint32_t sp[] = { 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                   0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u,
                                   0xbf800000u, 0x4f000000u, 0xcf000000u, 0x5f800000u, 0x3effffffu };
    uint32_t r = lcg();
    switch (i % 8) {
    case 0: return sp[(i / 8 + which * 5) % (sizeof sp / sizeof sp[0])];
    case 1: return r & 0x807fffffu;
    case 2: return fb((float)((int)(r % 41) - 20) * 0.5f);
    case 3: return fb(f_sym(r) * ldexpf(1.0f, 20 + (int)(r % 44)));
    default: return fb(f_sym(r) * ldexpf(1.0f, (int)((r >> 3) % 40) - 20));
    }
}

enum { ADD, MUL, FMA, DIV, SQRT, I2F, U2F, L2F, UL2F };
static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

/* one operation in rounding mode m (0 rn, 1 rz, 2 rd, 3 ru) */
static uint32_t op(int o, int m, float a, float b, float c, uint64_t iv)
{
    volatile float va = a, vb = b, vc = c, r = 0;
    volatile uint64_t vi = iv;
    fesetround(modes[m]);
    switch (o) {
    case ADD: r = va + vb; break;
    case MUL: r = va * vb; break;
    case FMA: r = fmaf(va, vb, vc); break;
    case DIV: r = va / vb; break;
    case SQRT: r = sqrtf(va); break;
    case I2F: r = (float)(int32_t)vi; break;
    case U2F: r = (float)(uint32_t)vi; break;
    case L2F: r = (float)(int64_t)vi; break;
    default: r = (float)vi; break;
    }
    fesetround(FE_TONEAREST);
    return res(r);
}

/* float -> integer: rounded (0 rn, 1 rz, 2 rd, 3 ru), saturated to [lo, hi], NaN 0 */
static double rnd(double d, int m) { return m == 0 ? nearbyint(d) : m == 1 ? trunc(d) : m == 2 ? floor(d) : ceil(d); }
static int32_t f2i(float f, int m)
{
    if (isnan(f)) return 0;
    double d = rnd(f, m);
    return d <= -2147483648.0 ? INT32_MIN : d >= 2147483647.0 ? INT32_MAX : (int32_t)d;
}
static uint32_t f2u(float f, int m)
{
    if (isnan(f)) return 0;
    double d = rnd(f, m);
    return d <= 0 ? 0 : d >= 4294967295.0 ? UINT32_MAX : (uint32_t)d;
}
static int64_t f2ll(float f, int m)
{
    if (isnan(f)) return 0;
    double d = rnd(f, m);
    return d < -0x1p63 ? INT64_MIN : d >= 0x1p63 ? INT64_MAX : (int64_t)d;
}
static uint64_t f2ull(float f, int m)
{
    if (isnan(f)) return 0;
    double d = rnd(f, m);
    return d <= 0 ? 0 : d >= 0x1p64 ? UINT64_MAX : (uint64_t)d;
}

static uint32_t fmin_cuda(float a, float b)
{
    if (isnan(a) && isnan(b)) return 0x7fffffffu;
    if (isnan(a)) return fb(b);
    if (isnan(b)) return fb(a);
    if (a == b) return fb(a) | fb(b);
    return a < b ? fb(a) : fb(b);
}
static uint32_t fmax_cuda(float a, float b)
{
    if (isnan(a) && isnan(b)) return 0x7fffffffu;
    if (isnan(a)) return fb(b);
    if (isnan(b)) return fb(a);
    if (a == b) return fb(a) & fb(b);
    return a > b ? fb(a) : fb(b);
}
static uint32_t sat(float f) { return isnan(f) || f <= 0 ? 0 : f >= 1.0f ? 0x3f800000u : fb(f); }

int main(int argc, char **argv)
{
    static uint32_t a[N], b[N], c[N], out[N * K];
    S = 3201; for (int i = 0; i < N; i++) a[i] = gen(i, 0);
    S = 3202; for (int i = 0; i < N; i++) b[i] = gen(i + 3, 1);
    S = 3203; for (int i = 0; i < N; i++) c[i] = gen(i + 5, 2);
    if (argc > 1 && strcmp(argv[1], "inputs") == 0) {
        for (int i = 0; i < N; i++) printf("%08x\n", a[i]);
        for (int i = 0; i < N; i++) printf("%08x\n", b[i]);
        for (int i = 0; i < N; i++) printf("%08x\n", c[i]);
        for (int i = 0; i < N * K; i++) printf("%08x\n", 0u);
        return 0;
    }
    for (int i = 0; i < N; i++) {
        float x = bf(a[i]), y = bf(b[i]), z = bf(c[i]);
        uint32_t *o = out + i * K;
        for (int m = 0; m < 4; m++) {
            o[0 + m] = op(ADD, m, x, y, 0, 0);
            o[8 + m] = op(FMA, m, x, y, z, 0);
            o[12 + m] = op(DIV, m, x, y, 0, 0);
        }
        o[4] = op(ADD, 1, x, -y, 0, 0);
        for (int m = 1; m < 4; m++)
            o[4 + m] = op(MUL, m, x, y, 0, 0);
        o[16] = op(DIV, 0, 1.0f, x, 0, 0);
        o[17] = op(DIV, 1, 1.0f, x, 0, 0);
        o[18] = op(DIV, 2, 1.0f, y, 0, 0);
        o[19] = op(DIV, 3, 1.0f, y, 0, 0);
        o[20] = op(SQRT, 0, x, 0, 0, 0);
        o[21] = op(SQRT, 1, fabsf(x), 0, 0, 0);
        o[22] = op(SQRT, 2, fabsf(y), 0, 0, 0);
        o[23] = op(SQRT, 3, fabsf(z), 0, 0, 0);
        o[24] = sat(x);
        o[25] = fmin_cuda(x, y);
        o[26] = fmax_cuda(x, z);
        o[27] = fb(copysignf(x, y));
        o[28] = res(floorf(x));
        o[29] = res(ceilf(y));
        o[30] = res(truncf(z));
        o[31] = res(nearbyintf(x));
        o[32] = (uint32_t)f2i(x, 0);
        o[33] = (uint32_t)f2i(y, 1);
        o[34] = (uint32_t)f2i(z, 2);
        o[35] = (uint32_t)f2i(x, 3);
        o[36] = f2u(y, 2);
        o[37] = f2u(z, 0);
        uint64_t ll = (uint64_t)f2ll(x, 3);
        o[38] = (uint32_t)ll + 3u * (uint32_t)(ll >> 32);
        ll = f2ull(y, 1);
        o[39] = (uint32_t)ll + 5u * (uint32_t)(ll >> 32);
        o[40] = op(I2F, 1, 0, 0, 0, a[i]);
        o[41] = op(I2F, 2, 0, 0, 0, b[i]);
        o[42] = op(U2F, 3, 0, 0, 0, c[i]);
        o[43] = op(L2F, 2, 0, 0, 0, (uint64_t)a[i] << 32 | b[i]);
        o[44] = op(UL2F, 1, 0, 0, 0, (uint64_t)c[i] << 29 | a[i]);
        o[45] = (isnan(x) ? 1u : 0u) | (isinf(y) ? 2u : 0u) | (isfinite(z) ? 4u : 0u) | (signbit(x) ? 8u : 0u) |
                (x < y ? 16u : 0u) | (!(x >= z) ? 32u : 0u) | (x != y ? 64u : 0u) | (y == z ? 128u : 0u);
        o[46] = (uint32_t)(int32_t)(int16_t)f2i(x, 1) ^ ((uint32_t)(uint8_t)f2u(z, 1) << 16);
        o[47] = res(fabsf(x) + -y);
    }
    for (int i = 0; i < N * K; i++) printf("%08x\n", out[i]);
    return 0;
}

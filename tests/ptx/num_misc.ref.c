/* Reference for num_misc.cu. `./num_misc.ref` prints out (256*24 words, 8 hex digits);
 * `./num_misc.ref inputs` prints a, b (16 hex digits), then the zeroed out.
 * Build: gcc -O2 -std=gnu11 num_misc.ref.c -o num_misc.ref -lm
 * CC.CF holds the carry of an addition and the borrow of a subtraction (PTX: subc computes
 * a - (b + CC.CF)), whichever instruction reads it next. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;
static uint32_t S;
static uint32_t lcg(void) { S = S * 1664525u + 1013904223u; return S; }
static u64 lcg64(void) { u64 h = lcg(); return h << 32 | lcg(); }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double bd(u64 u) { double d; memcpy(&d, &u, 8); return d; }

#define N 256
#define K 24

static u64 gen(int i)
{
    static const u64 dsp[] = { 0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                               0x7ff8000000000000ull, 1, 0x800fffffffffffffull, 0x0010000000000000ull,
                               0x400c000000000000ull /* 3.5 */, 0x4070080000000000ull /* 256.5 */,
                               0xc000000000000000ull, 0x406fe00000000000ull /* 255 */ };
    static const uint32_t fsp[] = { 0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 1, 0x807fffffu,
                                    0x00800000u, 0x47000000u /* 32768 */, 0xc7000080u /* -32768.5 */,
                                    0x3fc00000u, 0xbf000000u };
    u64 r = lcg64();
    switch (i % 6) {
    case 0: return dsp[(i / 6) % 12];
    case 1: return (r & 0xffffffff00000000ull) | fsp[(i / 6) % 12];
    case 2: return r & 0x800fffffffffffffull;
    case 3: return (r & 0x80ffffffffffffffull) | ((u64)(1000 + r % 60) << 52);
    default: return r;
    }
}

static int msb64(u64 v) { return v ? 63 - __builtin_clzll(v) : -1; }

/* testp of a value of class c (fpclassify of the value in its own type) */
static uint32_t testp(int c, int kind)
{
    switch (kind) {
    case 0: return c != FP_INFINITE && c != FP_NAN;
    case 1: return c == FP_INFINITE;
    case 2: return c != FP_NAN;
    case 3: return c == FP_NAN;
    case 4: return c == FP_NORMAL;
    default: return c == FP_SUBNORMAL;
    }
}

int main(int argc, char **argv)
{
    static u64 a[N], b[N];
    static uint32_t out[N * K];
    S = 8101; for (int i = 0; i < N; i++) a[i] = gen(i);
    S = 8102; for (int i = 0; i < N; i++) b[i] = gen(i + 2);
    if (argc > 1 && strcmp(argv[1], "inputs") == 0) {
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)a[i]);
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)b[i]);
        for (int i = 0; i < N * K; i++) printf("%08x\n", 0u);
        return 0;
    }
    for (int i = 0; i < N; i++) {
        u64 x = a[i], y = b[i];
        uint32_t xl = (uint32_t)x, xh = (uint32_t)(x >> 32), yl = (uint32_t)y, yh = (uint32_t)(y >> 32);
        uint32_t *o = out + i * K;
        u64 s = (u64)xl + yl;
        o[0] = (uint32_t)s;
        s = (u64)xh + yh + (s >> 32);
        o[1] = (uint32_t)s;
        o[2] = xl + yh + (uint32_t)(s >> 32);
        unsigned bw = xl < yl;
        o[3] = xl - yl;
        o[4] = xh - yh - bw;
        bw = (u64)xh < (u64)yh + bw;
        o[5] = xl - yh - bw;
        o[6] = xh + yh + (xl < yl);                      /* sub.cc's borrow into addc */
        o[7] = yl - yh - (uint32_t)(((u64)xl + xh) >> 32); /* add.cc's carry into subc */
        float fx = bf(xl), fy = bf(yh);
        double dx = bd(x), dy = bd(y);
        uint32_t t32 = 0, t64 = 0;
        for (int k = 0; k < 6; k++) {
            t32 |= testp(fpclassify(fx), k) << k;
            t64 |= testp(fpclassify(dx), k) << k;
        }
        o[8] = t32 | t64 << 8;
        o[9] = (isnan(fx) || isnan(fy) || fx < fy) ? 0xffffffffu : 0;
        o[10] = dx >= dy ? 0x3f800000u : 0;
        o[11] = (fx == fx && (yl & 1)) ? 0xffffffffu : 0;
        int32_t sx = (int32_t)xl;
        o[12] = (uint32_t)(sx < -128 ? -128 : sx > 127 ? 127 : sx);
        int32_t sy = (int32_t)yl;
        o[13] = (uint32_t)(sy < 0 ? 0 : sy > 65535 ? 65535 : sy);
        o[14] = xh > 0x7fffffffu ? 0x7fffffffu : xh;
        double t = isnan(fx) ? 0 : trunc(fx);
        o[15] = (uint32_t)(int32_t)(t < -32768 ? -32768 : t > 32767 ? 32767 : t);
        double r8 = isnan(dx) ? 0 : nearbyint(dx);
        o[16] = (uint32_t)(r8 < 0 ? 0 : r8 > 255 ? 255 : r8);
        o[17] = (uint32_t)msb64((int64_t)x < 0 ? ~x : x);
        o[18] = y ? (uint32_t)(63 - msb64(y)) : 0xffffffffu;
        u64 c = x & (y >> 8);
        o[19] = c ? (uint32_t)__builtin_clzll(c) : 64;
        o[20] = (uint32_t)(int32_t)(int16_t)(((int32_t)(int16_t)xl * (int32_t)(int16_t)yl) >> 16);
        o[21] = (uint32_t)(uint16_t)xh * (uint16_t)yh + xl;
        u64 m = (u64)(((unsigned __int128)x * y) >> 64) + (x ^ y);
        o[22] = (uint32_t)m;
        o[23] = (uint32_t)(m >> 32);
    }
    for (int i = 0; i < N * K; i++) printf("%08x\n", out[i]);
    return 0;
}

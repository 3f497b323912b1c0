/* Reference for num_f64.cu. `./num_f64.ref` prints out (256*40 elements, 16 hex digits);
 * `./num_f64.ref inputs` prints a, b, c, then the zeroed out.
 * Build: gcc -O2 -std=c11 -frounding-math -ffp-contract=off num_f64.ref.c -o num_f64.ref -lm
 * The inputs are finite and b, c nonzero, so that no result is a NaN (whose bits CUDA
 * does not document for binary64); float-to-integer conversions saturate, f32 NaNs would
 * be 0x7fffffff. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;
static uint32_t S;
static uint32_t lcg(void) { S = S * 1664525u + 1013904223u; return S; }
static double d_sym(void) { uint64_t m = (uint64_t)lcg() << 21 ^ lcg(); return ((double)(m & ((1ull << 53) - 1)) * 0x1p-53) * 2.0 - 1.0; }
static u64 db(double d) { u64 u; memcpy(&u, &d, 8); return u; }
static double bd(u64 u) { double d; memcpy(&d, &u, 8); return d; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

#define N 256
#define K 40

static u64 gen(int i, int which, int nonzero)
{
    static const u64 sp[] = { 0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                              0x7fefffffffffffffull, 0xffefffffffffffffull, 0x0010000000000000ull,
                              0x0000000000000001ull, 0x800fffffffffffffull, 0x4340000000000001ull,
                              0x41e0000000000000ull, 0xc3e0000000000000ull, 0x43f0000000000000ull };
    uint32_t r = lcg();
    u64 v;
    switch (i % 8) {
    case 0: v = sp[(i / 8 + which * 5) % (sizeof sp / sizeof sp[0])]; break;
    case 1: v = ((u64)lcg() << 32 | lcg()) & 0x800fffffffffffffull; break;
    case 2: v = db((double)((int)(r % 41) - 20) * 0.5); break;
    case 3: v = db(d_sym() * ldexp(1.0, 20 + (int)(r % 50))); break;
    case 4: v = db(d_sym() * ldexp(1.0, (int)(r % 2000) - 1000)); break;
    default: v = db(d_sym() * ldexp(1.0, (int)((r >> 3) % 40) - 20)); break;
    }
    if (nonzero && (v << 1) == 0)
        v = 0x3ff8000000000000ull;
    return v;
}

enum { ADD, MUL, FMA, DIV, SQRT, TOF, LL, ULL };
static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static u64 op(int o, int m, double a, double b, double c, u64 iv)
{
    volatile double va = a, vb = b, vc = c, r = 0;
    volatile float f = 0;
    volatile u64 vi = iv;
    fesetround(modes[m]);
    switch (o) {
    case ADD: r = va + vb; break;
    case MUL: r = va * vb; break;
    case FMA: r = fma(va, vb, vc); break;
    case DIV: r = va / vb; break;
    case SQRT: r = sqrt(va); break;
    case TOF: f = (float)va; break;
    case LL: r = (double)(int64_t)vi; break;
    default: r = (double)vi; break;
    }
    fesetround(FE_TONEAREST);
    return o == TOF ? fb(f) : db(r);
}

static double rnd(double d, int m) { return m == 0 ? nearbyint(d) : m == 1 ? trunc(d) : m == 2 ? floor(d) : ceil(d); }
static uint32_t d2i(double f, int m)
{
    double d = rnd(f, m);
    return (uint32_t)(d <= -2147483648.0 ? INT32_MIN : d >= 2147483647.0 ? INT32_MAX : (int32_t)d);
}
static uint32_t d2u(double f, int m)
{
    double d = rnd(f, m);
    return d <= 0 ? 0 : d >= 4294967295.0 ? UINT32_MAX : (uint32_t)d;
}
static u64 d2ll(double f, int m)
{
    double d = rnd(f, m);
    return (u64)(d < -0x1p63 ? INT64_MIN : d >= 0x1p63 ? INT64_MAX : (int64_t)d);
}
static u64 d2ull(double f, int m)
{
    double d = rnd(f, m);
    return d <= 0 ? 0 : d >= 0x1p64 ? UINT64_MAX : (u64)d;
}
static u64 dmin(double a, double b) { return a == b ? db(a) | db(b) : a < b ? db(a) : db(b); }
static u64 dmax(double a, double b) { return a == b ? db(a) & db(b) : a > b ? db(a) : db(b); }

int main(int argc, char **argv)
{
    static u64 a[N], b[N], c[N], out[N * K];
    S = 6401; for (int i = 0; i < N; i++) a[i] = gen(i, 0, 0);
    S = 6402; for (int i = 0; i < N; i++) b[i] = gen(i + 3, 1, 1);
    S = 6403; for (int i = 0; i < N; i++) c[i] = gen(i + 5, 2, 1);
    if (argc > 1 && strcmp(argv[1], "inputs") == 0) {
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)a[i]);
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)b[i]);
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)c[i]);
        for (int i = 0; i < N * K; i++) printf("%016llx\n", 0ull);
        return 0;
    }
    for (int i = 0; i < N; i++) {
        double x = bd(a[i]), y = bd(b[i]), z = bd(c[i]);
        u64 *o = out + i * K;
        for (int m = 0; m < 4; m++) {
            o[0 + m] = op(ADD, m, x, y, 0, 0);
            o[8 + m] = op(FMA, m, x, y, z, 0);
        }
        o[4] = op(ADD, 2, x, -z, 0, 0);
        for (int m = 1; m < 4; m++)
            o[4 + m] = op(MUL, m, x, y, 0, 0);
        o[12] = op(DIV, 0, x, y, 0, 0);
        o[13] = op(DIV, 1, x, y, 0, 0);
        o[14] = op(DIV, 2, x, z, 0, 0);
        o[15] = op(DIV, 3, x, z, 0, 0);
        o[16] = op(DIV, 0, 1.0, x, 0, 0);
        o[17] = op(DIV, 1, 1.0, y, 0, 0);
        o[18] = op(SQRT, 0, fabs(x), 0, 0, 0);
        o[19] = op(SQRT, 2, fabs(y), 0, 0, 0);
        o[20] = op(SQRT, 3, fabs(z), 0, 0, 0);
        o[21] = dmin(x, y);
        o[22] = dmax(x, z);
        o[23] = db(copysign(x, y));
        o[24] = db(floor(x)) ^ db(ceil(y)) << 1;
        o[25] = db(trunc(z)) ^ db(nearbyint(x)) << 1;
        o[26] = op(TOF, 0, x, 0, 0, 0) | op(TOF, 1, y, 0, 0, 0) << 32;
        o[27] = op(TOF, 2, z, 0, 0, 0) | op(TOF, 3, x, 0, 0, 0) << 32;
        float fa = bf((uint32_t)a[i] & 0xbfffffffu);
        o[28] = db((double)fa);
        o[29] = d2i(x, 0) | (u64)d2i(y, 1) << 32;
        o[30] = d2i(z, 2) | (u64)d2u(x, 3) << 32;
        o[31] = d2ll(y, 1);
        o[32] = d2ull(z, 2);
        o[33] = op(LL, 1, 0, 0, 0, a[i]);
        o[34] = op(ULL, 3, 0, 0, 0, b[i]);
        o[35] = db(bd(op(LL, 2, 0, 0, 0, c[i])) + (double)(int32_t)(uint32_t)a[i] + (double)(uint32_t)b[i]);
        o[36] = (isnan(x) ? 1u : 0u) | (isinf(y) ? 2u : 0u) | (isfinite(z) ? 4u : 0u) | (signbit(x) ? 8u : 0u) |
                (x < y ? 16u : 0u) | (!(x >= z) ? 32u : 0u) | (x != y ? 64u : 0u) | (y == z ? 128u : 0u) |
                (!(x <= y) ? 256u : 0u) | (!(y > z) ? 512u : 0u) | (!(x == z) ? 1024u : 0u);
        o[37] = db(fabs(x) - y * 2.0);
        o[38] = db(-x * z);
        o[39] = db(x > y ? x : z);
    }
    for (int i = 0; i < N * K; i++) printf("%016llx\n", (unsigned long long)out[i]);
    return 0;
}

/* Reference for num_int.cu. `./num_int.ref` prints out (256*32 elements, 16 hex digits);
 * `./num_int.ref inputs` prints a, b (16 hex digits), then the zeroed out.
 * Build: gcc -O2 -std=gnu11 num_int.ref.c -o num_int.ref */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;
typedef int64_t s64;

static uint32_t S;
static uint32_t lcg(void) { S = S * 1664525u + 1013904223u; return S; }
static u64 lcg64(void) { u64 h = lcg(); return h << 32 | lcg(); }

#define N 256
#define K 32

/* a: every 8th a value near the ends of the ranges */
static u64 gen_a(int i)
{
    static const u64 edge[] = { 0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffff80000000ull,
                                0x000000007fffffffull, 0, 1, 0xffffffffffffffffull, 0x0000ffff8000ff80ull };
    u64 v = lcg64();
    return i % 8 == 0 ? edge[(i / 8) % 8] : v;
}

/* b: odd (so no narrowing of it is zero), never -1 in 64 or 32 bits (no
 * INT_MIN / -1); every 4th small or small negative */
static u64 gen_b(int i)
{
    u64 v = lcg64() | 1;
    if (i % 4 == 1)
        v = (v & 0xff) | 1;
    if (i % 4 == 3)
        v = (u64)-(s64)((v & 0xfff) | 1) - 2;
    if ((uint32_t)v == 0xffffffffu)
        v ^= 2;
    return v;
}

static unsigned popc64(u64 x) { return (unsigned)__builtin_popcountll(x); }
static unsigned clz64(u64 x) { return x ? (unsigned)__builtin_clzll(x) : 64; }
static unsigned clz32(uint32_t x) { return x ? (unsigned)__builtin_clz(x) : 32; }
static unsigned ffs64(u64 x) { return x ? (unsigned)__builtin_ctzll(x) + 1 : 0; }
static unsigned ffs32(uint32_t x) { return x ? (unsigned)__builtin_ctz(x) + 1 : 0; }
static u64 brev64(u64 x) { u64 r = 0; for (int k = 0; k < 64; k++) r |= ((x >> k) & 1) << (63 - k); return r; }
static uint32_t brev32(uint32_t x) { return (uint32_t)(brev64(x) >> 32); }

static uint32_t fsl(uint32_t lo, uint32_t hi, unsigned n) { return (uint32_t)((((u64)hi << 32 | lo) << n) >> 32); }
static uint32_t fsr(uint32_t lo, uint32_t hi, unsigned n) { return (uint32_t)(((u64)hi << 32 | lo) >> n); }

/* PTX bfe / bfi, bit by bit */
static u64 bfe(u64 a, unsigned b, unsigned c, unsigned msb, int sgn)
{
    unsigned pos = b & 0xff, len = c & 0xff;
    unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    unsigned sbit = sgn && len ? (unsigned)(a >> top) & 1 : 0;
    u64 d = 0;
    for (unsigned i = 0; i <= msb; i++)
        d |= (u64)(i < len && pos + i <= msb ? (unsigned)(a >> (pos + i)) & 1 : sbit) << i;
    return d;
}
static uint32_t bfi(uint32_t a, uint32_t b, unsigned c, unsigned d)
{
    unsigned pos = c & 0xff, len = d & 0xff;
    uint32_t f = b;
    for (unsigned i = 0; i < len && pos + i <= 31; i++)
        f = (f & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
    return f;
}

/* PTX prmt: the default mode (nibble selectors, bit 3 replicates the sign) and the modes'
 * tables (d.b3 d.b2 d.b1 d.b0) */
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    static const unsigned char tab[6][4][4] = {
        { { 3, 2, 1, 0 }, { 4, 3, 2, 1 }, { 5, 4, 3, 2 }, { 6, 5, 4, 3 } },
        { { 5, 6, 7, 0 }, { 6, 7, 0, 1 }, { 7, 0, 1, 2 }, { 0, 1, 2, 3 } },
        { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
        { { 3, 2, 1, 0 }, { 3, 2, 1, 1 }, { 3, 2, 2, 2 }, { 3, 3, 3, 3 } },
        { { 0, 0, 0, 0 }, { 1, 1, 1, 0 }, { 2, 2, 1, 0 }, { 3, 2, 1, 0 } },
        { { 1, 0, 1, 0 }, { 3, 2, 3, 2 }, { 1, 0, 1, 0 }, { 3, 2, 3, 2 } },
    };
    u64 v = (u64)b << 32 | a;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        unsigned byte;
        if (mode < 0) {
            unsigned nib = (c >> (4 * k)) & 15;
            byte = (unsigned)(v >> (8 * (nib & 7))) & 0xff;
            if (nib & 8)
                byte = byte & 0x80 ? 0xff : 0;
        } else {
            byte = (unsigned)(v >> (8 * tab[mode][c & 3][3 - k])) & 0xff;
        }
        r |= (uint32_t)byte << (8 * k);
    }
    return r;
}

static int32_t sat32(s64 v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }

int main(int argc, char **argv)
{
    static u64 a[N], b[N], out[N * K];
    S = 1601;
    for (int i = 0; i < N; i++) a[i] = gen_a(i);
    S = 1602;
    for (int i = 0; i < N; i++) b[i] = gen_b(i);
    if (argc > 1 && strcmp(argv[1], "inputs") == 0) {
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)a[i]);
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)b[i]);
        for (int i = 0; i < N * K; i++) printf("%016llx\n", 0ull);
        return 0;
    }
    for (int i = 0; i < N; i++) {
        u64 x = a[i], y = b[i], *o = out + i * K;
        uint32_t xl = (uint32_t)x, xh = (uint32_t)(x >> 32), yl = (uint32_t)y;
        o[0] = (u64)((s64)x / (s64)y);
        o[1] = (u64)((s64)x % (s64)y);
        o[2] = x / y;
        o[3] = x % y;
        o[4] = (uint32_t)((int32_t)xl / (int32_t)yl);
        o[5] = xl % yl;
        o[6] = (uint32_t)((int)(int16_t)xl / (int)(int16_t)yl);
        o[7] = (uint8_t)xl % (uint8_t)yl;
        o[8] = (u64)(((unsigned __int128)x * y) >> 64);
        o[9] = (u64)(((__int128)(s64)x * (s64)y) >> 64);
        unsigned __int128 p = ((unsigned __int128)x << 64) | y, q = ((unsigned __int128)y << 64) | x;
        unsigned __int128 s = p + q, d = p - q;
        o[10] = (u64)s;
        o[11] = (u64)(s >> 64);
        o[12] = (u64)d;
        o[13] = (u64)(d >> 64);
        unsigned n63 = yl & 63, c32 = n63 < 32 ? n63 : 32;
        o[14] = fsl(xl, xh, yl & 31) | (u64)fsr(xl, xh, c32) << 32;
        o[15] = fsl(xl, xh, c32) | (u64)fsr(xl, xh, yl & 31) << 32;
        o[16] = (u64)popc64(x) | (u64)clz64(x) << 8 | (u64)ffs64(y) << 16 | (u64)clz64(x >> n63) << 24;
        o[17] = brev64(x);
        o[18] = bfe(xl, yl & 63, (yl >> 8) & 63, 31, 1) | bfe(xh, yl >> 16, yl >> 24, 31, 1) << 32;
        o[19] = bfe(x, yl & 127, (yl >> 8) & 127, 63, 0);
        o[20] = bfi(xl, xh, yl & 63, (yl >> 8) & 63) | (u64)bfi(xh, yl, yl >> 16, yl >> 24) << 32;
        o[21] = prmt(xl, xh, yl, 0) | (u64)prmt(xl, xh, yl >> 8, 3) << 32;
        o[22] = prmt(xl, xh, yl >> 4, 5) | (u64)prmt(xl, xh, yl & 0x7777, -1) << 32; /* __byte_perm: 3-bit selectors */
        o[23] = (uint32_t)sat32((s64)(int32_t)xl + (int32_t)yl) |
                (u64)(uint32_t)sat32((s64)(int32_t)xh - (int32_t)yl) << 32;
        o[24] = (uint32_t)(((u64)xl * yl) >> 32) | (u64)(uint32_t)(((s64)(int32_t)xh * (int32_t)yl) >> 32) << 32;
        o[25] = (uint32_t)((int32_t)(int16_t)xl * (int32_t)(int16_t)yl) |
                (u64)((uint32_t)(uint16_t)xh * (uint16_t)yl) << 32;
        o[26] = (u64)((s64)(int32_t)xl * (int32_t)yl);
        s64 sx = (s64)x, sy = (s64)y;
        o[27] = (u64)(sx < 0 ? -(u64)sx : (u64)sx) ^ (u64)(sx < sy ? sx : sy) ^ ((x > y ? x : y) << 1);
        o[28] = (u64)(sx / 7) ^ ((x % 10) << 40);
        o[29] = (u64)(xl / 9u) | (u64)(uint32_t)((int32_t)xh % -5) << 32;
        o[30] = brev32(xl) | (u64)clz32(xh) << 32 | (u64)popc64(yl) << 40 | (u64)ffs32(yl) << 48;
        o[31] = (u64)(uint16_t)((uint16_t)xl / (uint16_t)(yl | 1u)) |
                (u64)(uint16_t)((int)(int16_t)xh % (int)(int16_t)(yl | 1u)) << 16;
    }
    for (int i = 0; i < N * K; i++) printf("%016llx\n", (unsigned long long)out[i]);
    return 0;
}

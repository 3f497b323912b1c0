/* Reference for num_atomic.cu. `./num_atomic.ref` prints sumf (12, 8 hex digits), sumd (4, 16),
 * ctr (8, 8), shout (8, 8); `./num_atomic.ref inputs` prints xf, xd, then the zeroed outputs.
 * Build: gcc -O2 -std=c11 num_atomic.ref.c -o num_atomic.ref -lm
 * Every sum is exact, so the order of the atomics does not matter; atom.add.f32 flushes the
 * subnormal xf[5] to zero. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcg(void) { S = S * 1664525u + 1013904223u; return S; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t db(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

#define N 256
#define BD 128

int main(int argc, char **argv)
{
    static float xf[N], sumf[12], shout[8];
    static double xd[N], sumd[4];
    static uint32_t ctr[8];
    S = 7101; for (int i = 0; i < N; i++) xf[i] = (float)(lcg() % 64) * 0.25f;
    xf[5] = 0x1p-130f;
    S = 7102; for (int i = 0; i < N; i++) xd[i] = (double)(lcg() % 1000) * 0.125;
    if (argc > 1 && strcmp(argv[1], "inputs") == 0) {
        for (int i = 0; i < N; i++) printf("%08x\n", fb(xf[i]));
        for (int i = 0; i < N; i++) printf("%016llx\n", (unsigned long long)db(xd[i]));
        for (int i = 0; i < 12; i++) printf("%08x\n", 0u);
        for (int i = 0; i < 4; i++) printf("%016llx\n", 0ull);
        for (int i = 0; i < 16; i++) printf("%08x\n", 0u);
        return 0;
    }
    /* inc wraps at 99 over 256 increments: old values 0..99, 0..99, 0..55 */
    uint32_t inc = 0, dec = 0, sum1 = 0, sum2 = 0;
    for (int i = 0; i < N; i++) {
        sum1 += inc;
        inc = inc >= 99 ? 0 : inc + 1;
        dec = dec == 0 || dec > 1000 ? 1000 : dec - 1;
    }
    for (int blk = 0; blk < 2; blk++) {
        float sf[4] = { 0 };
        uint32_t sc0 = 0, sc1 = 0;
        for (int t = 0; t < BD; t++) {
            int i = blk * BD + t;
            float x = i == 5 ? 0.0f : xf[i];
            sumf[i & 7] += x;
            sf[t & 3] += x;
            sumd[i & 3] += xd[i];
            sum2 += sc0;
            sc0 = sc0 >= 9 ? 0 : sc0 + 1;
            sc1 = sc1 == 0 || sc1 > 5 ? 5 : sc1 - 1;
            sumf[8 + (t & 3)] += 1.0f;   /* every old value is >= 0 */
        }
        for (int k = 0; k < 4; k++) shout[blk * 4 + k] = sf[k];
        ctr[4 + blk * 2] = sc0;
        ctr[5 + blk * 2] = sc1;
    }
    ctr[0] = inc;
    ctr[1] = dec;
    ctr[2] = sum1;
    ctr[3] = sum2;
    for (int i = 0; i < 12; i++) printf("%08x\n", fb(sumf[i]));
    for (int i = 0; i < 4; i++) printf("%016llx\n", (unsigned long long)db(sumd[i]));
    for (int i = 0; i < 8; i++) printf("%08x\n", ctr[i]);
    for (int i = 0; i < 8; i++) printf("%08x\n", fb(shout[i]));
    return 0;
}

/* Reference for warp_vote.cu: `./warp_vote.ref` prints out (192*12 words);
 * `./warp_vote.ref inputs` prints in (192*4), then the zeroed out. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

enum { T = 192 };
static uint32_t in[T * 4], out[T * 12];

/* votes over the lanes of warp w in mask m */
static uint32_t ballot(int w, uint32_t m, uint32_t (*p)(int g))
{
	uint32_t b = 0;
	for (int l = 0; l < 32; l++)
		if ((m >> l & 1) && p(w * 32 + l))
			b |= 1u << l;
	return b;
}
static uint32_t V(int g) { return in[4 * g] ^ in[4 * g + 1]; }
static uint32_t p_odd(int g) { return V(g) & 1u; }
static uint32_t p_two(int g) { return (V(g) & 2u) != 0; }
static uint32_t p_big(int g) { return V(g) > 0x1000u; }
static uint32_t p_huge(int g) { return V(g) > 0xff000000u; }
static uint32_t p_x4(int g) { return (in[4 * g] & 4u) != 0; }
static uint32_t p_y8(int g) { return (in[4 * g + 1] & 8u) != 0; }

int main(int argc, char **argv)
{
	S = 4096;
	for (int i = 0; i < T * 4; i++) in[i] = lcgx();
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < T * 4; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < T * 12; i++) printf("%08x\n", 0u);
		return 0;
	}
	const uint32_t F = 0xffffffffu, ODD = 0xaaaaaaaau, EVEN = 0x55555555u;
	for (int g = 0; g < T; g++) {
		int w = g / 32, l = g % 32;
		uint32_t *o = out + 12 * g, bit = 1u << l;
		for (int k = 0; k < 4; k++)
			o[k] = in[4 * g + 3 - k] + (uint32_t)k;
		uint32_t bal = ballot(w, F, p_odd), b;
		o[4] = bal;
		o[5] = (ballot(w, F, p_big) == F) | (ballot(w, F, p_huge) != 0) << 1 | 1u << 2 |
		       (bal == 0 || bal == F) << 3;
		uint32_t am = l & 1 ? ODD : EVEN;
		o[6] = am;
		b = ballot(w, am, p_two);
		o[7] = l & 1 ? b : b ^ 0x80000000u;
		uint32_t all = ballot(w, am, p_x4) == am, any = ballot(w, am, p_y8) != 0;
		o[8] = l & 1 ? (all | any << 1) : (all << 2 | any << 3);
		o[9] = (uint32_t)l | 1u << 5 | 1u << 6 | 1u << 7 | 1u << 8 | 1u << 9;
		o[10] = 15;
		o[11] = (bit - 1u) & bal;
	}
	for (int i = 0; i < T * 12; i++) printf("%08x\n", out[i]);
	return 0;
}

/* Reference for coop_groups.cu: `./coop_groups.ref` prints out (1024 words)
 * then blk (2); `./coop_groups.ref inputs` prints in, then the zeroed out
 * and blk. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[256], out[1024], blk[2];
	S = 9090;
	for (int i = 0; i < 256; i++) in[i] = lcgx() & 0xfffffu;
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 256; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 1024 + 2; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (int b = 0; b < 2; b++) {
		const uint32_t *v = in + b * 128;
		uint32_t s[128];
		for (int r = 0; r < 128; r++)
			s[r] = v[(r + 37) % 128];
		blk[b] = 0;
		for (int q = 0; q < 8; q++) {
			uint32_t sum = 0, mx = 0, x = 0, any = 0, all = 2;
			for (int l = 0; l < 16; l++) {
				uint32_t e = v[q * 16 + l];
				sum += e;
				mx = e > mx ? e : mx;
				x ^= s[q * 16 + l];
				any |= e & 1u;
				if (!(e > 0x800u)) all = 0;
			}
			blk[b] += sum;
			for (int l = 0; l < 16; l++) {
				uint32_t *o = out + (b * 128 + q * 16 + l) * 4;
				o[0] = sum;
				o[1] = mx;
				o[2] = x;
				o[3] = (v[q * 16 + (l + 5) % 16] << 2) | any | all;
			}
		}
	}
	for (int i = 0; i < 1024; i++) printf("%08x\n", out[i]);
	for (int i = 0; i < 2; i++) printf("%08x\n", blk[i]);
	return 0;
}

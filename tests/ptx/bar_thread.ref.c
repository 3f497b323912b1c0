/* Reference for bar_thread.cu: `./bar_thread.ref` prints out (128 words);
 * `./bar_thread.ref inputs` prints in (128) then the zeroed out (128). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[128];
	S = 9;
	for (int i = 0; i < 128; i++) in[i] = lcgx();
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 128; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 128; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (uint32_t b = 0; b < 2; b++) {
		uint32_t popc = 0, and = 1, or = 0;
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t x = in[b * 64 + t];
			popc += x & 1u;
			and &= (x & 2u) != 0;
			or |= (x & 2u) != 0;
		}
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t v = t < 32 ? 0u : in[b * 64 + (31u - (t & 31u))] * 7u;
			printf("%08x\n", popc * 16u + and * 4u + or * 2u + v * 256u);
		}
	}
	return 0;
}

/* Reference for bar_split.cu: `./bar_split.ref` prints out (256 words);
 * `./bar_split.ref inputs` prints in (256) then the zeroed out (256). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[256], s[128];
	S = 77;
	for (int i = 0; i < 256; i++) in[i] = lcgx();
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 256; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 256; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (uint32_t b = 0; b < 2; b++) {
		for (uint32_t t = 0; t < 128; t++)
			s[t] = in[b * 128 + t] * 3u + ((t & 31u) < 16u ? 1u : 2u);
		for (uint32_t t = 0; t < 128; t++)
			printf("%08x\n", (t & 31u) < 16u ? s[(t + 37u) & 127u] ^ 0x100u : s[(t + 53u) & 127u] ^ 0x200u);
	}
	return 0;
}

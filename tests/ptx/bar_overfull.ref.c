/* Reference for bar_overfull.cu: `./bar_overfull.ref` prints out (256 words)
 * then out2 (256); `./bar_overfull.ref inputs` prints in, then the zeroed
 * out and out2. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[256], s[256], out[256], out2[256];
	S = 1280;
	for (int i = 0; i < 256; i++) in[i] = lcgx();
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 256; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 512; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (uint32_t g = 0; g < 256; g++)
		s[g] = in[g] * 7u + ((g % 128) >> 5);
	for (uint32_t g = 0; g < 256; g++) {
		uint32_t b = g / 128 * 128, t = g % 128;
		out[g] = s[b + (t ^ 1u)] + s[g];
		out2[g] = s[b + (t + 32) % 128] ^ s[g];
	}
	for (int i = 0; i < 256; i++) printf("%08x\n", out[i]);
	for (int i = 0; i < 256; i++) printf("%08x\n", out2[i]);
	return 0;
}

/* Reference for flag_release.cu: `./flag_release.ref` prints chain (512 words),
 * flags (4) and out (256); `./flag_release.ref inputs` prints in, then the
 * zeroed chain, flags and out. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[512], chain[512], out[256];
	S = 4242;
	for (int i = 0; i < 512; i++) in[i] = lcgx() & 0xffffu;
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 512; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 512 + 4 + 256; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (int b = 0; b < 4; b++)
		for (int t = 0; t < 128; t++)
			chain[b * 128 + t] = (b ? chain[(b - 1) * 128 + t] : 0u) + in[b * 128 + t];
	for (int b = 0; b < 4; b++)
		for (uint32_t l = 0; l < 32; l++) {
			out[b * 64 + l] = 3u * in[b * 128 + 32 + l] + l;
			out[b * 64 + 32 + l] = in[b * 128 + 64 + l] ^ 0x5a5au;
		}
	for (int i = 0; i < 512; i++) printf("%08x\n", chain[i]);
	for (int b = 0; b < 4; b++) printf("%08x\n", 1u);
	for (int i = 0; i < 256; i++) printf("%08x\n", out[i]);
	return 0;
}

/* Reference for fence_last.cu: `./fence_last.ref` prints partial (6 words),
 * flags (6), count (1) and result (3); `./fence_last.ref inputs` prints in,
 * then the zeroed partial, flags, count and result. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[768];
	S = 8080;
	for (int i = 0; i < 768; i++) in[i] = lcgx() & 0xfffffu;
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 768; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 6 + 6 + 1 + 3; i++) printf("%08x\n", 0u);
		return 0;
	}
	uint32_t part[6], total = 0;
	for (int b = 0; b < 6; b++) {
		part[b] = 0;
		for (int t = 0; t < 128; t++)
			part[b] += in[b * 128 + t];
		total += part[b];
	}
	for (int b = 0; b < 6; b++) printf("%08x\n", part[b]);
	for (int b = 0; b < 6; b++) printf("%08x\n", (uint32_t)b + 1u);
	printf("%08x\n", 0u);
	printf("%08x\n%08x\n%08x\n", total, total, 6u);
	return 0;
}

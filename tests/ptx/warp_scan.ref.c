/* Reference for warp_scan.cu: `./warp_scan.ref` prints out (768 words) then
 * tot (3); `./warp_scan.ref inputs` prints in, then the zeroed out and tot. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	enum { N = 700, B = 256, G = 3 };
	static uint32_t in[G * B], out[G * B], tot[G];
	S = 1616;
	for (int i = 0; i < G * B; i++) {
		uint32_t r = lcgx() & 0xffffu;
		in[i] = i < N ? r : 0u;
	}
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < G * B; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < G * B + G; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (int b = 0; b < G; b++) {
		uint32_t acc = 0;
		for (int t = 0; t < B; t++) {
			int g = b * B + t;
			acc += g < N ? in[g] : 0u;
			if (g < N)
				out[g] = acc;
		}
		tot[b] = acc;
	}
	for (int i = 0; i < G * B; i++) printf("%08x\n", out[i]);
	for (int i = 0; i < G; i++) printf("%08x\n", tot[i]);
	return 0;
}

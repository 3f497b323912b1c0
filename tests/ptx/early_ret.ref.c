/* Reference for early_ret.cu: `./early_ret.ref` prints scan (384 words) then
 * rot (384); `./early_ret.ref inputs` prints in, then the zeroed scan and
 * rot. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	enum { N = 300, B = 128, G = 3 };
	static uint32_t in[G * B], scan[G * B], rot[G * B];
	S = 3003;
	for (int i = 0; i < G * B; i++) in[i] = lcgx() & 0xffffffu;
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < G * B; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 2 * G * B; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (uint32_t b = 0; b < G; b++) {
		uint32_t m = N - b * B < B ? N - b * B : B, acc = 0;
		for (uint32_t t = 0; t < m; t++)
			scan[b * B + t] = acc += in[b * B + t];
		for (uint32_t t = 0; t < m; t++)
			rot[b * B + t] = scan[b * B + (t + 7) % m] * 3u + t;
	}
	for (int i = 0; i < G * B; i++) printf("%08x\n", scan[i]);
	for (int i = 0; i < G * B; i++) printf("%08x\n", rot[i]);
	return 0;
}

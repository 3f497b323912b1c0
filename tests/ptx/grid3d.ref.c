/* Reference for grid3d.cu: `./grid3d.ref` prints out (1620 words) then bs
 * (12); `./grid3d.ref inputs` prints in, then the zeroed out and bs. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[540], out[1620], bs[12];
	S = 5332;
	for (int i = 0; i < 540; i++) in[i] = lcgx() & 0xffffu;
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 540; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 1620 + 12; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (uint32_t bz = 0; bz < 2; bz++)
		for (uint32_t by = 0; by < 3; by++)
			for (uint32_t bx = 0; bx < 2; bx++) {
				uint32_t c = bx + 2 * (by + 3 * bz);
				bs[c] = 0;
				for (uint32_t z = 0; z < 3; z++)
					for (uint32_t y = 0; y < 3; y++)
						for (uint32_t x = 0; x < 5; x++) {
							uint32_t t = x + 5 * (y + 3 * z), g = c * 45 + t;
							out[g * 3 + 0] = x | y << 4 | z << 8 | bx << 12 | by << 16 |
									 bz << 20 | 1u << 24;
							out[g * 3 + 1] = in[c * 45 + (t + 17) % 45];
							out[g * 3 + 2] = (t / 32) * 1000 + t % 32;
							bs[c] += in[g];
						}
			}
	for (int i = 0; i < 1620; i++) printf("%08x\n", out[i]);
	for (int i = 0; i < 12; i++) printf("%08x\n", bs[i]);
	return 0;
}

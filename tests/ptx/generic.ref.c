/* Reference for generic.cu: `./generic.ref` prints out (128 words) then
 * cnt (2); `./generic.ref inputs` prints in (128), out (128 zeros), cnt
 * (2 zeros). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	static uint32_t in[128], out[128], cnt[2];
	S = 8;
	for (int i = 0; i < 128; i++) in[i] = lcgx();
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < 128; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 130; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (uint32_t b = 0; b < 2; b++) {
		uint32_t s[64], loc[64], old[64], sc = 0;
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t x = in[b * 64 + t];
			s[t] = x;
			loc[t] = x ^ 0x55u; /* the thread's own loc[t & 3] */
		}
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t x = in[b * 64 + t];
			uint32_t *p = (x & 3u) == 0u ? &s[t] : (x & 3u) == 1u ? &loc[t] : &out[b * 64 + t];
			old[t] = *p;
			*p = old[t] + 100u;
			if (x & 4u)
				sc++;
			else
				cnt[b]++;
		}
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t r = old[t] * 2u + s[t] + loc[t];
			if (t == 0)
				r += sc << 16;
			out[b * 64 + t] += r;
		}
	}
	for (int i = 0; i < 128; i++) printf("%08x\n", out[i]);
	for (int i = 0; i < 2; i++) printf("%08x\n", cnt[i]);
	return 0;
}

/* Reference for bitonic.cu: `./bitonic.ref` prints out (1536 words) then perm
 * (1536); `./bitonic.ref inputs` prints in, then the zeroed out and perm.
 * Sorted by (key, position) with an insertion sort, independent of the
 * network the kernel uses. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t S;
static uint32_t lcgx(void) { S = S * 1664525u + 1013904223u; return S ^ (S >> 16); }

int main(int argc, char **argv)
{
	enum { N = 1536 };
	static uint32_t in[N], out[N], perm[N];
	S = 2024;
	for (int i = 0; i < N; i++) in[i] = lcgx() % 1000u;
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < N; i++) printf("%08x\n", in[i]);
		for (int i = 0; i < 2 * N; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (int b = 0; b < 3; b++) {
		uint32_t *k = out + b * 512, *p = perm + b * 512;
		for (int i = 0; i < 512; i++) {
			uint32_t kv = in[b * 512 + i];
			int j = i;
			while (j > 0 && k[j - 1] > kv) { /* positions arrive ascending */
				k[j] = k[j - 1];
				p[j] = p[j - 1];
				j--;
			}
			k[j] = kv;
			p[j] = (uint32_t)i;
		}
	}
	for (int i = 0; i < N; i++) printf("%08x\n", out[i]);
	for (int i = 0; i < N; i++) printf("%08x\n", perm[i]);
	return 0;
}

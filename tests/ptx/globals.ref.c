/* Reference for globals.cu: `./globals.ref` prints out (193 words);
 * `./globals.ref inputs` prints the zeroed out (193). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	static const uint32_t table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int32_t sarr[4] = { -1, 5, -9, 12 };
	for (uint32_t t = 0; t < 193; t++) {
		uint32_t v = argc > 1 && !strcmp(argv[1], "inputs") ? 0u
			     : t == 192				 ? 192u
								 : table[t & 7u] * 10u + (uint32_t)sarr[t & 3u] + t * 3u + 1u;
		printf("%08x\n", v);
	}
	return 0;
}

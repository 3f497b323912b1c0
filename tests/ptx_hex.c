/* ptx_hex — converts the PTX examples' buffers between the references'
 * text form (one element per line in lowercase hex of its natural width)
 * and the little-endian bytes warpemu reads (--arg NAME=@FILE) and writes
 * (--out NAME=FILE).  Used by tests/ptx.sh.
 *   ptx_hex bin WIDTH < text > bytes      ptx_hex hex WIDTH < bytes > text */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "bin") && strcmp(argv[1], "hex"))) {
		fprintf(stderr, "usage: ptx_hex bin|hex WIDTH\n");
		return 2;
	}
	int w = atoi(argv[2]);
	if (w != 1 && w != 2 && w != 4 && w != 8) {
		fprintf(stderr, "ptx_hex: width must be 1, 2, 4 or 8\n");
		return 2;
	}
	if (!strcmp(argv[1], "bin")) {
		char line[64];
		while (fgets(line, sizeof line, stdin)) {
			char *end;
			uint64_t v = strtoull(line, &end, 16);
			if (end == line) {
				fprintf(stderr, "ptx_hex: bad line '%s'\n", line);
				return 1;
			}
			for (int k = 0; k < w; k++)
				putchar((int)(v >> (8 * k)) & 0xff);
		}
		return ferror(stdout) ? 1 : 0;
	}
	unsigned char b[8];
	while (fread(b, 1, (size_t)w, stdin) == (size_t)w) {
		uint64_t v = 0;
		for (int k = 0; k < w; k++)
			v |= (uint64_t)b[k] << (8 * k);
		printf("%0*" PRIx64 "\n", 2 * w, v);
	}
	return ferror(stdout) ? 1 : 0;
}

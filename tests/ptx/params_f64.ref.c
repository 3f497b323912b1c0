/* Reference for params_f64.cu: `./params_f64.ref` prints out (128 doubles
 * as 16 hex digits); `./params_f64.ref inputs` prints the zeroed out. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t db(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

int main(int argc, char **argv)
{
	const double x = -2.75, z = 1e300;
	const float y = 0.1f;
	for (int t = 0; t < 128; t++) {
		double v = 0.0;
		if (argc < 2 || strcmp(argv[1], "inputs"))
			v = t < 64 ? fma(x, (double)t, (double)y) + z * 0x1p-1000 : z / (x - (t - 64));
		printf("%016llx\n", (unsigned long long)(argc > 1 && !strcmp(argv[1], "inputs") ? 0ull : db(v)));
	}
	return 0;
}

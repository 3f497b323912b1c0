/* Reference for structs.cu: `./structs.ref` prints y (200 floats) and out
 * (8 ints) as 8 hex digits each; `./structs.ref inputs` prints x, y and
 * the zeroed out. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t fb(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

int main(int argc, char **argv)
{
	const int inputs = argc > 1 && !strcmp(argv[1], "inputs");
	const float a = 0.5f, qf[4] = { 100, 200, 300, 400 };
	const int tv[6] = { 10, 11, 12, 13, 14, 15 };
	const unsigned k = 9;
	const long long q = 0x123456789abcdef0ll;
	float x[200], y[200];
	int out[8] = { 0 };
	for (int i = 0; i < 200; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	if (inputs) {
		for (int i = 0; i < 200; i++)
			printf("%08x\n", fb(x[i]));
	} else {
		for (int i = 0; i < 200; i++)
			y[i] = fmaf(a, x[i], y[i]) + qf[i & 3];
		const int m[8] = { 200, -1234, 100000, (int)(2.75 * 4.0), (int)(q >> 32), (int)q, tv[k % 6],
				   tv[0] + tv[5] };
		memcpy(out, m, sizeof out);
	}
	for (int i = 0; i < 200; i++)
		printf("%08x\n", fb(y[i]));
	for (int i = 0; i < 8; i++)
		printf("%08x\n", (uint32_t)out[i]);
	return 0;
}

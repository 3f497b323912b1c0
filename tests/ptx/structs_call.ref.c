/* Reference for structs_call.cu: `./structs_call.ref` prints out (64
 * floats as 8 hex digits); `./structs_call.ref inputs` the zeroed out. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct P { int a; float b; double c; char d; } P;

static float f(P p, int k)
{
	return (float)(p.a * k) + p.b + (float)p.c + (float)p.d;
}

static P g(int k)
{
	P p = { k, (float)k * 0.5f, k * 0.25, (char)k };
	return p;
}

int main(int argc, char **argv)
{
	const int inputs = argc > 1 && !strcmp(argv[1], "inputs");
	const P p = { 3, 1.5f, 2.25, 4 };
	for (int i = 0; i < 64; i++) {
		float v = inputs ? 0.0f : f(p, i) + f(g(i), 2);
		uint32_t u;
		memcpy(&u, &v, 4);
		printf("%08x\n", u);
	}
	return 0;
}

/* Reference for matmul_tiled.cu: `./matmul_tiled.ref` prints c (37*45 words);
 * `./matmul_tiled.ref inputs` prints a, b and the zeroed c.  Each product is
 * the same fmaf chain as the kernel's, zeros past K included (fmaf is
 * correctly rounded in glibc). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { M = 37, N = 45, K = 53, KP = 64 };
static uint32_t S;
static uint32_t lcg(void) { S = S * 1664525u + 1013904223u; return S; }
static float f_sym(uint32_t u) { return (float)(u >> 8) * 0x1p-24f * 2.0f - 1.0f; }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

int main(int argc, char **argv)
{
	static float a[M * K], b[K * N];
	S = 3701;
	for (int i = 0; i < M * K; i++) a[i] = f_sym(lcg());
	S = 5345;
	for (int i = 0; i < K * N; i++) b[i] = f_sym(lcg());
	if (argc > 1 && !strcmp(argv[1], "inputs")) {
		for (int i = 0; i < M * K; i++) printf("%08x\n", bits(a[i]));
		for (int i = 0; i < K * N; i++) printf("%08x\n", bits(b[i]));
		for (int i = 0; i < M * N; i++) printf("%08x\n", 0u);
		return 0;
	}
	for (int r = 0; r < M; r++)
		for (int c = 0; c < N; c++) {
			float acc = 0.0f;
			for (int kk = 0; kk < KP; kk++)
				acc = fmaf(kk < K ? a[r * K + kk] : 0.0f, kk < K ? b[kk * N + c] : 0.0f, acc);
			printf("%08x\n", bits(acc));
		}
	return 0;
}

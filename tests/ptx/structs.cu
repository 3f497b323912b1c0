/*
 * structs -- structures passed by value: nvcc declares each one
 *            `.param .align A .b8 name[N]` and reads its fields with
 *            ld.param at offsets (bytes, halves, words, doubles and
 *            pointers); an array inside one is indexed at run time (nvcc
 *            copies it to a local depot).
 *
 * ENTRY    structs
 * GRID     4,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  p    Axpy   { x, y, n = 200, a = 0.5 }: x, y are --buffer x and y
 *   1  m    Mixed  { c = 200, s = -1234, i = 100000, d = 2.75, q = 0x123456789abcdef0 }
 *   2  t    Table  { 10, 11, 12, 13, 14, 15 }
 *   3  q    Quad   { 100, 200, 300, 400 } (aligned to 16)
 *   4  k    u32    9
 *   5  out  s32*   8   out  zero
 *   x  f32[200] in: x[i] = i;  y  f32[200] out: y[i] = 1 initially
 * EXPECT   y[i] = fma(a, x[i], y[i]) + q.f[i & 3] for i < n; out[] = the
 *          fields of m, t.v[k % 6] and t.v[0] + t.v[5]
 */
struct Axpy {
	const float *x;
	float *y;
	int n;
	float a;
};

struct Mixed {
	unsigned char c;
	short s;
	int i;
	double d;
	long long q;
};

struct Table {
	int v[6];
};

struct alignas(16) Quad {
	float f[4];
};

extern "C" __global__ void structs(Axpy p, Mixed m, Table t, Quad q, unsigned k, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		p.y[i] = p.a * p.x[i] + p.y[i] + q.f[i & 3];
	if (i == 0) {
		out[0] = m.c;
		out[1] = m.s;
		out[2] = m.i;
		out[3] = (int)(m.d * 4.0);
		out[4] = (int)(m.q >> 32);
		out[5] = (int)m.q;
		out[6] = t.v[k % 6];
		out[7] = t.v[0] + t.v[5];
	}
}

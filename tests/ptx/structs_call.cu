/*
 * structs_call -- a structure passed by value to and returned from
 *                 noinline functions (.func parameters and return values
 *                 `.param .align 8 .b8 name[24]`, written by st.param and
 *                 read by ld.param, .v4.u8 vectors included) and to the
 *                 kernel itself.
 *
 * ENTRY    structs_call
 * GRID     1,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  p    P      { a = 3, b = 1.5, c = 2.25, d = 4 }
 *   1  out  f32*   64   out  zero
 * EXPECT   out[i] = f(p, i) + f(g(i), 2), f(p, k) = p.a * k + p.b + (float)p.c + p.d,
 *          g(k) = { k, k * 0.5, k * 0.25, (char)k }
 */
struct P {
	int a;
	float b;
	double c;
	char d;
};

__device__ __noinline__ float f(P p, int k)
{
	return p.a * k + p.b + (float)p.c + p.d;
}

__device__ __noinline__ P g(int k)
{
	P p;
	p.a = k;
	p.b = k * 0.5f;
	p.c = k * 0.25;
	p.d = (char)k;
	return p;
}

extern "C" __global__ void structs_call(P p, float *out)
{
	int i = threadIdx.x;
	P q = g(i);
	out[i] = f(p, i) + f(q, 2);
}

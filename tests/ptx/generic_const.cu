/*
 * generic_const -- generic pointers into the parameter space and constant
 *                  memory (nvcc's cvta.param and cvta.const), mixed with a
 *                  global pointer in one warp and read by a noinline
 *                  function that takes a plain `const int *`.
 *
 * ENTRY    generic_const
 * GRID     1,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  s    Pack   { a = 100, 101, ..., 107 (8 ints), bias = 2.5f }
 *   1  out  s32*   128  in/out  out[64 + j] = 1000 * (j + 1), the rest zero
 *   2  k    s32    3
 * EXPECT   out[t] (t < 64) = the sum of p[0..3] + (int)s.bias, where p is
 *          &s.a[t & 3] when t % 3 == 0, &ctab[(k + t) & 7] when t % 3 == 1,
 *          else &out[64 + (t & 7)]; ctab[i] = i * i - 7
 */
struct Pack {
	int a[8];
	float bias;
};

__constant__ int ctab[16] = { -7, -6, -3, 2, 9, 18, 29, 42, 57, 74, 93, 114, 137, 162, 189, 218 };

__device__ __noinline__ int sum4(const int *p)
{
	int s = 0;
	for (int i = 0; i < 4; i++)
		s += p[i];
	return s;
}

extern "C" __global__ void generic_const(const __grid_constant__ Pack s, int *out, int k)
{
	const int t = threadIdx.x;
	const int *p = t % 3 == 0 ? &s.a[t & 3] : t % 3 == 1 ? &ctab[(k + t) & 7] : out + 64 + (t & 7);
	out[t] = sum4(p) + (int)s.bias;
}

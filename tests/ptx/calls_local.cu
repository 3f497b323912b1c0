/*
 * calls_local -- a .func with a .local array (its frame in local memory:
 *                __local_depot, %SPL) indexed per lane, called inside a
 *                loop with per-lane trip counts, and an `exit` inside the
 *                function (the exiting lanes end; their out stays 0).
 *
 * ENTRY    calls_local
 * GRID     2,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  in   const u32*  128   in   in[i] = lcgx(seed=21)
 *   1  out  u32*        128   out  zero
 * EXPECT   ref.c
 * FEATURES .local in a .func, call in a divergent loop, exit in a .func
 */
__device__ __noinline__ unsigned sumsq(unsigned x, unsigned n)
{
	unsigned a[16];
	for (unsigned i = 0; i < 16; i++)
		a[i] = x * i + (x >> i);
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s += a[(x + i * 7u) & 15u];
	if ((s & 63u) == 17u)
		asm volatile("exit;");
	return s;
}

extern "C" __global__ void calls_local(const unsigned *in, unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = in[g];
	unsigned acc = 0;
	for (unsigned k = 0; k < (x & 3u) + 1u; k++)
		acc = acc * 31u + sumsq(x + k, (x >> 4) & 31u);
	out[g] = acc;
}

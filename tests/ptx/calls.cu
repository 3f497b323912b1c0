/*
 * calls -- noinline device functions (.func with .param passing, call.uni):
 *          recursion (fib), a called function with an early return and a
 *          data-dependent loop (collatz steps, capped), a u64 return value,
 *          arguments of three types, nested calls, calls made by some lanes
 *          only (divergent), and a __syncthreads() after them (the lanes
 *          must have reconverged, or the aligned barrier is an exception).
 *
 * ENTRY    calls
 * GRID     2,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  in   const u32*  128   in   in[i] = lcgx(seed=5)
 *   1  out  u32*        128   out  zero
 * EXPECT   ref.c
 * FEATURES .func, call.uni, recursion, ret inside a function, divergent calls
 */
__device__ __noinline__ unsigned fib(unsigned n)
{
	if (n < 2u)
		return n;
	return fib(n - 1u) + fib(n - 2u);
}

__device__ __noinline__ unsigned steps(unsigned x)
{
	if (x == 0u)
		return 1000u;
	unsigned n = 0;
	while (x != 1u && n < 200u) {
		x = (x & 1u) ? 3u * x + 1u : x >> 1;
		n++;
	}
	return n;
}

__device__ __noinline__ unsigned long long mix(unsigned a, unsigned long long b, float c)
{
	return (unsigned long long)a * 3u + (b >> 7) + (unsigned long long)(int)c + steps(a & 1023u);
}

extern "C" __global__ void calls(const unsigned *in, unsigned *out)
{
	__shared__ unsigned s[64];
	unsigned t = threadIdx.x;
	unsigned g = blockIdx.x * blockDim.x + t;
	unsigned x = in[g];
	unsigned r = 0;
	if (x & 1u)
		r = fib(x & 15u);
	unsigned long long m = mix(x, (unsigned long long)x * 1000u, (float)(x & 255u));
	r += (unsigned)m ^ (unsigned)(m >> 32);
	s[t] = r;
	__syncthreads();
	out[g] = s[t ^ 5u] + r;
}

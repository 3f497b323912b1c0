/*
 * globals -- __device__ variables: a counter incremented with atomicAdd by
 *            every thread (its final value is the largest old value + 1),
 *            read-only tables with initialisers
 *            (unsigned and signed), and a per-thread array written and read
 *            back through a generic pointer.
 *
 * ENTRY    globals
 * GRID     2,1,1
 * BLOCK    96,1,1
 * PARAMS
 *   0  out  u32*  193  out  zero
 * EXPECT   out[t] = table[t & 7] * 10 + sarr[t & 3] + scratch round trip;
 *          out[192] = the counter after the launch (the largest old + 1):
 *          192, and 384 after a second launch of the same module
 */
__device__ unsigned counter;
__device__ unsigned table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
__device__ int sarr[4] = { -1, 5, -9, 12 };
__device__ unsigned scratch[192];

__device__ __noinline__ void put(unsigned *p, unsigned v) { *p = v; }

extern "C" __global__ void globals(unsigned *out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned n = gridDim.x * blockDim.x;
	unsigned old = atomicAdd(&counter, 1u);
	put(&scratch[t], t * 3u + 1u);
	unsigned v = table[t & 7u] * 10u + (unsigned)sarr[t & 3u] + scratch[t];
	out[t] = v;
	atomicMax(&out[n], old + 1u);
}

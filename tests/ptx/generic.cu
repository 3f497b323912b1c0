/*
 * generic -- loads, stores and atomics through generic pointers into
 *            shared, local and global memory (a noinline function that
 *            takes plain pointers: nvcc cannot tell the space, so it
 *            emits ld/st/atom without a state space and cvta to generic).
 *
 * ENTRY    generic
 * GRID     2,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  in   const u32*  128   in   in[i] = lcgx(seed=8)
 *   1  out  u32*        128   out  zero
 *   2  cnt  u32*        2     out  zero (atomics through a generic pointer)
 * EXPECT   ref.c
 * FEATURES generic ld/st/atom, cvta.shared/.local/.global, per-lane spaces
 */
__device__ __noinline__ unsigned touch(unsigned *p, unsigned v, unsigned *ctr)
{
	unsigned old = p[0];
	p[0] = old + v;
	atomicAdd(ctr, 1u);
	return old;
}

extern "C" __global__ void generic(const unsigned *in, unsigned *out, unsigned *cnt)
{
	__shared__ unsigned s[64];
	__shared__ unsigned sc;
	unsigned loc[4];
	unsigned t = threadIdx.x, g = blockIdx.x * 64u + t;
	unsigned x = in[g];
	s[t] = x;
	loc[t & 3u] = x ^ 0x55u;
	loc[(t + 1u) & 3u] = 7u;
	if (t == 0)
		sc = 0;
	__syncthreads();
	/* per lane: shared, local or global memory through one generic pointer */
	unsigned *p = (x & 3u) == 0u ? &s[t] : (x & 3u) == 1u ? &loc[t & 3u] : &out[g];
	unsigned old = touch(p, 100u, (x & 4u) ? &sc : &cnt[blockIdx.x]);
	__syncthreads();
	unsigned r = old * 2u + s[t] + loc[t & 3u];
	if (t == 0)
		r += sc << 16;
	out[g] += r;
}

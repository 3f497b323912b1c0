/*
 * bar_thread -- barrier.red and barrier.arrive without .aligned (seed 001),
 *               each reached by a warp's lanes through two instructions
 *               (inline PTX):
 *   - barrier 2: barrier.red.popc of (x & 1): lanes < 10 through one
 *     instruction, the others through another; every thread gets the
 *     CTA's count;
 *   - barrier 3: barrier.red.and and .or of (x & 2) by odd / even lanes
 *     (two instructions of one reduction: and, then or on barrier 5);
 *   - barrier 4: warp 0 produces s2[] and arrives (barrier.arrive 4, 64)
 *     by halves through two instructions; warp 1 waits (barrier.sync 4, 64)
 *     and reads what warp 0 wrote.
 *
 * ENTRY    bar_thread
 * GRID     2,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  in   const u32*  128   in   in[i] = lcgx(seed=9)
 *   1  out  u32*        128   out  zero
 * EXPECT   out[g] = popc * 16 + and * 4 + or * 2 + (warp 1 ? s2 value : 0) * 256
 *          (ref.c)
 * FEATURES barrier.red.popc/and/or, barrier.arrive, barrier.sync with a count
 */
__device__ __forceinline__ unsigned red_popc_a(unsigned p)
{
	unsigned c;
	asm volatile("{ .reg .pred %%q; setp.ne.u32 %%q, %1, 0; barrier.red.popc.u32 %0, 2, %%q; }" : "=r"(c) : "r"(p) : "memory");
	return c;
}
__device__ __forceinline__ unsigned red_popc_b(unsigned p)
{
	unsigned c;
	asm volatile("{ .reg .pred %%q; setp.eq.u32 %%q, %1, 0; barrier.red.popc.u32 %0, 2, !%%q; }" : "=r"(c) : "r"(p) : "memory");
	return c;
}
__device__ __forceinline__ unsigned red_and(unsigned p, unsigned id)
{
	unsigned c;
	asm volatile("{ .reg .pred %%q, %%r; setp.ne.u32 %%q, %1, 0; barrier.red.and.pred %%r, %2, %%q; selp.u32 %0, 1, 0, %%r; }"
		     : "=r"(c) : "r"(p), "r"(id) : "memory");
	return c;
}
__device__ __forceinline__ unsigned red_or(unsigned p)
{
	unsigned c;
	asm volatile("{ .reg .pred %%q, %%r; setp.ne.u32 %%q, %1, 0; barrier.red.or.pred %%r, 5, %%q; selp.u32 %0, 1, 0, %%r; }"
		     : "=r"(c) : "r"(p) : "memory");
	return c;
}

extern "C" __global__ void bar_thread(const unsigned *in, unsigned *out)
{
	__shared__ unsigned s2[32];
	unsigned t = threadIdx.x, lane = t & 31u;
	unsigned g = blockIdx.x * 64u + t;
	unsigned x = in[g];
	unsigned c, a, o;
	if (lane < 10u)
		c = red_popc_a(x & 1u);
	else
		c = red_popc_b(x & 1u);
	if (lane & 1u)
		a = red_and(x & 2u, 3u);
	else
		a = red_and(x & 2u, 3u + (x & 0u));
	if (lane & 2u)
		o = red_or(x & 2u) + 2u;
	else
		o = red_or(x & 2u) + 4u;
	o &= 1u;
	unsigned v = 0;
	if (t < 32u) {
		s2[lane] = x * 7u;
		if (lane < 16u)
			asm volatile("barrier.arrive 4, 64;" ::: "memory");
		else
			asm volatile("barrier.cta.arrive 4, 64;" ::: "memory");
	} else {
		asm volatile("barrier.sync 4, 64;" ::: "memory");
		v = s2[31u - lane];
	}
	out[g] = c * 16u + a * 4u + o * 2u + v * 256u;
}

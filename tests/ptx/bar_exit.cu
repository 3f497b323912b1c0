/*
 * bar_exit -- per-thread barrier arrival with early-exited threads: some
 *             threads return before the barrier (the barrier must not wait
 *             for them, 001: exited threads are not counted), the others
 *             run data-dependent loops and reach barrier 1 through two
 *             instructions (odd and even lanes); the last warp is partial
 *             (80 threads per CTA).
 *
 * ENTRY    bar_exit
 * GRID     3,1,1
 * BLOCK    80,1,1
 * PARAMS
 *   0  in   const u32*  240   in   in[i] = lcgx(seed=4242)
 *   1  out  u32*        240   out  zero
 * EXPECT   s[t] = in[g]; threads with (in[g] & 3) == 0 return; the others
 *          acc = in[g]; repeat (in[g] >> 2) & 7 times: acc = acc * 5 + 1;
 *          s[t] = acc ^ (lane & 1); barrier; out[g] = s[(t + 29) mod 80] + (lane & 1)
 * FEATURES barrier.sync (per thread) at two PCs, early return, partial warp
 */
extern "C" __global__ void bar_exit(const unsigned *in, unsigned *out)
{
	__shared__ unsigned s[80];
	unsigned t = threadIdx.x;
	unsigned g = blockIdx.x * 80u + t;
	unsigned x = in[g];
	s[t] = x;
	if ((x & 3u) == 0u)
		return;
	unsigned acc = x;
	for (unsigned k = 0; k < ((x >> 2) & 7u); k++)
		acc = acc * 5u + 1u;
	unsigned j = t + 29u >= 80u ? t + 29u - 80u : t + 29u;
	if (t & 1u) {
		s[t] = acc ^ 1u;
		__barrier_sync(1);
		out[g] = s[j] + 1u;
	} else {
		s[t] = acc;
		__barrier_sync(1);
		out[g] = s[j];
	}
}

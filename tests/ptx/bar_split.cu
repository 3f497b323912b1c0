/*
 * bar_split -- a non-aligned barrier (barrier.sync without .aligned, seed 001)
 *              reached by each warp's two halves through two different
 *              barrier instructions.  Each thread writes its shared slot,
 *              meets the others at barrier 0 through its half's own
 *              instruction, then reads a slot another warp wrote: right only
 *              if the warp arrived once, after all of its threads.
 *
 * ENTRY    bar_split
 * GRID     2,1,1
 * BLOCK    128,1,1
 * PARAMS
 *   0  in   const u32*  256   in   in[i] = lcgx(seed=77)
 *   1  out  u32*        256   out  zero
 * EXPECT   s[t] = in[g]*3 + (lane < 16 ? 1 : 2);
 *          out[g] = lane < 16 ? s[(t+37)&127] ^ 0x100 : s[(t+53)&127] ^ 0x200
 * FEATURES barrier.sync (per thread) at two PCs, BSSY/BSYNC after it
 */
extern "C" __global__ void bar_split(const unsigned *in, unsigned *out)
{
	__shared__ unsigned s[128];
	unsigned t = threadIdx.x;
	unsigned g = blockIdx.x * blockDim.x + t;
	s[t] = in[g] * 3u;
	if ((t & 31u) < 16u) {
		s[t] += 1u;
		__barrier_sync(0);
		out[g] = s[(t + 37u) & 127u] ^ 0x100u;
	} else {
		s[t] += 2u;
		__barrier_sync(0);
		out[g] = s[(t + 53u) & 127u] ^ 0x200u;
	}
}

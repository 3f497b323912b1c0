/*
 * bar_stuck -- an intra-warp deadlock of per-thread barriers: lanes < 16
 *              wait at barrier.sync 1, the others at barrier.sync 2; each
 *              barrier needs every live thread of the warp, so neither can
 *              complete.  warpemu reports the deadlock at once (exit 5)
 *              with both groups of lanes and their PTX lines.
 *
 * ENTRY    bar_stuck
 * GRID     1,1,1
 * BLOCK    32,1,1
 * PARAMS
 *   0  out  u32*  32  out  zero
 * EXPECT   deadlock (intra-warp), lanes 0x0000ffff and 0xffff0000
 */
extern "C" __global__ void bar_stuck(unsigned *out)
{
	unsigned t = threadIdx.x;
	if (t < 16u) {
		__barrier_sync(1);
		out[t] = 1u;
	} else {
		__barrier_sync(2);
		out[t] = 2u;
	}
}

/*
 * bar_diverge -- an aligned barrier (__syncthreads, bar.sync 0) executed
 *                divergently: only the odd threads reach it.  Undefined in
 *                PTX; warpemu must not complete it as if the even threads
 *                had arrived: the run stops with a barrier exception naming
 *                the lanes and the PTX line (exit status 4).
 *
 * ENTRY    bar_diverge
 * GRID     1,1,1
 * BLOCK    64,1,1   (the even threads go on to out[t] = t + 1; they do
 *                   not exit, so the odd ones' barrier is divergent)
 * PARAMS
 *   0  out  u32*  64  out  zero
 * EXPECT   exception "aligned barrier executed divergently"
 */
extern "C" __global__ void bar_diverge(unsigned *out)
{
	__shared__ unsigned s[64];
	unsigned t = threadIdx.x;
	s[t] = t;
	unsigned v = t;
	if (t & 1u) {
		__syncthreads();
		v = s[63u - t];
	}
	out[t] = v + 1u;
}

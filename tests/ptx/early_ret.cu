/*
 * early_ret -- early return before barriers in a partial last block: threads past n
 *              return at once; the others run an inclusive Hillis-Steele scan with two
 *              __syncthreads() per step, then a rotation among the block's live threads
 *              through shared memory.  The last block has 44 live threads: one full warp,
 *              one with 12 live lanes, two that have exited entirely.  No barrier may wait
 *              for the exited threads (001: exited threads are not counted), so there is
 *              no deadlock, false or otherwise.
 *
 * ENTRY    early_ret
 * GRID     3,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic (static: unsigned s[128])
 * PARAMS
 *   0  in    const u32*  384 elements  in   in[i] = lcgx(seed=3003) & 0xffffff
 *   1  scan  u32*        384 elements  out  initialised to 0
 *   2  rot   u32*        384 elements  out  initialised to 0
 *   3  n     u32 = 300
 * Let m = min(128, n - b*128) (the block's live threads), t < m.
 * EXPECT   scan[g] = in[b*128] + ... + in[g]; rot[g] = scan[b*128 + (t + 7) % m] * 3 + t;
 *          elements from n on stay 0.
 * FEATURES a guarded EXIT before bar.sync 0 in a loop, a partial warp, warps that have all
 *          exited, min.u32.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 early_ret.cu (and -arch=sm_75)
 */
extern "C" __global__ void early_ret(const unsigned *__restrict__ in, unsigned *scan,
                                     unsigned *rot, unsigned n)
{
	__shared__ unsigned s[128];
	unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x, g = base + t;
	if (g >= n)
		return;
	unsigned m = min(blockDim.x, n - base);
	s[t] = in[g];
	for (unsigned d = 1; d < m; d <<= 1) {
		__syncthreads();
		unsigned v = t >= d ? s[t - d] : 0u;
		__syncthreads();
		s[t] += v;
	}
	__syncthreads();
	unsigned x = s[t];
	scan[g] = x;
	rot[g] = s[(t + 7u) % m] * 3u + t;
}

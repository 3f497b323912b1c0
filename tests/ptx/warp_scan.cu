/*
 * warp_scan -- a block-wide inclusive scan built from warp-shuffle scans: each warp scans
 *              its 32 values with shfl.sync.up, lane 31 writes the warp's total to shared
 *              memory, warp 0 scans the warp totals (again with shfl.sync.up), and every
 *              thread adds the total of the warps before it.  The grid is not a multiple
 *              of the block: threads past n contribute 0 and store nothing.
 *
 * ENTRY    warp_scan
 * GRID     3,1,1
 * BLOCK    256,1,1            (8 warps; the kernel assumes at most 32 warps)
 * SHARED   0 bytes dynamic (static: unsigned wsum[32])
 * PARAMS
 *   0  in    const u32*  768 elements  in   in[i] = lcgx(seed=1616) & 0xffff for i < 700, 0 after
 *   1  out   u32*        768 elements  out  initialised to 0
 *   2  tot   u32*        3 elements    out  initialised to 0
 *   3  n     u32 = 700
 * EXPECT   out[g] = sum of in[b*256 .. g] (inclusive, within block b) for g < n, 0 after;
 *          tot[b] = the sum over block b's threads below n.  (u32 arithmetic, mod 2^32.)
 * FEATURES shfl.sync.up.b32 with the clamp operand 0, bar.sync 0 twice, per-warp branches.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 warp_scan.cu (and -arch=sm_75)
 */
#define FULL 0xffffffffu
__device__ __forceinline__ unsigned warp_incl_scan(unsigned x, unsigned lane)
{
#pragma unroll
	for (unsigned d = 1; d < 32; d <<= 1) {
		unsigned t = __shfl_up_sync(FULL, x, d);
		if (lane >= d)
			x += t;
	}
	return x;
}

extern "C" __global__ void warp_scan(const unsigned *__restrict__ in, unsigned *out,
                                     unsigned *tot, unsigned n)
{
	__shared__ unsigned wsum[32];
	unsigned t = threadIdx.x, lane = t & 31u, w = t >> 5;
	unsigned nw = (blockDim.x + 31u) >> 5;
	unsigned g = blockIdx.x * blockDim.x + t;
	unsigned v = g < n ? in[g] : 0u;
	unsigned x = warp_incl_scan(v, lane);
	if (lane == 31u)
		wsum[w] = x;
	__syncthreads();
	if (w == 0) {
		unsigned s = lane < nw ? wsum[lane] : 0u;
		s = warp_incl_scan(s, lane);
		if (lane < nw)
			wsum[lane] = s;
	}
	__syncthreads();
	if (w > 0)
		x += wsum[w - 1];
	if (g < n)
		out[g] = x;
	if (t == blockDim.x - 1)
		tot[blockIdx.x] = x;
}

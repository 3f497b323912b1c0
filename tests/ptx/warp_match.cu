/*
 * warp_match -- match.any.sync / match.all.sync (32- and 64-bit values),
 *               redux.sync add/min/max/and/or/xor over the whole warp and
 *               over a cooperative-groups tile of 8 lanes (membermask), and
 *               activemask inside a divergent branch.  sm_75 has no
 *               redux.sync: there the same reductions are shuffles.
 *
 * ENTRY    warp_match
 * GRID     2,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  in   const u32*  128     in   in[i] = lcgx(seed=3)
 *   1  out  u32*        128*8   out  zero
 * EXPECT   ref.c
 * FEATURES match.any/all.sync, redux.sync, activemask, membermasks
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void warp_match(const unsigned *in, unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = in[g];
	unsigned key = x & 3u;
	unsigned long long key64 = ((const unsigned long long *)in)[g / 2u] & 0x0000000300000001ull;
	unsigned *o = out + g * 8u;
	o[0] = __match_any_sync(0xffffffffu, key);

	int pred = 0;
	o[1] = __match_all_sync(0xffffffffu, key >> 8, &pred) + (unsigned)pred * 3u + __match_all_sync(0xffffffffu, key, &pred) + (unsigned)pred * 5u;
	o[2] = __match_any_sync(0xffffffffu, key64);
	cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
#if __CUDA_ARCH__ >= 800
	o[3] = __reduce_add_sync(0xffffffffu, x & 0xffffu);
	o[4] = __reduce_min_sync(0xffffffffu, (int)x) ^ (unsigned)__reduce_max_sync(0xffffffffu, x);
	o[5] = __reduce_and_sync(0xffffffffu, x) ^ __reduce_or_sync(0xffffffffu, x) ^ __reduce_xor_sync(0xffffffffu, x);
	o[6] = cg::reduce(tile, x & 0xffu, cg::plus<unsigned>());
#else
	unsigned s = x & 0xffffu, mn = x, mx = x, an = x, orr = x, xo = x, ts = x & 0xffu;
	for (int k = 16; k; k >>= 1) {
		s += __shfl_xor_sync(0xffffffffu, s, k);
		int m2 = __shfl_xor_sync(0xffffffffu, (int)mn, k);
		mn = (int)mn < m2 ? mn : (unsigned)m2;
		unsigned x2 = __shfl_xor_sync(0xffffffffu, mx, k);
		mx = mx > x2 ? mx : x2;
		an &= __shfl_xor_sync(0xffffffffu, an, k);
		orr |= __shfl_xor_sync(0xffffffffu, orr, k);
		xo ^= __shfl_xor_sync(0xffffffffu, xo, k);
	}
	for (int k = 4; k; k >>= 1)
		ts += tile.shfl_xor(ts, k);
	o[3] = s;
	o[4] = mn ^ mx;
	o[5] = an ^ orr ^ xo;
	o[6] = ts;
#endif
	/* the tile operations leave the warp in four groups of 8 lanes (their
	 * membermasks): converge it again before asking which lanes are active */
	__syncwarp();
	unsigned am = 0;
	if (x & 1u)
		am = __activemask();
	o[7] = am;
}

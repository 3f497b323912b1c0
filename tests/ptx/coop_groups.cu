/*
 * coop_groups -- cooperative groups: cg::this_thread_block().sync() (a non-aligned
 *                barrier.sync 0), cg::tiled_partition<16> tiles with cg::reduce (plus,
 *                greater, bit_xor: redux.sync on sm_90 with the tile's 16-lane mask,
 *                shuffles on sm_75), tile.sync() (bar.warp.sync with a partial mask), a
 *                tile shuffle and tile.any/all; thread_rank and meta_group_rank.
 *
 * ENTRY    coop_groups
 * GRID     2,1,1
 * BLOCK    128,1,1            (8 tiles of 16 threads per block)
 * SHARED   0 bytes dynamic (static: unsigned s[128], unsigned tsum[8])
 * PARAMS
 *   0  in    const u32*  256 elements    in   in[i] = lcgx(seed=9090) & 0xfffff
 *   1  out   u32*        256*4 elements  out  initialised to 0
 *   2  blk   u32*        2 elements      out  initialised to 0
 * Let r = the thread's rank in the block, q = r / 16 (the tile), l = r % 16, v = in[g].
 * EXPECT   out[g*4+0] = sum of v over tile q;  out[g*4+1] = max of v over the tile;
 *          out[g*4+2] = xor of v over the tile ^ (its rank l) ... see coop_groups.ref.c:
 *          [2] = xor over the tile of s[] after the block rotation (s[r] = v of rank
 *          (r + 37) % 128), [3] = (v of tile lane (l + 5) % 16) + any/all bits;
 *          blk[b] = sum over the tiles' sums (thread 0 after a block sync).
 * FEATURES barrier.sync 0 (non-aligned), redux.sync.{add,max,xor} with a tile mask,
 *          bar.warp.sync with 0xffff / 0xffff0000 masks, shfl.sync.idx with a
 *          segment, vote.sync.any/all with a tile mask.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 coop_groups.cu (and -arch=sm_75)
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void coop_groups(const unsigned *__restrict__ in, unsigned *out,
                                       unsigned *blk)
{
	__shared__ unsigned s[128], tsum[8];
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
	unsigned r = block.thread_rank();
	unsigned g = blockIdx.x * 128u + r;
	unsigned v = in[g];
	unsigned sum = cg::reduce(tile, v, cg::plus<unsigned>());
	unsigned mx = cg::reduce(tile, v, cg::greater<unsigned>());
	s[(r + 91u) & 127u] = v;     /* s[r] = v of rank (r + 37) % 128 */
	block.sync();
	unsigned w = s[r];
	tile.sync();
	unsigned x = cg::reduce(tile, w, cg::bit_xor<unsigned>());
	unsigned nb = tile.shfl(v, (tile.thread_rank() + 5u) & 15u);
	unsigned anyb = tile.any(v & 1u) ? 1u : 0u;
	unsigned allb = tile.all(v > 0x800u) ? 2u : 0u;
	if (tile.thread_rank() == 0)
		tsum[tile.meta_group_rank()] = sum;
	out[g * 4 + 0] = sum;
	out[g * 4 + 1] = mx;
	out[g * 4 + 2] = x;
	out[g * 4 + 3] = (nb << 2) | anyb | allb;
	block.sync();
	if (r == 0) {
		unsigned t = 0;
		for (unsigned k = 0; k < 8; k++)
			t += tsum[k];
		blk[blockIdx.x] = t;
	}
}

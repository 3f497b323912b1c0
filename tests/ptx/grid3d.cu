/*
 * grid3d -- a 3-D grid of 3-D blocks with partial warps: blockDim 5x3x3 (45 threads: a
 *           full warp and one of 13 lanes), grid 2x3x2.  Every thread records its
 *           coordinates from %tid.x/y/z, %ntid.x/y/z, %ctaid.x/y/z and %nctaid.x/y/z,
 *           then the block exchanges values through shared memory across a
 *           __syncthreads() (the partial warp's missing lanes are not waited for) and
 *           reduces them with a shared-memory atomicAdd.
 *
 * ENTRY    grid3d
 * GRID     2,3,2
 * BLOCK    5,3,3
 * SHARED   0 bytes dynamic (static: unsigned s[45], unsigned bsum)
 * PARAMS
 *   0  in    const u32*  540 elements    in   in[i] = lcgx(seed=5332) & 0xffff
 *   1  out   u32*        540*3 elements  out  initialised to 0
 *   2  bs    u32*        12 elements     out  initialised to 0
 * Let t = x + 5*(y + 3*z) (the thread's linear index), c = bx + 2*(by + 3*bz) (the block's),
 * g = c*45 + t.
 * EXPECT   out[g*3+0] = x | y<<4 | z<<8 | bx<<12 | by<<16 | bz<<20 | 1<<24 (the ntid/nctaid
 *          check: each of the 6 dimensions equals 5,3,3,2,3,2, else bit 24 is 0);
 *          out[g*3+1] = in[c*45 + (t + 17) % 45] (through shared memory);
 *          out[g*3+2] = the warp id (t / 32) * 1000 + lane (t % 32);
 *          bs[c] = sum of in over the block.
 * FEATURES %tid.y/z, %ntid.y/z, %ctaid.z, %nctaid.x/y/z, a partial warp, bar.sync 0,
 *          atom.shared.add.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 grid3d.cu (and -arch=sm_75)
 */
extern "C" __global__ void grid3d(const unsigned *__restrict__ in, unsigned *out, unsigned *bs)
{
	__shared__ unsigned s[45], bsum;
	unsigned x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
	unsigned nt = blockDim.x * blockDim.y * blockDim.z;
	unsigned t = x + blockDim.x * (y + blockDim.y * z);
	unsigned c = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	unsigned g = c * nt + t;
	unsigned dims = blockDim.x == 5 && blockDim.y == 3 && blockDim.z == 3 && gridDim.x == 2 &&
	                gridDim.y == 3 && gridDim.z == 2;
	out[g * 3 + 0] = x | y << 4 | z << 8 | blockIdx.x << 12 | blockIdx.y << 16 | blockIdx.z << 20 |
	                 dims << 24;
	if (t == 0)
		bsum = 0;
	unsigned v = in[g];
	s[t] = v;
	__syncthreads();
	atomicAdd(&bsum, v);
	out[g * 3 + 1] = s[(t + 17u) % nt];
	out[g * 3 + 2] = (t / 32u) * 1000u + t % 32u;
	__syncthreads();
	if (t == nt - 1)
		bs[c] = bsum;
}

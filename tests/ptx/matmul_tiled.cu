/*
 * matmul_tiled -- C = A * B in f32 with 16x16 shared-memory tiles, sizes that are not
 *                 multiples of the tile (M = 37, N = 45, K = 53): the loads of the edge
 *                 tiles are guarded (0 outside), the inner product is a fully unrolled
 *                 (#pragma unroll) chain of fmaf, and only threads inside C store.
 *
 * ENTRY    matmul_tiled
 * GRID     3,3,1                (ceil(N/16), ceil(M/16))
 * BLOCK    16,16,1
 * SHARED   0 bytes dynamic (static: float as[16][16], bs[16][17])
 * PARAMS
 *   0  a    const f32*  37*53 elements  in   a[i] = f_sym(lcg(seed=3701)), row-major M x K
 *   1  b    const f32*  53*45 elements  in   b[i] = f_sym(lcg(seed=5345)), row-major K x N
 *   2  c    f32*        37*45 elements  out  initialised to 0
 *   3  m    u32 = 37
 *   4  n    u32 = 45
 *   5  k    u32 = 53
 * EXPECT   bit-exact: c[r][col] = acc after, for kk = 0 .. 63 (four tiles, 0 past K),
 *          acc = fmaf(A(r, kk), B(kk, col), acc) from acc = 0 (matmul_tiled.ref.c).
 * FEATURES %tid.y/%ctaid.y, 2-D shared arrays, bar.sync 0 twice per tile in a loop, an
 *          unrolled fma.rn.f32 chain, guarded loads and stores.
 * RNG      lcg(seed) and f_sym as in warp_shfl.cu.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 matmul_tiled.cu (and -arch=sm_75)
 */
#define TILE 16
extern "C" __global__ void matmul_tiled(const float *__restrict__ a, const float *__restrict__ b,
                                        float *c, unsigned m, unsigned n, unsigned k)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE + 1];
	unsigned tx = threadIdx.x, ty = threadIdx.y;
	unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float acc = 0.0f;
	for (unsigned k0 = 0; k0 < k; k0 += TILE) {
		as[ty][tx] = row < m && k0 + tx < k ? a[row * k + k0 + tx] : 0.0f;
		bs[ty][tx] = k0 + ty < k && col < n ? b[(k0 + ty) * n + col] : 0.0f;
		__syncthreads();
#pragma unroll
		for (unsigned kk = 0; kk < TILE; kk++)
			acc = fmaf(as[ty][kk], bs[kk][tx], acc);
		__syncthreads();
	}
	if (row < m && col < n)
		c[row * n + col] = acc;
}

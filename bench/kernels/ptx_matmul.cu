/*
 * ptx_matmul -- C = A * B for n x n row-major f32 matrices, tiled through
 * shared memory: 16x16 blocks, one element of C per thread, a grid of
 * ceil(n/16) x ceil(n/16).  Each step stages a 16x16 tile of A and of B
 * (zero outside the matrix), __syncthreads, 16 multiply-adds, __syncthreads.
 * The twin is bench/opencl/ptx_matmul.cl.  The benchmark's inputs are small
 * integers, so every sum is exact in any order of rounding.
 *
 * Generated: nvcc -ptx -O3 -arch=sm_90 ptx_matmul.cu -o ptx_matmul.sm90.ptx
 */
#define TILE 16
extern "C" __global__ void matmul(unsigned n, const float *__restrict__ a, const float *__restrict__ b,
				  float *__restrict__ c)
{
	__shared__ float ta[TILE][TILE], tb[TILE][TILE];
	unsigned tx = threadIdx.x, ty = threadIdx.y;
	unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float acc = 0.0f;
	for (unsigned k0 = 0; k0 < n; k0 += TILE) {
		ta[ty][tx] = row < n && k0 + tx < n ? a[row * n + k0 + tx] : 0.0f;
		tb[ty][tx] = col < n && k0 + ty < n ? b[(k0 + ty) * n + col] : 0.0f;
		__syncthreads();
		for (unsigned k = 0; k < TILE; k++)
			acc += ta[ty][k] * tb[k][tx];
		__syncthreads();
	}
	if (row < n && col < n)
		c[row * n + col] = acc;
}

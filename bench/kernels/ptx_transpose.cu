/*
 * ptx_transpose -- out = in^T through a 32x33 shared tile: the CUDA C++ of
 * kernels/transpose.we and bench/opencl/transpose.cl (same parameters).
 * Blocks of 32x8, a grid of ceil(width/32) x ceil(height/32); each thread
 * moves 4 rows of the tile.  in is height x width (row-major u32).
 *
 * Generated: nvcc -ptx -O3 -arch=sm_90 ptx_transpose.cu -o ptx_transpose.sm90.ptx
 * (the build and the benchmarks use the checked-in .ptx and never need nvcc).
 */
extern "C" __global__ void transpose(unsigned width, unsigned height, const unsigned *__restrict__ in,
				     unsigned *__restrict__ out)
{
	__shared__ unsigned tile[32][33];
	unsigned tx = threadIdx.x, ty = threadIdx.y;
	unsigned bx = blockIdx.x, by = blockIdx.y;
	unsigned x = bx * 32 + tx;
	for (unsigned j = 0; j < 32; j += 8) {
		unsigned y = by * 32 + ty + j;
		if (x < width && y < height)
			tile[ty + j][tx] = in[y * width + x];
	}
	__syncthreads();
	unsigned ox = by * 32 + tx;
	for (unsigned j = 0; j < 32; j += 8) {
		unsigned oy = bx * 32 + ty + j;
		if (ox < height && oy < width)
			out[oy * height + ox] = tile[tx][ty + j];
	}
}

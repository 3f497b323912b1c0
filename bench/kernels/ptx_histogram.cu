/*
 * ptx_histogram -- 256 bins of bytes with global atomics: block b counts
 * in[b*per_cta .. min((b+1)*per_cta, n)), each thread every blockDim.x-th
 * byte, with one atomicAdd on hist[] in global memory per byte (no shared
 * bins, unlike kernels/histogram.we).  The twin is
 * bench/opencl/ptx_histogram.cl; the parameters are histogram.we's.
 *
 * Generated: nvcc -ptx -O3 -arch=sm_90 ptx_histogram.cu -o ptx_histogram.sm90.ptx
 */
extern "C" __global__ void histogram(unsigned n, unsigned per_cta, const unsigned char *__restrict__ in,
				     unsigned *hist)
{
	unsigned start = blockIdx.x * per_cta;
	unsigned end = start + per_cta < n ? start + per_cta : n;
	for (unsigned k = start + threadIdx.x; k < end; k += blockDim.x)
		atomicAdd(&hist[in[k]], 1u);
}

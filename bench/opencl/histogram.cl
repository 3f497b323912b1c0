/* histogram: 256 bins of bytes with local atomics, as kernels/histogram.we:
 * group b counts in[b*per_cta .. min((b+1)*per_cta, n)) into local bins,
 * then adds its non-zero bins to the global histogram. */
__kernel void histogram(uint n, uint per_cta, __global const uchar *in,
			__global uint *hist)
{
	__local uint bins[256];
	uint tid = (uint)get_local_id(0), nt = (uint)get_local_size(0);
	for (uint k = tid; k < 256; k += nt)
		bins[k] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	uint start = (uint)get_group_id(0) * per_cta;
	uint end = min(start + per_cta, n);
	for (uint k = start + tid; k < end; k += nt)
		atomic_add(&bins[in[k]], 1u);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = tid; k < 256; k += nt)
		if (bins[k])
			atomic_add(&hist[k], bins[k]);
}

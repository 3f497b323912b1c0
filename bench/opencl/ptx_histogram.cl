/* ptx_histogram: OpenCL C of bench/kernels/ptx_histogram.cu: group b
 * counts in[b*per_cta .. min((b+1)*per_cta, n)) with one global atomic
 * per byte (no local bins). */
__kernel void histogram(uint n, uint per_cta, __global const uchar *in, __global uint *hist)
{
	uint start = (uint)get_group_id(0) * per_cta;
	uint end = min(start + per_cta, n);
	for (uint k = start + (uint)get_local_id(0); k < end; k += (uint)get_local_size(0))
		atomic_add(&hist[in[k]], 1u);
}

/* scan: the block-wide Hillis-Steele inclusive scan of kernels/scan.we in
 * OpenCL C, with the same two local buffers used in turn. */
__kernel void scan(uint n, __global const uint *in, __global uint *out)
{
	__local uint buf[2 * 256];
	uint tid = (uint)get_local_id(0), nt = (uint)get_local_size(0);
	uint i = (uint)get_global_id(0);
	uint x = i < n ? in[i] : 0;
	uint src = 0, dst = nt;
	buf[tid] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint d = 1; d < nt; d <<= 1) {
		if (tid >= d)
			x += buf[src + tid - d];
		buf[dst + tid] = x;
		barrier(CLK_LOCAL_MEM_FENCE);
		uint t = src;
		src = dst;
		dst = t;
	}
	if (i < n)
		out[i] = x;
}

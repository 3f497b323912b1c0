/* reduce: the shared-memory tree reduction of kernels/reduce.we in OpenCL
 * C: out[group] = sum of the group's 256 inputs, a barrier per step. */
__kernel void reduce(__global const uint *in, __global uint *out)
{
	__local uint s[256];
	uint tid = (uint)get_local_id(0);
	s[tid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = (uint)get_local_size(0) / 2; k > 0; k >>= 1) {
		if (tid < k)
			s[tid] += s[tid + k];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		out[get_group_id(0)] = s[0];
}

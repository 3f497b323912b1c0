/* ptx_reduce: OpenCL C of tests/ptx/reduce_smem.cu (the PTX benchmark
 * ptx-reduce): each group of 256 sums 512 floats, two per item, then a
 * tree in local memory with a barrier per step; out[group] = s[0].  The
 * adds are in the kernel's order, so the sums are bit-exact. */
__kernel void reduce_smem(__global const float *in, __global float *out, int n)
{
	__local float s[256];
	uint t = (uint)get_local_id(0), nt = (uint)get_local_size(0);
	uint i = (uint)get_group_id(0) * (nt * 2) + t;
	float v = 0.0f;
	if (i < (uint)n)
		v = in[i];
	if (i + nt < (uint)n)
		v += in[i + nt];
	s[t] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint st = nt / 2; st > 0; st >>= 1) {
		if (t < st)
			s[t] += s[t + st];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (t == 0)
		out[get_group_id(0)] = s[0];
}

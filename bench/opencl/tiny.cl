/* tiny: the 20-instruction one-warp kernel of bench/kernels/tiny.we in
 * OpenCL C, launched as very many work-groups of 32. */
__kernel void tiny(__global const uint *in, __global uint *out)
{
	uint i = (uint)get_global_id(0);
	uint x = in[i] * 0x27d4eb2du;
	x ^= x >> 16;
	x *= 0x45d9f3bu;
	x ^= x >> 16;
	out[i] = x + (uint)get_group_id(0);
}

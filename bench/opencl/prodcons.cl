/* prodcons: the producer/consumer pipeline of kernels/prodcons.we in
 * OpenCL C.  OpenCL C has no named barriers nor arrive-without-wait, so
 * the hand-off uses two work-group barriers per iteration: odd 32-item
 * "warps" produce into one local word per item, even ones consume. */
__kernel void prodcons(uint iters, __global const uint *in, __global uint *out)
{
	__local uint slots[128];
	uint tid = (uint)get_local_id(0);
	uint warp = tid / 32, lane = tid % 32;
	uint slot = (warp / 2) * 32 + lane;
	uint nslots = (uint)get_local_size(0) / 2;
	uint ctaid = (uint)get_group_id(0);
	uint acc = 0;
	for (uint i = 0; i < iters; i++) {
		if (warp & 1)
			slots[slot] = in[i * nslots + slot] ^ (ctaid * 0x10001u + i);
		barrier(CLK_LOCAL_MEM_FENCE);
		if (!(warp & 1))
			acc = acc * 31 + slots[slot];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (!(warp & 1))
		out[ctaid * nslots + slot] = acc;
}

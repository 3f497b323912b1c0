/* diverge: the data-dependent loops and if/else of bench/kernels/diverge.we
 * in OpenCL C. */
__kernel void diverge(uint n, __global const uint *in, __global uint *out)
{
	uint i = (uint)get_global_id(0);
	if (i >= n)
		return;
	uint v = in[i], x = v, acc = 0, trips = v & 63;
	for (uint j = 0; j < trips; j++) {
		if (x & 1) {
			x = 3 * x + 1;
			acc += x;
		} else {
			x >>= 1;
			acc ^= x;
		}
		if ((x & 6) == 0)
			acc = acc * 3 + j;
	}
	out[i] = acc + x;
}

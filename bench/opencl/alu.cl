/* alu: the ALU-bound loop of bench/kernels/alu.we in OpenCL C. */
__kernel void alu(uint iters, __global uint *out)
{
	uint g = (uint)get_global_id(0);
	uint x = g, y = g ^ 0x1234567u, z = 0;
	uint j = 0;
	do {
		x = x * 1664525u + 1013904223u;
		y ^= x >> 13;
		y = y + (y << 5) + x;
		z = (z ^ y) * 5u + x;
	} while (++j < iters);
	out[g] = y ^ z;
}

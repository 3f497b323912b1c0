/* transpose: out = in^T through a 32x33 local tile, as kernels/transpose.we
 * (work-groups of 32x8, each item moves 4 rows of the tile). */
__kernel void transpose(uint width, uint height, __global const uint *in,
			__global uint *out)
{
	__local uint tile[32][33];
	uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
	uint bx = (uint)get_group_id(0), by = (uint)get_group_id(1);
	uint x = bx * 32 + tx;
	for (uint j = 0; j < 32; j += 8) {
		uint y = by * 32 + ty + j;
		if (x < width && y < height)
			tile[ty + j][tx] = in[y * width + x];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	uint ox = by * 32 + tx;
	for (uint j = 0; j < 32; j += 8) {
		uint oy = bx * 32 + ty + j;
		if (ox < height && oy < width)
			out[oy * height + ox] = tile[tx][ty + j];
	}
}

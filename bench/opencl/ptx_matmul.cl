/* ptx_matmul: OpenCL C of bench/kernels/ptx_matmul.cu: C = A * B (n x n,
 * f32, row-major) through 16x16 local tiles, one element per item. */
#define TILE 16
__kernel void matmul(uint n, __global const float *a, __global const float *b, __global float *c)
{
	__local float ta[TILE][TILE], tb[TILE][TILE];
	uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
	uint row = (uint)get_group_id(1) * TILE + ty, col = (uint)get_group_id(0) * TILE + tx;
	float acc = 0.0f;
	for (uint k0 = 0; k0 < n; k0 += TILE) {
		ta[ty][tx] = row < n && k0 + tx < n ? a[row * n + k0 + tx] : 0.0f;
		tb[ty][tx] = col < n && k0 + ty < n ? b[(k0 + ty) * n + col] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint k = 0; k < TILE; k++)
			acc += ta[ty][k] * tb[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (row < n && col < n)
		c[row * n + col] = acc;
}

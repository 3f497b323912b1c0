/*
 * grid_constant -- a __grid_constant__ structure parameter indexed at run
 *                  time: nvcc takes the parameter's address (mov.b64 %rd,
 *                  NAME) and reads it with ld.param through a register,
 *                  instead of copying it to local memory.
 *
 * ENTRY    grid_constant
 * GRID     2,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  t    Table  { v = 10, 11, ..., 25 (16 ints), scale = 3 }
 *   1  k    u32    5
 *   2  out  s32*   128  out  zero
 * EXPECT   out[i] = t.v[(k + i) % 16] * t.scale + (i & 1 ? t.pair[1] : t.pair[0])
 */
struct Table {
	int v[16];
	int scale;
	long long pair[2];
};

extern "C" __global__ void grid_constant(const __grid_constant__ Table t, unsigned k, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = t.v[(k + i) % 16] * t.scale + (int)t.pair[i & 1];
}

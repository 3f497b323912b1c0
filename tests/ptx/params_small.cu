/*
 * params_small -- kernel parameters of 8 and 16 bits (signed and
 *                 unsigned, between 32- and 64-bit ones), a __constant__
 *                 table with an initialiser, extern __shared__ memory and
 *                 %dynamic_smem_size.
 *
 * ENTRY    params_small
 * GRID     1,1,1
 * BLOCK    64,1,1
 * SHARED   256 bytes dynamic
 * PARAMS
 *   0  a    u8    200
 *   1  b    s16   -1234
 *   2  out  u32*  64   out  zero
 *   3  c    u16   60000
 *   4  d    s8    -7
 *   5  e    u32   100000
 * EXPECT   out[t] = a + b*1000 + c*7 + d*13 + e + ctab[t & 3] + dyn[(t+1) & 63]
 *          + (%dynamic_smem_size << 20), dyn[i] = 3i
 */
__constant__ unsigned ctab[4] = { 11u, 22u, 33u, 44u };

extern "C" __global__ void params_small(unsigned char a, short b, unsigned *out, unsigned short c, signed char d,
				       unsigned e)
{
	extern __shared__ unsigned dyn[];
	unsigned t = threadIdx.x;
	dyn[t] = t * 3u;
	__syncthreads();
	unsigned dsz;
	asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsz));
	out[t] = (unsigned)a + (unsigned)((int)b * 1000) + (unsigned)c * 7u + (unsigned)((int)d * 13) + e +
		 ctab[t & 3u] + dyn[(t + 1u) & 63u] + (dsz << 20);
}

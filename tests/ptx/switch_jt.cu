/*
 * switch_jt -- a switch that nvcc turns into a jump table (brx.idx with
 *              .branchtargets; nvcc -Xcicc -jump-table-density=40): every
 *              lane picks its case from its own input, so a warp takes up
 *              to nine targets of one brx.idx at once and reconverges after
 *              the switch.
 *
 * ENTRY    switch_jt
 * GRID     2,1,1
 * BLOCK    96,1,1
 * PARAMS
 *   0  in   const u32*  192   in   in[i] = lcgx(seed=31)
 *   1  out  u32*        192   out  zero
 * EXPECT   out[g] = f(in[g] & 15 of in[g] >> 3, in[g]) (ref.c), then + 1 after the switch
 * FEATURES brx.idx, .branchtargets, per-lane targets, reconvergence
 */
extern "C" __global__ void switch_jt(const unsigned *in, unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = in[g];
	unsigned v;
	switch ((x >> 3) & 15u) {
	case 0: v = x * 3u; break;
	case 1: v = x ^ 0x5a5a5a5au; break;
	case 2: v = x + 12345u; break;
	case 3: v = x >> 5; break;
	case 4: v = x << 3; break;
	case 5: v = ~x; break;
	case 6: v = x * x; break;
	case 8: v = x - 777u; break;
	case 9: v = (x & 0xffffu) | 0x10000u; break;
	default: v = 42u; break;
	}
	out[g] = v + 1u;
}

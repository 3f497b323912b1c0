/*
 * bitonic -- bitonic sort of 512 keys per block in shared memory by 256 threads: each
 *            thread compare-exchanges one pair per step, with __syncthreads() between the
 *            steps of two nested loops (45 barriers per block), then the sorted keys go
 *            back to global memory together with their original positions (the payload
 *            travels with the key, so equal keys keep a defined order: ties are broken by
 *            the position).
 *
 * ENTRY    bitonic
 * GRID     3,1,1
 * BLOCK    256,1,1            (the kernel assumes 256 threads: 512 keys per block)
 * SHARED   0 bytes dynamic (static: unsigned key[512], unsigned pos[512])
 * PARAMS
 *   0  in    const u32*  1536 elements  in   in[i] = lcgx(seed=2024) % 1000 (many ties)
 *   1  out   u32*        1536 elements  out  initialised to 0
 *   2  perm  u32*        1536 elements  out  initialised to 0
 * EXPECT   block b's keys sorted ascending by (key, position) into out[b*512 ..], perm[..]
 *          the position (0..511) each came from.
 * FEATURES bar.sync 0 in a doubly nested loop, shared-memory compare-exchange in divergent
 *          code, shifts and xor on the thread index.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 bitonic.cu (and -arch=sm_75)
 */
__device__ __forceinline__ bool greater(unsigned ka, unsigned pa, unsigned kb, unsigned pb)
{
	return ka > kb || (ka == kb && pa > pb);
}

extern "C" __global__ void bitonic(const unsigned *__restrict__ in, unsigned *out,
                                   unsigned *perm)
{
	__shared__ unsigned key[512], pos[512];
	unsigned t = threadIdx.x, base = blockIdx.x * 512u;
	key[t] = in[base + t];
	pos[t] = t;
	key[t + 256u] = in[base + t + 256u];
	pos[t + 256u] = t + 256u;
	__syncthreads();
	for (unsigned k = 2; k <= 512u; k <<= 1) {
		for (unsigned j = k >> 1; j > 0; j >>= 1) {
			/* the pair (i, i ^ j) with bit j of i clear */
			unsigned i = ((t & ~(j - 1u)) << 1) | (t & (j - 1u));
			unsigned p = i | j;
			bool up = (i & k) == 0;
			unsigned ki = key[i], kp = key[p], pi = pos[i], pp = pos[p];
			if (greater(ki, pi, kp, pp) == up) {
				key[i] = kp;
				key[p] = ki;
				pos[i] = pp;
				pos[p] = pi;
			}
			__syncthreads();
		}
	}
	out[base + t] = key[t];
	perm[base + t] = pos[t];
	out[base + t + 256u] = key[t + 256u];
	perm[base + t + 256u] = pos[t + 256u];
}

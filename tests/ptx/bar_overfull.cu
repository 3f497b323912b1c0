/*
 * bar_overfull -- an over-full counted barrier: all four warps of the CTA execute
 *                 `bar.sync 1, 64` (inline PTX), whose count is half the CTA.  Read as
 *                 doc/spec-reading.md does (decision 3: a phase completes when its count
 *                 reaches 64; later arrivals start the next phase), the warps pass two by
 *                 two, in pairs the schedule chooses; the kernel's result does not depend
 *                 on the pairing (each warp reads only its own lanes' values after the
 *                 barrier, and the other warps' only after __syncthreads()).  `--check`
 *                 reports the barrier as arrivals-beyond-count (tests/ptx.sh); with three
 *                 warps (--block 96) the third arrival has no partner: a deadlock, exit 5.
 *
 * ENTRY    bar_overfull
 * GRID     2,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic (static: unsigned s[128])
 * PARAMS
 *   0  in    const u32*  256 elements  in   in[i] = lcgx(seed=1280)
 *   1  out   u32*        256 elements  out  initialised to 0
 *   2  out2  u32*        256 elements  out  initialised to 0
 * Let t = thread, w = t / 32, g = block*128 + t.
 * EXPECT   s[t] = in[g] * 7 + w; after bar.sync 1, 64: out[g] = s[t ^ 1] + s[t]; after
 *          __syncthreads(): out2[g] = s[(t + 32) % 128] ^ s[t].
 * FEATURES bar.sync 1, 64 executed by 128 threads (two phases), bar.sync 0.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 bar_overfull.cu (and -arch=sm_75)
 */
extern "C" __global__ void bar_overfull(const unsigned *__restrict__ in, unsigned *out,
                                        unsigned *out2)
{
	__shared__ unsigned s[128];
	unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
	s[t] = in[g] * 7u + (t >> 5);
	asm volatile("bar.sync 1, 64;" ::: "memory");
	out[g] = s[t ^ 1u] + s[t];
	__syncthreads();
	out2[g] = s[(t + 32u) % blockDim.x] ^ s[t];
}

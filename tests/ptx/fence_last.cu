/*
 * fence_last -- the "last block" reduction (CUDA's threadFenceReduction sample): each
 *               block reduces its slice in shared memory, thread 0 stores the block's
 *               partial sum, __threadfence(), and takes a ticket with atomicInc; the block
 *               that draws the last ticket (whichever it is) fences again and adds up
 *               every block's partial.  Besides: a per-block flag stored with release
 *               semantics and loaded with acquire semantics (cuda::atomic_ref, scope
 *               device), atomicExch, a block-scoped atomicAdd_block on shared memory and
 *               __threadfence_block().  The ticket counter wraps back to 0 (atomicInc with
 *               limit gridDim.x - 1), ready for the next launch.
 *
 * ENTRY    fence_last
 * GRID     6,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic (static: unsigned s[128], unsigned last, unsigned nflag)
 * PARAMS
 *   0  in       const u32*  768 elements  in   in[i] = lcgx(seed=8080) & 0xfffff
 *   1  partial  u32*        6 elements    out  initialised to 0
 *   2  flags    u32*        6 elements    out  initialised to 0
 *   3  count    u32*        1 element     out  initialised to 0
 *   4  result   u32*        3 elements    out  initialised to 0
 * EXPECT   partial[b] = the sum of block b's slice; flags[b] = b + 1; count = 0 (wrapped);
 *          result[0] = the sum of all (by the last block), result[1] = the same (stored by
 *          atomicExch), result[2] = the number of flags the last block saw set (6).
 * FEATURES membar.gl / fence.sc.gpu, membar.cta / fence.acq_rel.cta, atom.global.inc,
 *          atom.exch, ld.acquire.gpu, st.release.gpu, atom.shared.add with .cta scope,
 *          bar.sync 0.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 fence_last.cu (and -arch=sm_75)
 */
#include <cuda/atomic>

extern "C" __global__ void fence_last(const unsigned *__restrict__ in, unsigned *partial,
                                      unsigned *flags, unsigned *count, unsigned *result)
{
	__shared__ unsigned s[128], last, nflag;
	unsigned t = threadIdx.x, b = blockIdx.x, g = b * blockDim.x + t;
	s[t] = in[g];
	if (t == 0)
		nflag = 0;
	__syncthreads();
	for (unsigned d = 64; d > 0; d >>= 1) {
		if (t < d)
			s[t] += s[t + d];
		__syncthreads();
	}
	if (t == 0) {
		partial[b] = s[0];
		cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(flags[b]);
		f.store(b + 1u, cuda::std::memory_order_release);
		__threadfence();
		unsigned ticket = atomicInc(count, gridDim.x - 1u);
		__threadfence();
		last = ticket == gridDim.x - 1u;
	}
	__syncthreads();
	if (!last)
		return;
	unsigned v = 0;
	if (t < gridDim.x) {
		cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(flags[t]);
		if (f.load(cuda::std::memory_order_acquire) == t + 1u)
			atomicAdd_block(&nflag, 1u);
		v = partial[t];
	}
	s[t] = v;
	__threadfence_block();
	__syncthreads();
	if (t == 0) {
		unsigned total = 0;
		for (unsigned k = 0; k < gridDim.x; k++)
			total += s[k];
		result[0] = total;
		atomicExch(&result[1], total);
		result[2] = nflag;
	}
}

/*
 * warp_vote -- warp votes and the lane special registers: __all_sync, __any_sync,
 *              __uni_sync and __ballot_sync over the full warp and inside a divergent
 *              branch (with __activemask() as the membermask), %laneid and the five
 *              %lanemask_* registers (inline PTX), 128-bit loads and stores (uint4:
 *              ld.global.nc.v4.u32 through __ldg, st.global.v4.u32), and the clocks:
 *              %clock, %clock64 and %globaltimer read around a __nanosleep() must not go
 *              backwards; %warpid < %nwarpid.
 *
 * ENTRY    warp_vote
 * GRID     2,1,1
 * BLOCK    96,1,1
 * SHARED   0 bytes dynamic
 * PARAMS
 *   0  in    const u32*  192*4 elements  in   in[i] = lcgx(seed=4096) (four words per thread)
 *   1  out   u32*        192*12 elements out  initialised to 0
 * Let g = global thread, l = its lane, x = in[4g], y = in[4g+1], v = x ^ y, odd = l & 1.
 * EXPECT   out[12g + 0..3] = in[4g + 3 - k] + k  (a reversed uint4, one v4 store);
 *          [4] ballot(v & 1) over the warp; [5] all(v > 0x1000) | any(v > 0xff000000) << 1
 *          | uni(l < 40) << 2 | uni(v & 1) << 3; [6] activemask in the odd/even branch;
 *          [7] ballot(v & 2) among the branch's lanes; [8] all(x & 4) among them |
 *          any(y & 8) << 1; [9] %laneid | lanemask_eq << 5 (as a check: 1 if it equals
 *          1 << l) | ... see warp_vote.ref.c; [10] the clock/timer checks (7 = all
 *          monotonic and warpid < nwarpid is bit 3: 15); [11] lanemask_lt & ballot(v & 1).
 * FEATURES vote.sync.all/any/uni/ballot.b32 (full and partial masks), activemask,
 *          %laneid, %lanemask_eq/lt/le/gt/ge, %warpid, %nwarpid, %clock, %clock64,
 *          %globaltimer, nanosleep, ld.global.nc.v4.u32, st.global.v4.u32.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 warp_vote.cu (and -arch=sm_75)
 */
#define FULL 0xffffffffu
#define SREG(name)                                                   \
	__device__ __forceinline__ unsigned name()                   \
	{                                                            \
		unsigned r;                                          \
		asm volatile("mov.u32 %0, %%" #name ";" : "=r"(r)); \
		return r;                                            \
	}
SREG(laneid)
SREG(lanemask_eq)
SREG(lanemask_lt)
SREG(lanemask_le)
SREG(lanemask_gt)
SREG(lanemask_ge)
SREG(warpid)
SREG(nwarpid)

__device__ __forceinline__ unsigned clock32()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%clock;" : "=r"(r));
	return r;
}

__device__ __forceinline__ unsigned long long globaltimer()
{
	unsigned long long r;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
	return r;
}

extern "C" __global__ void warp_vote(const uint4 *__restrict__ in, uint4 *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned l = laneid();
	unsigned long long c0 = clock64(), t0 = globaltimer();
	unsigned k0 = clock32();
	uint4 a = __ldg(&in[g]);
	unsigned v = a.x ^ a.y;
	out[g * 3] = make_uint4(a.w, a.z + 1u, a.y + 2u, a.x + 3u);
	unsigned bal = __ballot_sync(FULL, v & 1u);
	unsigned votes = (unsigned)__all_sync(FULL, v > 0x1000u) | (unsigned)__any_sync(FULL, v > 0xff000000u) << 1 |
	                 (unsigned)__uni_sync(FULL, (threadIdx.x & 31u) < 40u) << 2 |
	                 (unsigned)__uni_sync(FULL, v & 1u) << 3;
	unsigned am, bal2, vo2;
	if (l & 1u) {
		am = __activemask();
		bal2 = __ballot_sync(am, v & 2u);
		vo2 = (unsigned)__all_sync(am, a.x & 4u) | (unsigned)__any_sync(am, a.y & 8u) << 1;
	} else {
		am = __activemask();
		bal2 = __ballot_sync(am, v & 2u) ^ 0x80000000u;
		vo2 = (unsigned)__all_sync(am, a.x & 4u) << 2 | (unsigned)__any_sync(am, a.y & 8u) << 3;
	}
	unsigned bit = 1u << l;
	unsigned masks = l | (lanemask_eq() == bit) << 5 | (lanemask_lt() == bit - 1u) << 6 |
	                 (lanemask_le() == (bit | (bit - 1u))) << 7 | (lanemask_gt() == ~(bit | (bit - 1u))) << 8 |
	                 (lanemask_ge() == ~(bit - 1u)) << 9;
	__nanosleep(1000);
	unsigned long long c1 = clock64(), t1 = globaltimer();
	unsigned k1 = clock32();
	unsigned clocks = (c1 >= c0) | (t1 >= t0) << 1 | (k1 - k0 < 0x80000000u) << 2 | (warpid() < nwarpid()) << 3;
	out[g * 3 + 1] = make_uint4(bal, votes, am, bal2);
	out[g * 3 + 2] = make_uint4(vo2, masks, clocks, lanemask_lt() & bal);
}

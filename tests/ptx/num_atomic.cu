/*
 * num_atomic -- floating-point and wrapping atomics: atomicAdd on f32 (global and shared; a
 *               subnormal addend flushed, as PTX's atom.add.f32 does) and f64, atomicInc and
 *               atomicDec with wrap-around (global and shared).  Addends are multiples of a
 *               power of two small enough that every sum is exact, so the results do not
 *               depend on the order of the atomics; of the old values only order-independent
 *               sums are kept.
 *
 * ENTRY    num_atomic
 * GRID     2,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic (static: float sf[4], unsigned sc[2])
 * PARAMS
 *   0  xf    const f32*  256 elements  in   xf[i] = (lcg(seed=7101) % 64) * 0.25f; xf[5] = 2^-130
 *   1  xd    const f64*  256 elements  in   xd[i] = (lcg(seed=7102) % 1000) * 0.125
 *   2  sumf  f32*  12 elements  out  initialised to 0
 *   3  sumd  f64*  4 elements   out  initialised to 0
 *   4  ctr   u32*  8 elements   out  initialised to 0
 *   5  shout f32*  8 elements   out  initialised to 0
 * EXPECT   completes, bit-exact; num_atomic.ref.c prints sumf, sumd, ctr, shout.
 * BUILD    nvcc -ptx -arch=sm_90 -O3 num_atomic.cu (and -arch=sm_75)
 */
extern "C" __global__ void num_atomic(const float *__restrict__ xf, const double *__restrict__ xd, float *sumf,
                                      double *sumd, unsigned *ctr, float *shout)
{
    __shared__ float sf[4];
    __shared__ unsigned sc[2];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 4) sf[t] = 0.0f;
    if (t < 2) sc[t] = 0;
    __syncthreads();
    atomicAdd(&sumf[i & 7], xf[i]);
    float old = atomicAdd(&sf[t & 3], xf[i]);
    atomicAdd(&sumd[i & 3], xd[i]);
    unsigned o1 = atomicInc(&ctr[0], 99u);
    atomicDec(&ctr[1], 1000u);
    unsigned o2 = atomicInc(&sc[0], 9u);
    atomicDec(&sc[1], 5u);
    atomicAdd(&ctr[2], o1);
    atomicAdd(&ctr[3], o2);
    atomicAdd(&sumf[8 + (t & 3)], old >= 0.0f ? 1.0f : 2.0f);
    __syncthreads();
    if (t < 4) shout[blockIdx.x * 4 + t] = sf[t];
    if (t < 2) ctr[4 + blockIdx.x * 2 + t] = sc[t];
}

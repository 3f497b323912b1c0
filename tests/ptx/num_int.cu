/*
 * num_int -- integer arithmetic PTX needs num.isa for: division and remainder of every
 *            width and signedness, 64-bit mul.hi, 16-bit mul.wide/mul.hi, 128-bit add/sub
 *            (add.cc/addc/sub.cc/subc), funnel shifts (shf), 64-bit popc/clz/brev/bfind,
 *            and, through inline PTX, bfe/bfi, the prmt modes and add.sat/sub.sat.
 *
 * ENTRY    num_int
 * GRID     2,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic
 * PARAMS
 *   0  a    const u64*  256 elements  in   a[i] = lcg64(seed=1601) (see num_int.ref.c)
 *   1  b    const u64*  256 elements  in   b[i] = lcg64(seed=1602), every narrowing of it nonzero
 *   2  out  u64*        256*32        out  out[i*32 + k], k = 0..31 below; initialised to 0
 * EXPECT   completes, bit-exact; num_int.ref.c prints out (16 hex digits per element).
 * BUILD    nvcc -ptx -arch=sm_90 -O3 num_int.cu (and -arch=sm_75)
 */
typedef unsigned long long u64;
typedef long long s64;

__device__ __forceinline__ unsigned bfe_s32(unsigned a, unsigned p, unsigned l)
{
    unsigned d;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(p), "r"(l));
    return d;
}
__device__ __forceinline__ u64 bfe_u64(u64 a, unsigned p, unsigned l)
{
    u64 d;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(a), "r"(p), "r"(l));
    return d;
}
__device__ __forceinline__ unsigned bfi_b32(unsigned a, unsigned b, unsigned p, unsigned l)
{
    unsigned d;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(p), "r"(l));
    return d;
}
__device__ __forceinline__ unsigned prmt_f4e(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}
__device__ __forceinline__ unsigned prmt_ecl(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}
__device__ __forceinline__ unsigned prmt_rc16(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}
__device__ __forceinline__ int add_sat(int a, int b)
{
    int d;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
__device__ __forceinline__ int sub_sat(int a, int b)
{
    int d;
    asm("sub.sat.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

extern "C" __global__ void num_int(const u64 *__restrict__ a, const u64 *__restrict__ b, u64 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    u64 x = a[i], y = b[i];
    u64 *o = out + i * 32;
    unsigned xl = (unsigned)x, xh = (unsigned)(x >> 32), yl = (unsigned)y;
    o[0] = (u64)((s64)x / (s64)y);
    o[1] = (u64)((s64)x % (s64)y);
    o[2] = x / y;
    o[3] = x % y;
    o[4] = (u64)(unsigned)((int)xl / (int)yl);
    o[5] = xl % yl;
    o[6] = (u64)(unsigned)(int)((short)xl / (short)yl);
    o[7] = (unsigned char)xl % (unsigned char)yl;
    o[8] = __umul64hi(x, y);
    o[9] = (u64)__mul64hi((s64)x, (s64)y);
    unsigned __int128 p = ((unsigned __int128)x << 64) | y, q = ((unsigned __int128)y << 64) | x;
    unsigned __int128 s = p + q, d = p - q;
    o[10] = (u64)s;
    o[11] = (u64)(s >> 64);
    o[12] = (u64)d;
    o[13] = (u64)(d >> 64);
    o[14] = __funnelshift_l(xl, xh, yl) | (u64)__funnelshift_rc(xl, xh, yl & 63) << 32;
    o[15] = __funnelshift_lc(xl, xh, yl & 63) | (u64)__funnelshift_r(xl, xh, yl) << 32;
    o[16] = (u64)__popcll(x) | (u64)__clzll(x) << 8 | (u64)__ffsll((s64)y) << 16 | (u64)__clzll(x >> (yl & 63)) << 24;
    o[17] = __brevll(x);
    o[18] = bfe_s32(xl, yl & 63, (yl >> 8) & 63) | (u64)bfe_s32(xh, yl >> 16, yl >> 24) << 32;
    o[19] = bfe_u64(x, yl & 127, (yl >> 8) & 127);
    o[20] = bfi_b32(xl, xh, yl & 63, (yl >> 8) & 63) | (u64)bfi_b32(xh, yl, yl >> 16, yl >> 24) << 32;
    o[21] = prmt_f4e(xl, xh, yl) | (u64)prmt_ecl(xl, xh, yl >> 8) << 32;
    o[22] = prmt_rc16(xl, xh, yl >> 4) | (u64)__byte_perm(xl, xh, yl) << 32;
    o[23] = (unsigned)add_sat((int)xl, (int)yl) | (u64)(unsigned)sub_sat((int)xh, (int)yl) << 32;
    o[24] = __umulhi(xl, yl) | (u64)(unsigned)__mulhi((int)xh, (int)yl) << 32;
    o[25] = (unsigned)((int)(short)xl * (int)(short)yl) | (u64)((unsigned)(unsigned short)xh * (unsigned short)yl) << 32;
    o[26] = (u64)((s64)(int)xl * (int)yl);
    o[27] = (u64)llabs((s64)x) ^ (u64)min((s64)x, (s64)y) ^ ((u64)max(x, y) << 1);
    o[28] = (u64)((s64)x / 7) ^ ((x % 10) << 40);
    o[29] = (u64)(xl / 9u) | (u64)(unsigned)((int)xh % -5) << 32;
    o[30] = __brev(xl) | (u64)(unsigned)__clz((int)xh) << 32 | (u64)__popc(yl) << 40 | (u64)__ffs((int)yl) << 48;
    o[31] = (u64)(unsigned short)((unsigned short)xl / (unsigned short)(yl | 1u)) |
            (u64)(unsigned short)((short)xh % (short)(yl | 1u)) << 16;
}

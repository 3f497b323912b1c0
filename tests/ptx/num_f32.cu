/*
 * num_f32 -- binary32 arithmetic in every rounding mode (the __f*_r? intrinsics), correctly
 *            rounded division, reciprocal and square root, saturation, min/max, copysign,
 *            rounding to integral values, and conversions between f32 and the integers with
 *            every rounding mode; special values and subnormals among the inputs.
 *
 * ENTRY    num_f32
 * GRID     2,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic
 * PARAMS
 *   0  a    const u32*  256 elements  in   bit patterns of binary32 values (num_f32.ref.c)
 *   1  b    const u32*  256 elements  in
 *   2  c    const u32*  256 elements  in
 *   3  out  u32*        256*48        out  out[i*48 + k]; initialised to 0
 * EXPECT   completes, bit-exact; num_f32.ref.c prints out (8 hex digits per element).
 * BUILD    nvcc -ptx -arch=sm_90 -O3 num_f32.cu (and -arch=sm_75)
 */
extern "C" __global__ void num_f32(const unsigned *__restrict__ a, const unsigned *__restrict__ b,
                                   const unsigned *__restrict__ c, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]), z = __uint_as_float(c[i]);
    unsigned *o = out + i * 48;
    unsigned long long ll;
    o[0] = __float_as_uint(__fadd_rn(x, y));
    o[1] = __float_as_uint(__fadd_rz(x, y));
    o[2] = __float_as_uint(__fadd_rd(x, y));
    o[3] = __float_as_uint(__fadd_ru(x, y));
    o[4] = __float_as_uint(__fsub_rz(x, y));
    o[5] = __float_as_uint(__fmul_rz(x, y));
    o[6] = __float_as_uint(__fmul_rd(x, y));
    o[7] = __float_as_uint(__fmul_ru(x, y));
    o[8] = __float_as_uint(__fmaf_rn(x, y, z));
    o[9] = __float_as_uint(__fmaf_rz(x, y, z));
    o[10] = __float_as_uint(__fmaf_rd(x, y, z));
    o[11] = __float_as_uint(__fmaf_ru(x, y, z));
    o[12] = __float_as_uint(x / y);
    o[13] = __float_as_uint(__fdiv_rz(x, y));
    o[14] = __float_as_uint(__fdiv_rd(x, y));
    o[15] = __float_as_uint(__fdiv_ru(x, y));
    o[16] = __float_as_uint(1.0f / x);
    o[17] = __float_as_uint(__frcp_rz(x));
    o[18] = __float_as_uint(__frcp_rd(y));
    o[19] = __float_as_uint(__frcp_ru(y));
    o[20] = __float_as_uint(sqrtf(x));
    o[21] = __float_as_uint(__fsqrt_rz(fabsf(x)));
    o[22] = __float_as_uint(__fsqrt_rd(fabsf(y)));
    o[23] = __float_as_uint(__fsqrt_ru(fabsf(z)));
    o[24] = __float_as_uint(__saturatef(x));
    o[25] = __float_as_uint(fminf(x, y));
    o[26] = __float_as_uint(fmaxf(x, z));
    o[27] = __float_as_uint(copysignf(x, y));
    o[28] = __float_as_uint(floorf(x));
    o[29] = __float_as_uint(ceilf(y));
    o[30] = __float_as_uint(truncf(z));
    o[31] = __float_as_uint(rintf(x));
    o[32] = (unsigned)__float2int_rn(x);
    o[33] = (unsigned)__float2int_rz(y);
    o[34] = (unsigned)__float2int_rd(z);
    o[35] = (unsigned)__float2int_ru(x);
    o[36] = __float2uint_rd(y);
    o[37] = __float2uint_rn(z);
    ll = (unsigned long long)__float2ll_ru(x);
    o[38] = (unsigned)ll + 3u * (unsigned)(ll >> 32);
    ll = __float2ull_rz(y);
    o[39] = (unsigned)ll + 5u * (unsigned)(ll >> 32);
    o[40] = __float_as_uint(__int2float_rz((int)a[i]));
    o[41] = __float_as_uint(__int2float_rd((int)b[i]));
    o[42] = __float_as_uint(__uint2float_ru(c[i]));
    o[43] = __float_as_uint(__ll2float_rd((long long)((unsigned long long)a[i] << 32 | b[i])));
    o[44] = __float_as_uint(__ull2float_rz((unsigned long long)c[i] << 29 | a[i]));
    o[45] = (isnan(x) ? 1u : 0u) | (isinf(y) ? 2u : 0u) | (isfinite(z) ? 4u : 0u) | (signbit(x) ? 8u : 0u) |
            (x < y ? 16u : 0u) | (!(x >= z) ? 32u : 0u) | (x != y ? 64u : 0u) | (y == z ? 128u : 0u);
    o[46] = (unsigned)(short)__float2int_rz(x) ^ ((unsigned)(unsigned char)(unsigned)__float2uint_rz(z) << 16);
    o[47] = __float_as_uint(fabsf(x) + -y);
}

/*
 * num_f64 -- binary64 arithmetic in every rounding mode (the __d*_r? intrinsics, __fma_r?),
 *            correctly rounded division, reciprocal and square root, min/max, copysign,
 *            rounding to integral values, comparisons (ordered and unordered), and the
 *            conversions f64 <-> f32 and f64 <-> integers with every rounding mode.
 *
 * ENTRY    num_f64
 * GRID     2,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic
 * PARAMS
 *   0  a    const u64*  256 elements  in   bit patterns of finite binary64 values (num_f64.ref.c;
 *                                          b and c nonzero: no result is a NaN)
 *   1  b    const u64*  256 elements  in
 *   2  c    const u64*  256 elements  in
 *   3  out  u64*        256*40        out  out[i*40 + k]; initialised to 0
 * EXPECT   completes, bit-exact; num_f64.ref.c prints out (16 hex digits per element).
 * BUILD    nvcc -ptx -arch=sm_90 -O3 num_f64.cu (and -arch=sm_75)
 */
typedef unsigned long long u64;

extern "C" __global__ void num_f64(const u64 *__restrict__ a, const u64 *__restrict__ b,
                                   const u64 *__restrict__ c, u64 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double x = __longlong_as_double((long long)a[i]), y = __longlong_as_double((long long)b[i]);
    double z = __longlong_as_double((long long)c[i]);
    u64 *o = out + i * 40;
    o[0] = (u64)__double_as_longlong(__dadd_rn(x, y));
    o[1] = (u64)__double_as_longlong(__dadd_rz(x, y));
    o[2] = (u64)__double_as_longlong(__dadd_rd(x, y));
    o[3] = (u64)__double_as_longlong(__dadd_ru(x, y));
    o[4] = (u64)__double_as_longlong(__dsub_rd(x, z));
    o[5] = (u64)__double_as_longlong(__dmul_rz(x, y));
    o[6] = (u64)__double_as_longlong(__dmul_rd(x, y));
    o[7] = (u64)__double_as_longlong(__dmul_ru(x, y));
    o[8] = (u64)__double_as_longlong(__fma_rn(x, y, z));
    o[9] = (u64)__double_as_longlong(__fma_rz(x, y, z));
    o[10] = (u64)__double_as_longlong(__fma_rd(x, y, z));
    o[11] = (u64)__double_as_longlong(__fma_ru(x, y, z));
    o[12] = (u64)__double_as_longlong(x / y);
    o[13] = (u64)__double_as_longlong(__ddiv_rz(x, y));
    o[14] = (u64)__double_as_longlong(__ddiv_rd(x, z));
    o[15] = (u64)__double_as_longlong(__ddiv_ru(x, z));
    o[16] = (u64)__double_as_longlong(__drcp_rn(x));
    o[17] = (u64)__double_as_longlong(__drcp_rz(y));
    o[18] = (u64)__double_as_longlong(sqrt(fabs(x)));
    o[19] = (u64)__double_as_longlong(__dsqrt_rd(fabs(y)));
    o[20] = (u64)__double_as_longlong(__dsqrt_ru(fabs(z)));
    o[21] = (u64)__double_as_longlong(fmin(x, y));
    o[22] = (u64)__double_as_longlong(fmax(x, z));
    o[23] = (u64)__double_as_longlong(copysign(x, y));
    o[24] = (u64)__double_as_longlong(floor(x)) ^ (u64)__double_as_longlong(ceil(y)) << 1;
    o[25] = (u64)__double_as_longlong(trunc(z)) ^ (u64)__double_as_longlong(rint(x)) << 1;
    o[26] = __float_as_uint(__double2float_rn(x)) | (u64)__float_as_uint(__double2float_rz(y)) << 32;
    o[27] = __float_as_uint(__double2float_rd(z)) | (u64)__float_as_uint(__double2float_ru(x)) << 32;
    o[28] = (u64)__double_as_longlong((double)__uint_as_float((unsigned)a[i] & 0xbfffffffu));
    o[29] = (unsigned)__double2int_rn(x) | (u64)(unsigned)__double2int_rz(y) << 32;
    o[30] = (unsigned)__double2int_rd(z) | (u64)__double2uint_ru(x) << 32;
    o[31] = (u64)__double2ll_rz(y);
    o[32] = __double2ull_rd(z);
    o[33] = (u64)__double_as_longlong(__ll2double_rz((long long)a[i]));
    o[34] = (u64)__double_as_longlong(__ull2double_ru(b[i]));
    o[35] = (u64)__double_as_longlong(__ll2double_rd((long long)c[i]) + (double)(int)a[i] + (double)(unsigned)b[i]);
    o[36] = (isnan(x) ? 1u : 0u) | (isinf(y) ? 2u : 0u) | (isfinite(z) ? 4u : 0u) | (signbit(x) ? 8u : 0u) |
            (x < y ? 16u : 0u) | (!(x >= z) ? 32u : 0u) | (x != y ? 64u : 0u) | (y == z ? 128u : 0u) |
            (!(x <= y) ? 256u : 0u) | (!(y > z) ? 512u : 0u) | (!(x == z) ? 1024u : 0u);
    o[37] = (u64)__double_as_longlong(fabs(x) - y * 2.0);
    o[38] = (u64)__double_as_longlong(-x * z);
    o[39] = (u64)__double_as_longlong(x > y ? x : z);
}

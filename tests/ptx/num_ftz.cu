/*
 * num_ftz -- the .ftz forms nvcc emits with -ftz=true (flush-to-zero binary32: add, mul, fma,
 *            correctly rounded div and sqrt, min/max, comparisons, conversions, saturation),
 *            on inputs with many subnormals.
 *
 * ENTRY    num_ftz
 * GRID     2,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic
 * PARAMS
 *   0  a    const u32*  256 elements  in   bit patterns of binary32 values (num_ftz.ref.c)
 *   1  b    const u32*  256 elements  in
 *   2  out  u32*        256*16        out  out[i*16 + k]; initialised to 0
 * EXPECT   completes, bit-exact; num_ftz.ref.c prints out (8 hex digits per element).
 * BUILD    nvcc -ptx -arch=sm_90 -O3 -ftz=true num_ftz.cu (and -arch=sm_75)
 */
extern "C" __global__ void num_ftz(const unsigned *__restrict__ a, const unsigned *__restrict__ b, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]);
    unsigned *o = out + i * 16;
    o[0] = __float_as_uint(x + y);
    o[1] = __float_as_uint(x * y);
    o[2] = __float_as_uint(fmaf(x, y, x));
    o[3] = __float_as_uint(x / y);
    o[4] = __float_as_uint(sqrtf(fabsf(x)));
    o[5] = __float_as_uint(1.0f / y);
    o[6] = __float_as_uint(fminf(x, y));
    o[7] = __float_as_uint(fmaxf(x, y));
    o[8] = (x < y ? 1u : 0u) | (x == y ? 2u : 0u) | (x == 0.0f ? 4u : 0u) | (!(y >= 0.0f) ? 8u : 0u);
    o[9] = __float_as_uint(__saturatef(x * 4.0f));
    o[10] = (unsigned)__float2int_rd(x) ^ (unsigned)__float2int_ru(y) << 1;
    o[11] = __float_as_uint(floorf(x) + ceilf(y));
    o[12] = __float_as_uint(-x) ^ __float_as_uint(fabsf(y));
    o[13] = __float_as_uint(__fmul_rz(x, y));
    o[14] = __float_as_uint(__double2float_rn((double)x * (double)y));
    o[15] = __float_as_uint(x - y);
}

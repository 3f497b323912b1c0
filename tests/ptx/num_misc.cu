/*
 * num_misc -- the numeric PTX that nvcc emits only for some sources, written as inline PTX:
 *             32-bit carry chains (add.cc/addc.cc/addc, sub.cc/subc.cc/subc, and a chain that
 *             mixes them), testp of f32 and f64, set, saturating and narrowing cvt, bfind.s64
 *             and .shiftamt, 16-bit mul.hi/mad.wide, mad.hi.u64.
 *
 * ENTRY    num_misc
 * GRID     2,1,1
 * BLOCK    128,1,1
 * SHARED   0 bytes dynamic
 * PARAMS
 *   0  a    const u64*  256 elements  in   num_misc.ref.c: integers and binary64 bit patterns
 *   1  b    const u64*  256 elements  in
 *   2  out  u32*        256*24        out  out[i*24 + k]; initialised to 0
 * EXPECT   completes, bit-exact; num_misc.ref.c prints out (8 hex digits per element).
 * BUILD    nvcc -ptx -arch=sm_90 -O3 num_misc.cu (and -arch=sm_75)
 */
typedef unsigned long long u64;

extern "C" __global__ void num_misc(const u64 *__restrict__ a, const u64 *__restrict__ b, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    u64 x = a[i], y = b[i];
    unsigned xl = (unsigned)x, xh = (unsigned)(x >> 32), yl = (unsigned)y, yh = (unsigned)(y >> 32);
    unsigned *o = out + i * 24;
    unsigned r0, r1, r2, r3;
    /* 96-bit add and subtract: a chain of three words */
    asm("add.cc.u32 %0, %4, %5;\n\taddc.cc.u32 %1, %6, %7;\n\taddc.u32 %2, %4, %7;\n\tmov.u32 %3, 0;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(xl), "r"(yl), "r"(xh), "r"(yh));
    o[0] = r0; o[1] = r1; o[2] = r2;
    asm("sub.cc.u32 %0, %4, %5;\n\tsubc.cc.u32 %1, %6, %7;\n\tsubc.u32 %2, %4, %7;\n\tmov.u32 %3, 0;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(xl), "r"(yl), "r"(xh), "r"(yh));
    o[3] = r0; o[4] = r1; o[5] = r2;
    /* CC.CF across kinds: the borrow of sub.cc feeds addc, the carry of add.cc feeds subc */
    asm("sub.cc.u32 %0, %4, %5;\n\taddc.u32 %1, %6, %7;\n\tadd.cc.u32 %2, %4, %6;\n\tsubc.u32 %3, %5, %7;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(xl), "r"(yl), "r"(xh), "r"(yh));
    o[6] = r1; o[7] = r3;
    double dx = __longlong_as_double((long long)x), dy = __longlong_as_double((long long)y);
    float fx = __uint_as_float(xl), fy = __uint_as_float(yh);
    unsigned t32 = 0, t64 = 0, p;
    /* (registers of inline PTX named with % and once each: the front end flattens { } scopes) */
#define TP(kind, bit)                                                                                  \
    asm("{ .reg .pred %%qs" kind "; testp." kind ".f32 %%qs" kind ", %1; selp.u32 %0, 1, 0, %%qs" kind "; }" \
        : "=r"(p) : "f"(fx));                                                                          \
    t32 |= p << bit;                                                                                   \
    asm("{ .reg .pred %%qd" kind "; testp." kind ".f64 %%qd" kind ", %1; selp.u32 %0, 1, 0, %%qd" kind "; }" \
        : "=r"(p) : "d"(dx));                                                                          \
    t64 |= p << bit;
    TP("finite", 0) TP("infinite", 1) TP("number", 2) TP("notanumber", 3) TP("normal", 4) TP("subnormal", 5)
    o[8] = t32 | t64 << 8;
    asm("set.ltu.u32.f32 %0, %1, %2;" : "=r"(r0) : "f"(fx), "f"(fy));
    asm("set.ge.f32.f64 %0, %1, %2;" : "=r"(r1) : "d"(dx), "d"(dy));
    asm("{ .reg .pred %%qset; setp.ne.u32 %%qset, %2, 0; set.eq.and.s32.f32 %0, %1, %1, %%qset; }" : "=r"(r2) : "f"(fx), "r"(yl & 1));
    o[9] = r0; o[10] = r1; o[11] = r2;
    asm("cvt.sat.s8.s32 %0, %1;" : "=r"(r0) : "r"(xl));
    asm("cvt.sat.u16.s32 %0, %1;" : "=r"(r1) : "r"(yl));
    asm("cvt.sat.s32.u32 %0, %1;" : "=r"(r2) : "r"(xh));
    asm("{ .reg .b16 %%h1; cvt.rzi.sat.s16.f32 %%h1, %1; cvt.s32.s16 %0, %%h1; }" : "=r"(r3) : "f"(fx));
    o[12] = r0; o[13] = r1; o[14] = r2; o[15] = r3;
    asm("{ .reg .b16 %%h2; cvt.rni.u8.f64 %%h2, %1; cvt.u32.u16 %0, %%h2; }" : "=r"(r0) : "d"(dx));
    asm("bfind.s64 %0, %1;" : "=r"(r1) : "l"(x));
    asm("bfind.shiftamt.u64 %0, %1;" : "=r"(r2) : "l"(y));
    asm("clz.b64 %0, %1;" : "=r"(r3) : "l"(x & (y >> 8)));
    o[16] = r0; o[17] = r1; o[18] = r2; o[19] = r3;
    asm("{ .reg .b16 %%h3, %%g3, %%k3; cvt.u16.u32 %%h3, %1; cvt.u16.u32 %%g3, %2; mul.hi.s16 %%k3, %%h3, %%g3; "
        "cvt.s32.s16 %0, %%k3; }"
        : "=r"(r0) : "r"(xl), "r"(yl));
    asm("{ .reg .b16 %%h4, %%g4; cvt.u16.u32 %%h4, %1; cvt.u16.u32 %%g4, %2; mad.wide.u16 %0, %%h4, %%g4, %3; }"
        : "=r"(r1) : "r"(xh), "r"(yh), "r"(xl));
    asm("{ .reg .b64 %%m5; mad.hi.u64 %%m5, %2, %3, %4; mov.b64 {%0, %1}, %%m5; }"
        : "=r"(r2), "=r"(r3) : "l"(x), "l"(y), "l"(x ^ y));
    o[20] = r0; o[21] = r1; o[22] = r2; o[23] = r3;
}

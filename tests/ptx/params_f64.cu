/*
 * params_f64 -- .f64 kernel parameters beside .f32 and pointers: each
 *               thread computes fma(x, t, y) + z in double precision, and
 *               z / x (division, correctly rounded), from scalars passed by
 *               value.
 *
 * ENTRY    params_f64
 * GRID     1,1,1
 * BLOCK    64,1,1
 * PARAMS
 *   0  out  f64*  128 elements  out  initialised to 0; out[t], out[64 + t]
 *   1  x    f64   -2.75
 *   2  y    f32   0.1   (a float: 0x3dcccccd)
 *   3  z    f64   1e300
 * EXPECT   out[t] = fma(x, (double)t, (double)y) + z * 0x1p-1000, out[64 + t] = z / (x - t)
 */
extern "C" __global__ void params_f64(double *out, double x, float y, double z)
{
	int t = threadIdx.x;
	out[t] = fma(x, (double)t, (double)y) + z * 0x1p-1000;
	out[64 + t] = z / (x - t);
}

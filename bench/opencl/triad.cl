/* triad: a[i] = b[i] + s * c[i] (bench/kernels/triad.we) in OpenCL C. */
__kernel void triad(uint n, float s, __global float *a, __global const float *b,
		    __global const float *c)
{
	uint i = (uint)get_global_id(0);
	if (i < n)
		a[i] = fma(c[i], s, b[i]);
}

/* barrier: the barrier microbenchmark of bench/kernels/barrier.we in
 * OpenCL C: `iters` trips of 8 work-group barriers. */
__kernel void barrier_loop(uint iters, __global uint *out)
{
	uint j = 0;
	do {
		barrier(CLK_LOCAL_MEM_FENCE);
		barrier(CLK_LOCAL_MEM_FENCE);
		barrier(CLK_LOCAL_MEM_FENCE);
		barrier(CLK_LOCAL_MEM_FENCE);
		barrier(CLK_LOCAL_MEM_FENCE);
		barrier(CLK_LOCAL_MEM_FENCE);
		barrier(CLK_LOCAL_MEM_FENCE);
		barrier(CLK_LOCAL_MEM_FENCE);
	} while (++j < iters);
	out[get_global_id(0)] = j;
}

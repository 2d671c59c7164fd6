/* OpenCL kernels whose index expressions come from liblego:
 *   lego gen kernels.lego kernels.cl.tpl --target opencl -D M=.. -o kernels.cl
 * W.h (lego accessor kernels.lego W --target opencl) defines lego_isqrt,
 * which W's inverse needs, and W_at. */
#include "W.h"

/* c = a * b, one work-item per element of c. */
__kernel void matmul(__global const float *a, __global const float *b,
		     __global float *c)
{
	const long i = get_global_id(0), j = get_global_id(1);
	float acc = 0.0f;
	for (long k = 0; k < {{ K }}; k++) {
		acc += a[{{ A[i / BM, i % BM, k / BK, k % BK] }}] *
		       b[{{ B[k, j] }}];
	}
	c[{{ C[i / BM, i % BM, j / BK, j % BK] }}] = acc;
}

/* out = the transpose of in, stored swizzled. */
__kernel void transpose(__global const float *in, __global float *out)
{
	const long i = get_global_id(0), j = get_global_id(1);
	out[{{ Out[j, i] }}] = in[{{ In[i, j] }}];
}

/* buf = in (n x n, row-major) stored by anti-diagonals, twice: through the
 * generated expression and through the accessor. */
__kernel void antidiag_store(__global const int *in, __global int *buf,
			     __global int *buf_at)
{
	const long r = get_global_id(0), s = get_global_id(1);
	buf[{{ W[r, s] }}] = in[r * {{ n }} + s];
	buf_at[W_at(r, s)] = in[r * {{ n }} + s];
}

/* back = buf read back through the inverse (exact integer isqrt). */
__kernel void antidiag_load(__global const int *buf, __global int *back)
{
	const long x = get_global_id(0);
	back[{{ W.inv(x)[0] }} * {{ n }} + {{ W.inv(x)[1] }}] = buf[x];
}

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
	for (long k = 0; k < 16; k++) {
		acc += a[4 * (i % 8) + 32 * (k / 4) + 128 * ((k + 16 * i) / 128) + k % 4] *
		       b[k + 16 * j];
	}
	c[4 * (i % 8) + 32 * (j / 4) + 192 * ((j + 24 * i) / 192) + j % 4] = acc;
}

/* out = the transpose of in, stored swizzled. */
__kernel void transpose(__global const float *in, __global float *out)
{
	const long i = get_global_id(0), j = get_global_id(1);
	const long t0 = i + 32 * j;
	out[t0 ^ (7 & (t0 >> 3))] = in[j + 24 * i];
}

/* buf = in (n x n, row-major) stored by anti-diagonals, twice: through the
 * generated expression and through the accessor. */
__kernel void antidiag_store(__global const int *in, __global int *buf,
			     __global int *buf_at)
{
	const long r = get_global_id(0), s = get_global_id(1);
	const long t0 = r + s + 1;
	const long t1 = -r;
	const long t2 = -s;
	buf[(t0 <= 16 ? r + t0 * (r + s) / 2 : r - (((t1 + t2 + 30) * (t1 + t2 + 31)) / 2 - (((t1 + t2 + 30) * (t1 + t2 + 31)) % 2 < 0)) + 240)] = in[r * 16 + s];
	buf_at[W_at(r, s)] = in[r * 16 + s];
}

/* back = buf read back through the inverse (exact integer isqrt). */
__kernel void antidiag_load(__global const int *buf, __global int *back)
{
	const long x = get_global_id(0);
	const long t0 = x < 136;
	const long t1 = (t0 ? x : 255 - x);
	const long t2 = lego_isqrt(2 * t1);
	const long t3 = (t2 + 1) * t2 / 2 <= t1;
	const long t4 = (((t3 + t2 - 1) * (t3 + t2)) / 2 - (((t3 + t2 - 1) * (t3 + t2)) % 2 < 0));
	const long t5 = -t4;
	const long t6 = -t1;
	back[(t0 ? t5 + t1 : t6 + t4 + 15) * 16 + (t0 ? t6 + t4 + t3 + t2 - 1 : t5 + t1 - t3 - t2 + 16)] = buf[x];
}

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
		acc += a[4 * (i % 8) + 32 * (k / 4) + 128 * (i / 8) + k % 4] *
		       b[k + 16 * j];
	}
	c[4 * (i % 8) + 32 * (j / 4) + 192 * (i / 8) + j % 4] = acc;
}

/* out = the transpose of in, stored swizzled. */
__kernel void transpose(__global const float *in, __global float *out)
{
	const long i = get_global_id(0), j = get_global_id(1);
	const int t24_0 = i + 32 * j;
	out[t24_0 ^ (7 & (t24_0 >> 3))] = in[j + 24 * i];
}

/* buf = in (n x n, row-major) stored by anti-diagonals, twice: through the
 * generated expression and through the accessor. */
__kernel void antidiag_store(__global const int *in, __global int *buf,
			     __global int *buf_at)
{
	const long r = get_global_id(0), s = get_global_id(1);
	const int t33_0 = r + s;
	const int t33_1 = t33_0 + 1;
	const int t33_2 = -t33_0;
	buf[(t33_1 <= 16 ? r + t33_1 * t33_0 / 2 : r - (t33_2 + 30) * (t33_2 + 31) / 2 + 240)] = in[r * 16 + s];
	buf_at[W_at(r, s)] = in[r * 16 + s];
}

/* back = buf read back through the inverse (exact integer isqrt). */
__kernel void antidiag_load(__global const int *buf, __global int *back)
{
	const long x = get_global_id(0);
	const int t41_0 = x < 136;
	const int t41_1 = (t41_0 ? x : 255 - x);
	const int t41_2 = lego_isqrt(2 * t41_1);
	const int t41_3 = ((t41_2 + 1) * t41_2 / 2 <= t41_1) + t41_2;
	const int t41_4 = ((t41_3 - 1) * t41_3) >> 1;
	const int t41_5 = -t41_4;
	const int t41_6 = t41_5 + t41_1 - t41_3;
	back[(t41_0 ? t41_5 + t41_1 : t41_4 - t41_1 + 15) * 16 + (t41_0 ? -1 - t41_6 : t41_6 + 16)] = buf[x];
}

/* C = A * B for sizes the tiles need not divide:
 *   lego gen matmul_odd.lego matmul_odd.cl.tpl --target opencl -D M=.. -o matmul_odd.cl
 * One work-item per element of the padded C (global size
 * cdiv(M, BM) * BM x cdiv(N, BN) * BN); every load and store is guarded
 * by its layout's mask, so padding positions are never touched. */
__kernel void matmul_odd(__global const float *a, __global const float *b,
			 __global float *c)
{
	const long gi = get_global_id(0), gj = get_global_id(1);
	float acc = 0.0f;
	for (long kt = 0; kt < 8; kt++) {
		for (long kk = 0; kk < 4; kk++) {
			const int t13_0 = 4 * kt;
			const int t13_1 = kk + t13_0 < 29;
			const float x = (gi < 37 && t13_1) ? a[kk + t13_0 + 29 * gi] : 0.0f;
			const float y = (t13_1 && gj < 53) ? b[gj + 53 * kk + 212 * kt] : 0.0f;
			acc += x * y;
		}
	}
	if (gi < 37 && gj < 53)
		c[gj + 53 * gi] = acc;
}

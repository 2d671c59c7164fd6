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
	for (long kt = 0; kt < {{ cdiv(K, BK) }}; kt++) {
		for (long kk = 0; kk < {{ BK }}; kk++) {
			const float x = {{ mask(A[gi / BM, kt, gi % BM, kk]) }} ? a[{{ A[gi / BM, kt, gi % BM, kk] }}] : 0.0f;
			const float y = {{ mask(B[kt, gj / BN, kk, gj % BN]) }} ? b[{{ B[kt, gj / BN, kk, gj % BN] }}] : 0.0f;
			acc += x * y;
		}
	}
	if ({{ mask(C[gi / BM, gj / BN, gi % BM, gj % BN]) }})
		c[{{ C[gi / BM, gj / BN, gi % BM, gj % BN] }}] = acc;
}

/* The reference of sizes.cl.tpl: c = a b.  Given the sizes as macros
 * (--args 'm:int=M ..': -DM=.. stays), it reads no scalar, so the
 * candidates' scalars are checked against sizes that did not pass through
 * them; given them by name (--args 'M:int ..'), the runner leaves their
 * macros out and the parameters carry them. */
#ifdef M
#define SIZES int m, int n, int k
#else
#define SIZES int M, int N, int K
#endif
__kernel void matmul(__global const float *a, __global const float *b,
		     __global float *c, SIZES, long blocks)
{
	const long g = get_global_id(0), i = g / N, j = g % N;
	float acc = 0.0f;
	for (long k = 0; k < K; k++)
		acc += a[i * K + k] * b[k * N + j];
	c[i * N + j] = acc;
}

{% lego %}
# A matmul that takes its sizes as scalar arguments, as Lift's and MDH's
# kernels do (tests/tune/run.sh): M, N, K are ints, blocks (M / TM, the
# rows of work-items) a long.  A scalar passed wrong or not at all leaves
# c unwritten or wrong, and the runner's check says so.
sym M, N, K
tune TM in {1, 2, 4}
assume M % TM == 0
{% end %}
__kernel void matmul(__global const float *a, __global const float *b,
		     __global float *c, int M, int N, int K, long blocks)
{
	const long g = get_global_id(0);
	if (g >= blocks * N)
		return;
	const long rb = g / N, j = g % N;
	for (long t = 0; t < {{ TM }}; t++) {
		const long i = rb * {{ TM }} + t;
		float acc = 0.0f;
		for (long k = 0; k < K; k++)
			acc += a[i * K + k] * b[k * N + j];
		if (i < M)
			c[i * N + j] = acc;
	}
}

{% lego %}
# A small OpenCL matmul whose work-items compute TM rows of a column each,
# visited in the order of layout P (tests/tune/run.sh tunes it on PoCL).
sym M, N, K
tune TM in {1, 2}
tune layout P in {OrderBy(Row(M / TM, N)), OrderBy(Col(M / TM, N))}
assume M % TM == 0
# BUG 2 computes a wrong result, BUG 3 does not compile: the tuner must
# record both and go on.
tune BUG in 1..3
{% end %}
__kernel void matmul(__global const float *a, __global const float *b,
		     __global float *c)
{
	const long g = get_global_id(0);
	const long rb = {{ P.inv(g)[0] }}, j = {{ P.inv(g)[1] }};
	for (long t = 0; t < {{ TM }}; t++) {
		const long i = rb * {{ TM }} + t;
		float acc = 0.0f;
		for (long k = 0; k < {{ K }}; k++)
			acc += a[i * {{ K }} + k] * b[k * {{ N }} + j];
#if {{ BUG }} == 2
		acc += 1.0f;
#elif {{ BUG }} == 3
		this does not compile;
#endif
		c[i * {{ N }} + j] = acc;
	}
}

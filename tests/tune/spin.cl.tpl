{% lego %}
# Twice the input; SPIN = 2 first loops for about a second (the
# in-process runner's --timeout test in run.sh).
sym N
tune SPIN in {1, 2}
{% end %}
__kernel void twice(__global const float *a, __global float *b)
{
	const long i = get_global_id(0);
	float v = a[i];
	for (long t = 0; t < ({{ SPIN }} - 1) * 300000000L; t++)
		v = v * 0.5f + a[i] * 0.5f;
	b[i] = 2.0f * v;
}

{% lego %}
# The CUDA runner's test (tests/tune/cuda.sh, on a GPU): b = 2 a with
# BLOCK threads a block; BUG 2 computes a wrong result, BUG 3 does not
# compile, BUG 4 runs past the time limit.  Each is recorded and skipped.
sym N
tune BLOCK in {64, 256}
tune BUG in 1..4
{% end %}
extern "C" __global__ void twice(const float *a, float *b)
{
	const long i = (long)blockIdx.x * {{ BLOCK }} + threadIdx.x;
	if (i >= {{ N }})
		return;
	float v = a[i];
#if {{ BUG }} == 4
	for (long t = 0; t < 200000000L; t++)
		v = v * 0.5f + a[i] * 0.5f;
#endif
	b[i] = 2.0f * v + ({{ BUG }} == 2 ? 1.0f : 0.0f);
#if {{ BUG }} == 3
	this does not compile;
#endif
}

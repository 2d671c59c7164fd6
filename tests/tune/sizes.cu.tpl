{% lego %}
# The CUDA runner's scalar arguments (tests/tune/cuda.sh): b = s a over n
# elements, n (int) and s (long) passed by value; the reference is
# twice_ref.cu, so s must arrive as 2 and n as N.
sym N
tune BLOCK in {64, 256}
{% end %}
extern "C" __global__ void twice(const float *a, float *b, int n, long s)
{
	const long i = (long)blockIdx.x * {{ BLOCK }} + threadIdx.x;
	if (i < n)
		b[i] = (float)s * a[i];
}

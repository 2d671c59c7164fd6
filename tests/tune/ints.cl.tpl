{% lego %}
# Integer buffers, checked exactly (run.sh): b = a * 10^6 (W = 32, int)
# or a * 10^10 (W = 64, long).  BUG 2 is off by one where a = 1, which a
# relative tolerance of 1e-3 would pass; BUG 3 leaves b[0] unwritten.
# HOLE = 2 makes the reference leave b[0] unwritten too.
sym N
sym W
sym HOLE
tune BUG in 1..3
{% end %}
#if {{ W }} == 64
typedef long T;
#define SCALE 10000000000L
#else
typedef int T;
#define SCALE 1000000
#endif
__kernel void scale(__global const int *a, __global T *b)
{
	const long i = get_global_id(0);
	if ({{ BUG }} == 3 && i == 0)
		return;
	b[i] = (T)a[i] * SCALE + ({{ BUG }} == 2 && a[i] == 1);
}

/* The reference of ints.cl.tpl, with W and HOLE as macros: b = a * 10^6
 * (int) or a * 10^10 (long), b[0] left unwritten when HOLE = 2. */
#if W == 64
typedef long T;
#else
typedef int T;
#endif
__kernel void scale(__global const int *a, __global T *b)
{
	const long i = get_global_id(0);
	if (HOLE == 2 && i == 0)
		return;
	T s = 1;
	for (int d = 0; d < (W == 64 ? 10 : 6); d++)
		s *= 10;
	b[i] = a[i] * s;
}

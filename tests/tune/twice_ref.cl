/* The reference of spin.cl.tpl. */
__kernel void twice(__global const float *a, __global float *b)
{
	b[get_global_id(0)] = 2.0f * a[get_global_id(0)];
}

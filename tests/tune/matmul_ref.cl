/* The reference of run.sh's in-process runs: C = A * B, one work-item
 * per element, the sizes given as macros (-D M=.. by the runner). */
__kernel void matmul(__global const float *a, __global const float *b,
		     __global float *c)
{
	const long g = get_global_id(0);
	const long i = g / N, j = g % N;
	float acc = 0.0f;
	for (long k = 0; k < K; k++)
		acc += a[i * K + k] * b[k * N + j];
	c[i * N + j] = acc;
}

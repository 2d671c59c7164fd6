/* repro.c KERNEL.cl [BUILD_OPTIONS] - runs partial.cl (README.md) on the
 * first OpenCL device and compares its 12 partial sums with plain C.
 * Prints "ok" and exits 0 when all are right, else each wrong one, then
 * "WRONG", and exits 1. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>

enum { I = 3, K = 5, PARTS = 4 };

static int repro_read(const char *path, char *src, size_t cap)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	const size_t n = fread(src, 1, cap - 1, f);
	src[n] = 0;
	fclose(f);
	return n > 0;
}

/* Builds the kernel and runs it on 8 work-groups of 2; 0 on success. */
static int repro_run(const char *src, const char *opts, const float *M,
		     const float *v, float *out, size_t out_size)
{
	cl_platform_id p;
	cl_device_id d;
	cl_int e;
	if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL))
		return 1;
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
	cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
	cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
	if (clBuildProgram(pr, 1, &d, opts, NULL, NULL) != CL_SUCCESS)
		return 1;
	cl_kernel k = clCreateKernel(pr, "partial", &e);
	cl_mem bM = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * I * K, (void *)M, &e);
	cl_mem bv = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * K, (void *)v, &e);
	cl_mem bo = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_size, out, &e);
	clSetKernelArg(k, 0, sizeof bM, &bM);
	clSetKernelArg(k, 1, sizeof bv, &bv);
	clSetKernelArg(k, 2, sizeof bo, &bo);
	const size_t global = 16, local = 2;
	e = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = clEnqueueReadBuffer(q, bo, CL_TRUE, 0, out_size, out, 0, NULL, NULL);
	clReleaseMemObject(bM);
	clReleaseMemObject(bv);
	clReleaseMemObject(bo);
	clReleaseKernel(k);
	clReleaseProgram(pr);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
	return e != CL_SUCCESS;
}

int main(int argc, char **argv)
{
	static char src[1 << 16];
	if (argc < 2 || !repro_read(argv[1], src, sizeof src)) {
		fprintf(stderr, "usage: repro KERNEL.cl [BUILD_OPTIONS]\n");
		return 2;
	}
	float M[I * K], v[K], out[I * PARTS], want[I * PARTS];
	for (int e = 0; e < I * K; e++)
		M[e] = (float)(e % 7) - 2.5f;
	for (int k = 0; k < K; k++)
		v[k] = (float)k + 0.5f;
	for (int e = 0; e < I * PARTS; e++)
		out[e] = -99.0f;
	for (int gk = 0; gk < PARTS; gk++)
		for (int i = 0; i < I; i++) {
			float a = 0.0f;
			for (int k = gk; k < K; k += PARTS)
				a += M[K * i + k] * v[k];
			want[i + I * gk] = a;
		}
	if (repro_run(src, argc > 2 ? argv[2] : "", M, v, out, sizeof out)) {
		fprintf(stderr, "repro: OpenCL failed\n");
		return 2;
	}
	int bad = 0;
	for (int e = 0; e < I * PARTS; e++)
		if (fabsf(out[e] - want[e]) > 1e-4f) {
			printf("out[%d] = %g, want %g\n", e, out[e], want[e]);
			bad = 1;
		}
	puts(bad ? "WRONG" : "ok");
	return bad;
}

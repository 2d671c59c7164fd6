/* cuda_shim.h - the helpers of examples/opencl/ocl.h that check.c uses,
 * over the CUDA runtime, so that one harness checks the kernels of both
 * targets (built by nvcc with -DCUDA). */
#ifndef LIFT_CUDA_SHIM_H
#define LIFT_CUDA_SHIM_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			if (failures++ < 10) {                             \
				printf("FAIL: ");                          \
				printf(__VA_ARGS__);                       \
				printf("\n");                              \
			}                                                  \
		}                                                          \
	} while (0)

typedef float *cl_mem;
typedef struct cl {
	int q;
} cl;

static void die_cl(cudaError_t err, const char *what)
{
	if (err != cudaSuccess) {
		fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
		exit(2);
	}
}

static cl setup(const char *dir, const char *file)
{
	(void)dir;
	(void)file;
	cl c = {0};
	return c;
}

static cl_mem buffer(cl *c, size_t bytes, const void *init)
{
	float *p = NULL;
	(void)c;
	die_cl(cudaMalloc((void **)&p, bytes ? bytes : 1), "cudaMalloc");
	die_cl(init ? cudaMemcpy(p, init, bytes, cudaMemcpyHostToDevice)
		    : cudaMemset(p, 0, bytes), "upload");
	return p;
}

static void read_back(cl *c, cl_mem m, size_t bytes, void *out)
{
	(void)c;
	die_cl(cudaMemcpy(out, m, bytes, cudaMemcpyDeviceToHost), "read back");
}

#define clFinish(q) cudaDeviceSynchronize()

/* OpenCL's NDRange (global, local) as CUDA's grid x block. */
static dim3 block_of(const size_t *l)
{
	return l ? dim3((unsigned)l[0], (unsigned)l[1]) : dim3(1, 1);
}

static dim3 grid_of(const size_t *g, const size_t *l)
{
	return l ? dim3((unsigned)(g[0] / l[0]), (unsigned)(g[1] / l[1]))
		 : dim3((unsigned)g[0], (unsigned)g[1]);
}

#endif

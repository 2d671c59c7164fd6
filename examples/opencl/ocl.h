/* ocl.h - the OpenCL host helpers of the examples' test programs (host.c,
 * matmul_odd.c): build a program from a kernel file, buffers, run a kernel
 * over a 1-D or 2-D range, read back; CHECK counts failures. */
#ifndef OCL_H
#define OCL_H
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "FAIL: " __VA_ARGS__);             \
			fputc('\n', stderr);                               \
			failures++;                                        \
		}                                                          \
	} while (0)

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		exit(2);
	s[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return s;
}

typedef struct cl {
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
} cl;

static void die_cl(cl_int err, const char *what)
{
	if (err != CL_SUCCESS) {
		fprintf(stderr, "OpenCL error %d: %s\n", (int)err, what);
		exit(2);
	}
}

/* Builds dir/file, with -I dir (its includes). */
static cl setup(const char *dir, const char *file)
{
	cl c;
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	die_cl(clGetPlatformIDs(1, &plat, NULL), "platform");
	die_cl(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL),
	       "device");
	c.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	die_cl(err, "context");
	c.q = clCreateCommandQueue(c.ctx, dev, 0, &err);
	die_cl(err, "queue");
	char path[4096], opts[4200];
	size_t len;
	snprintf(path, sizeof path, "%s/%s", dir, file);
	char *src = slurp(path, &len);
	c.prog = clCreateProgramWithSource(c.ctx, 1, (const char **)&src,
					   &len, &err);
	die_cl(err, "program");
	snprintf(opts, sizeof opts, "-I %s", dir);
	if (clBuildProgram(c.prog, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
		char log[16384];
		clGetProgramBuildInfo(c.prog, dev, CL_PROGRAM_BUILD_LOG,
				      sizeof log, log, NULL);
		fprintf(stderr, "build failed:\n%s\n", log);
		exit(2);
	}
	free(src);
	return c;
}

static cl_mem buffer(cl *c, size_t bytes, const void *init)
{
	cl_int err;
	cl_mem m = clCreateBuffer(c->ctx,
				  CL_MEM_READ_WRITE |
					  (init ? CL_MEM_COPY_HOST_PTR : 0),
				  bytes, (void *)init, &err);
	die_cl(err, "buffer");
	return m;
}

/* Runs kernel name over a 1-D or 2-D range with the buffers as args. */
static void run(cl *c, const char *name, size_t g0, size_t g1, int nargs,
		cl_mem *args)
{
	cl_int err;
	cl_kernel k = clCreateKernel(c->prog, name, &err);
	die_cl(err, name);
	for (int i = 0; i < nargs; i++)
		die_cl(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]),
		       "arg");
	size_t g[2] = {g0, g1};
	die_cl(clEnqueueNDRangeKernel(c->q, k, g1 ? 2 : 1, NULL, g, NULL, 0,
				      NULL, NULL),
	       name);
	die_cl(clFinish(c->q), name);
	clReleaseKernel(k);
}

static void read_back(cl *c, cl_mem m, size_t bytes, void *out)
{
	die_cl(clEnqueueReadBuffer(c->q, m, CL_TRUE, 0, bytes, out, 0, NULL,
				   NULL),
	       "read");
}

#endif

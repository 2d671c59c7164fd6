/* c_shim.h - an OpenCL kernel from `lego lift` compiled as plain C and run
 * as one work-item of one work-group (every id 0, every size 1: the
 * strided loops then cover all the work in order, and barriers have
 * nothing to wait for), with the helpers of examples/opencl/ocl.h that
 * check.c uses.  Cheap enough to run many rewritten programs. */
#ifndef LIFT_C_SHIM_H
#define LIFT_C_SHIM_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond) && failures++ < 10) {                          \
			printf("FAIL: ");                                  \
			printf(__VA_ARGS__);                               \
			printf("\n");                                      \
		}                                                          \
	} while (0)

/* The kernel's OpenCL words. */
#define __kernel
#define __global
#define __local
#define CLK_LOCAL_MEM_FENCE 0
#define barrier(fence) ((void)(fence))
static int get_global_id(int d) { (void)d; return 0; }
static int get_global_size(int d) { (void)d; return 1; }
static int get_group_id(int d) { (void)d; return 0; }
static int get_num_groups(int d) { (void)d; return 1; }
static int get_local_id(int d) { (void)d; return 0; }
static int get_local_size(int d) { (void)d; return 1; }

/* OpenCL's vector types as structs of their components (.s0, ..), read
 * and written through pointers as the kernels' aligned vector accesses
 * do; a literal (float4)(a, b, ..) is rewritten make_float4(a, b, ..) by
 * run.sh before the kernel is compiled as C. */
#define LIFT_VECTORS(T)                                                    \
	typedef struct { T s0, s1; } T##2;                                 \
	typedef struct { T s0, s1, s2, s3; } T##4;                         \
	typedef struct { T s0, s1, s2, s3, s4, s5, s6, s7; } T##8;         \
	typedef struct {                                                   \
		T s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, sa, sb, sc, sd,  \
			se, sf;                                            \
	} T##16;
LIFT_VECTORS(float)
LIFT_VECTORS(int)
#define make_float2(...) ((float2){__VA_ARGS__})
#define make_float4(...) ((float4){__VA_ARGS__})
#define make_float8(...) ((float8){__VA_ARGS__})
#define make_float16(...) ((float16){__VA_ARGS__})
#define make_int2(...) ((int2){__VA_ARGS__})
#define make_int4(...) ((int4){__VA_ARGS__})
#define make_int8(...) ((int8){__VA_ARGS__})
#define make_int16(...) ((int16){__VA_ARGS__})

/* The host header's OpenCL words (its launcher is not used). */
typedef int cl_int;
typedef unsigned cl_uint;
typedef float cl_float;
typedef void *cl_command_queue;
typedef void *cl_kernel;
typedef float *cl_mem;
#define clSetKernelArg(k, i, n, p) ((void)(k), (void)(i), (void)(n), (void)(p), 0)
#define clEnqueueNDRangeKernel(q, k, d, o, g, l, n, e, ev)                  \
	((void)(q), (void)(k), (void)(g), (void)(l), 0)

typedef struct cl {
	int q;
} cl;

static void die_cl(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "%s: error %d\n", what, err);
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
	(void)c;
	float *p = (float *)calloc(bytes ? bytes : 1, 1);
	if (!p)
		exit(2);
	if (init)
		memcpy(p, init, bytes);
	return p;
}

static void read_back(cl *c, cl_mem m, size_t bytes, void *out)
{
	(void)c;
	memcpy(out, m, bytes);
}

#define clFinish(q) 0

#endif

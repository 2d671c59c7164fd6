/* runner_ocl.c - the OpenCL runner: kernels built in parallel (prepare),
 * checked against the reference kernel's outputs and timed with
 * profiling events, in this process.  libOpenCL (the ICD loader) is
 * opened with dlopen on first use, like Z3 (src/smt/z3load.c), so that
 * nothing links it; its few types and constants are declared here, so
 * that no OpenCL header is needed to build. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tune/launch.h"

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong, cl_bitfield;
typedef void *cl_obj; /* every handle is a pointer to an opaque struct */

enum {
	CL_SUCCESS = 0,
	CL_COMPLETE = 0,
	CL_DEVICE_NAME = 0x102B,
	CL_DRIVER_VERSION = 0x102D,
	CL_PLATFORM_NAME = 0x0902,
	CL_PROGRAM_BUILD_LOG = 0x1183,
	CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3,
	CL_PROFILING_COMMAND_START = 0x1282,
	CL_PROFILING_COMMAND_END = 0x1283
};
#define CL_DEVICE_TYPE_ALL 0xFFFFFFFFull
#define CL_MEM_READ_WRITE 1ull
#define CL_QUEUE_PROFILING_ENABLE 2ull

#define OCL_API(X)                                                          \
	X(cl_int, clGetPlatformIDs, (cl_uint, cl_obj *, cl_uint *))         \
	X(cl_int, clGetPlatformInfo, (cl_obj, cl_uint, size_t, void *,      \
				      size_t *))                            \
	X(cl_int, clGetDeviceIDs, (cl_obj, cl_bitfield, cl_uint, cl_obj *,  \
				   cl_uint *))                              \
	X(cl_int, clGetDeviceInfo, (cl_obj, cl_uint, size_t, void *,        \
				    size_t *))                              \
	X(cl_obj, clCreateContext, (const intptr_t *, cl_uint,              \
				    const cl_obj *, void *, void *,         \
				    cl_int *))                              \
	X(cl_obj, clCreateCommandQueue, (cl_obj, cl_obj, cl_bitfield,       \
					 cl_int *))                         \
	X(cl_obj, clCreateProgramWithSource, (cl_obj, cl_uint,              \
					      const char **,                \
					      const size_t *, cl_int *))    \
	X(cl_int, clBuildProgram, (cl_obj, cl_uint, const cl_obj *,         \
				   const char *, void *, void *))           \
	X(cl_int, clGetProgramBuildInfo, (cl_obj, cl_obj, cl_uint, size_t,  \
					  void *, size_t *))                \
	X(cl_obj, clCreateKernel, (cl_obj, const char *, cl_int *))         \
	X(cl_int, clSetKernelArg, (cl_obj, cl_uint, size_t, const void *))  \
	X(cl_obj, clCreateBuffer, (cl_obj, cl_bitfield, size_t, void *,     \
				   cl_int *))                               \
	X(cl_int, clEnqueueWriteBuffer, (cl_obj, cl_obj, cl_uint, size_t,   \
					 size_t, const void *, cl_uint,     \
					 const cl_obj *, cl_obj *))         \
	X(cl_int, clEnqueueReadBuffer, (cl_obj, cl_obj, cl_uint, size_t,    \
					size_t, void *, cl_uint,            \
					const cl_obj *, cl_obj *))          \
	X(cl_int, clEnqueueNDRangeKernel, (cl_obj, cl_obj, cl_uint,         \
					   const size_t *, const size_t *,  \
					   const size_t *, cl_uint,         \
					   const cl_obj *, cl_obj *))       \
	X(cl_int, clFlush, (cl_obj))                                        \
	X(cl_int, clFinish, (cl_obj))                                       \
	X(cl_int, clGetEventInfo, (cl_obj, cl_uint, size_t, void *,         \
				   size_t *))                               \
	X(cl_int, clGetEventProfilingInfo, (cl_obj, cl_uint, size_t,        \
					    void *, size_t *))              \
	X(cl_int, clReleaseEvent, (cl_obj))                                 \
	X(cl_int, clReleaseKernel, (cl_obj))                                \
	X(cl_int, clReleaseProgram, (cl_obj))                               \
	X(cl_int, clReleaseMemObject, (cl_obj))                             \
	X(cl_int, clReleaseCommandQueue, (cl_obj))                          \
	X(cl_int, clReleaseContext, (cl_obj))

#define OCL_FIELD(ret, name, params) ret(*name) params;
typedef struct ocl_api {
	OCL_API(OCL_FIELD)
} ocl_api;
#undef OCL_FIELD

/* Process-wide, like the dynamic linker's tables: written once under
 * pthread_once before anything reads it. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static ocl_api cl;
static int load_failed;
static char load_why[512];

static void load(void)
{
	const char *file = getenv("LEGO_OPENCL_LIB");
	void *lib = dlopen(file && *file ? file : "libOpenCL.so.1",
			   RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		load_failed = 1;
		snprintf(load_why, sizeof load_why, "OpenCL is not installed: "
			 "%s (on Debian: apt-get install ocl-icd-libopencl1 "
			 "pocl-opencl-icd)", dlerror());
		return;
	}
#define OCL_RESOLVE(ret, name, params)                                  \
	if (!load_failed && !(*(void **)&cl.name = dlsym(lib, #name))) { \
		load_failed = 1;                                         \
		snprintf(load_why, sizeof load_why, "libOpenCL has no %s", \
			 #name);                                         \
	}
	OCL_API(OCL_RESOLVE)
#undef OCL_RESOLVE
}

typedef struct ocl_runner {
	tune_device d;             /* first: the runner */
	cl_obj dev, ctx, queue;
} ocl_runner;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first line of a build log that says "error", else its last;
 * without the compiler's count of errors. */
static void log_line(const char *log, char *why, size_t cap)
{
	size_t len = strlen(log);
	while (len && (log[len - 1] == '\n' || log[len - 1] == ' '))
		len--;
	const char *line = strstr(log, "error"), *end;
	if (!line)
		line = log + len;
	while (line > log && line[-1] != '\n')
		line--;
	end = line + strcspn(line, "\n");
	const char *count = strstr(line, " error generated");
	while (count && count < end && count > line && count[-1] >= '0' &&
	       count[-1] <= '9')
		end = --count;
	/* the compiler's temporary file (PoCL: a path in its cache that
	 * differs each time) is the kernel */
	const char *file = strstr(line, ".cl:"), *path = file;
	while (path && path > line && path[-1] != ' ')
		path--;
	if (file && file < end)
		snprintf(why, cap, "does not compile: %.*skernel%.*s",
			 (int)(path - line), line, (int)(end - file), file);
	else
		snprintf(why, cap, "does not compile: %.*s", (int)(end - line),
			 line);
}

static void *ocl_build(void *dev, const char *source, const char *options,
		       char *why, size_t cap)
{
	ocl_runner *r = dev;
	cl_int err;
	size_t len = strlen(source);
	cl_obj prog = cl.clCreateProgramWithSource(r->ctx, 1, &source, &len,
						   &err);
	if (!prog) {
		snprintf(why, cap, "clCreateProgramWithSource: error %d",
			 (int)err);
		return NULL;
	}
	if (cl.clBuildProgram(prog, 1, &r->dev, options, NULL, NULL) ==
	    CL_SUCCESS)
		return prog;
	size_t n = 0;
	cl.clGetProgramBuildInfo(prog, r->dev, CL_PROGRAM_BUILD_LOG, 0, NULL,
				 &n);
	char *log = malloc(n + 1);
	if (log && cl.clGetProgramBuildInfo(prog, r->dev, CL_PROGRAM_BUILD_LOG,
					    n, log, NULL) == CL_SUCCESS) {
		log[n] = '\0';
		log_line(log, why, cap);
	} else {
		snprintf(why, cap, "does not compile");
	}
	free(log);
	cl.clReleaseProgram(prog);
	return NULL;
}

static void ocl_release(void *dev, void *prog)
{
	cl.clReleaseProgram(prog);
}

static void *ocl_alloc(void *dev, size_t bytes)
{
	cl_int err;
	return cl.clCreateBuffer(((ocl_runner *)dev)->ctx, CL_MEM_READ_WRITE,
				 bytes, NULL, &err);
}

static void ocl_free_buf(void *dev, void *buf)
{
	cl.clReleaseMemObject(buf);
}

static int ocl_write(void *dev, void *buf, const void *src, size_t bytes)
{
	return cl.clEnqueueWriteBuffer(((ocl_runner *)dev)->queue, buf, 1, 0,
				       bytes, src, 0, NULL, NULL) ? -1 : 0;
}

static int ocl_read(void *dev, void *buf, void *dst, size_t bytes)
{
	return cl.clEnqueueReadBuffer(((ocl_runner *)dev)->queue, buf, 1, 0,
				      bytes, dst, 0, NULL, NULL) ? -1 : 0;
}

/* Waits for ev within limit seconds; past it, waits ten times longer and
 * 5 s for the device to be free again, else gives it up. */
static int wait_event(ocl_runner *r, cl_obj ev, double limit, char *why,
		      size_t cap)
{
	double t0 = now();
	cl_int st = 1;
	cl.clFlush(r->queue);
	for (;;) {
		if (cl.clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
				      sizeof st, &st, NULL) != CL_SUCCESS)
			st = -1;
		if (st <= CL_COMPLETE)
			break;
		if (now() - t0 > limit * 11 + 5) {
			r->d.stuck = 1;
			break;
		}
		nanosleep(&(struct timespec){0, 200000}, NULL);
	}
	if (now() - t0 > limit) {
		snprintf(why, cap, "timed out after %g s", limit);
		return -1;
	}
	if (st < 0) {
		snprintf(why, cap, "the launch failed (error %d)", (int)st);
		return -1;
	}
	return 0;
}

static int ocl_launch(void *dev, void *prog, void *const *bufs,
		      const tune_shape *s, double limit, double *ms, char *why,
		      size_t cap)
{
	ocl_runner *r = dev;
	cl_int err;
	cl_obj k = cl.clCreateKernel(prog, r->d.l->kernel, &err), ev = NULL;
	if (!k) {
		snprintf(why, cap, "no kernel '%s' (error %d)", r->d.l->kernel,
			 (int)err);
		return -1;
	}
	for (size_t a = 0; a < s->nargs && !err; a++) {
		size_t bytes = sizeof bufs[a];
		const void *v = tune_shape_scalar(s, a, &bytes);
		err = cl.clSetKernelArg(k, (cl_uint)a, bytes, v ? v : &bufs[a]);
	}
	if (!err)
		err = cl.clEnqueueNDRangeKernel(r->queue, k, s->dims, NULL,
						s->global,
						s->local[0] ? s->local : NULL,
						0, NULL, &ev);
	int rc = err ? -1 : wait_event(r, ev, limit, why, cap);
	if (err)
		snprintf(why, cap, "cannot launch '%s' (error %d)",
			 r->d.l->kernel, (int)err);
	cl_ulong t0 = 0, t1 = 0;
	if (!rc && (cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
					       sizeof t0, &t0, NULL) ||
		    cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
					       sizeof t1, &t1, NULL))) {
		snprintf(why, cap, "no profiling information");
		rc = -1;
	}
	if (ev)
		cl.clReleaseEvent(ev);
	cl.clReleaseKernel(k);
	*ms = 1e-6 * (double)(t1 - t0);
	return rc;
}

static const tune_dev_ops ocl_ops = {ocl_build, ocl_release, ocl_alloc,
				     ocl_free_buf, ocl_write, ocl_read,
				     ocl_launch};

static void ocl_free(lego_tune_runner *base)
{
	ocl_runner *r = (ocl_runner *)base;
	tune_device_fini(&r->d);
	/* A queue still running a candidate that never ended is left to
	 * the process's exit: releasing it would wait for ever. */
	if (r->queue && !r->d.stuck)
		cl.clReleaseCommandQueue(r->queue);
	if (r->ctx && !r->d.stuck)
		cl.clReleaseContext(r->ctx);
	free(r);
}

/* The device-th device of all platforms, in order. */
static int pick_device(ocl_runner *r, int device, char *err, size_t cap)
{
	cl_obj plats[16], devs[64];
	cl_uint np = 0;
	int seen = 0;
	if (cl.clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
		np = 0;
	for (cl_uint p = 0; p < np && p < 16; p++) {
		cl_uint nd = 0;
		if (cl.clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs,
				      &nd) != CL_SUCCESS)
			continue;
		for (cl_uint d = 0; d < nd && d < 64; d++, seen++) {
			if (seen != device)
				continue;
			char plat[128] = "", ver[128] = "";
			char name[200] = "";
			r->dev = devs[d];
			cl.clGetDeviceInfo(r->dev, CL_DEVICE_NAME,
					   sizeof name - 1, name, NULL);
			cl.clGetPlatformInfo(plats[p], CL_PLATFORM_NAME,
					     sizeof plat - 1, plat, NULL);
			cl.clGetDeviceInfo(r->dev, CL_DRIVER_VERSION,
					   sizeof ver - 1, ver, NULL);
			snprintf(r->d.device, sizeof r->d.device, "opencl:%s",
				 name);
			snprintf(r->d.driver, sizeof r->d.driver, "%s %s",
				 plat, ver);
			return 0;
		}
	}
	snprintf(err, cap, "no OpenCL device %d (%d found)", device, seen);
	return -1;
}

lego_tune_runner *lego_tune_runner_opencl(const lego_tune_launch *l,
					  int device, char *err, size_t cap)
{
	pthread_once(&once, load);
	if (load_failed) {
		snprintf(err, cap, "%s", load_why);
		return NULL;
	}
	ocl_runner *r = (ocl_runner *)tune_device_new(
		sizeof *r, "OpenCL", &ocl_ops, l, ocl_free, err, cap);
	if (!r)
		return NULL;
	cl_int e = 0;
	if (pick_device(r, device, err, cap)) {
	} else if (!(r->ctx = cl.clCreateContext(NULL, 1, &r->dev, NULL, NULL,
						 &e)) ||
		   !(r->queue = cl.clCreateCommandQueue(
			     r->ctx, r->dev, CL_QUEUE_PROFILING_ENABLE, &e))) {
		snprintf(err, cap, "cannot open OpenCL device %d (error %d)",
			 device, (int)e);
	} else {
		tune_device_sign(&r->d);
		return &r->d.base;
	}
	ocl_free(&r->d.base);
	return NULL;
}

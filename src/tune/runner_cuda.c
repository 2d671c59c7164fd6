/* runner_cuda.c - the CUDA runner: kernels compiled by NVRTC in parallel
 * (prepare) for the device's architecture, loaded with the driver API,
 * checked against the reference kernel's outputs and timed with events,
 * the L2 cache flushed before each launch.  libcuda and libnvrtc are
 * opened with dlopen on first use, like Z3 (src/smt/z3load.c): the
 * library builds and links where no CUDA is installed, and the few types
 * and constants it needs are declared here. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tune/launch.h"

typedef int CUresult, CUdevice, nvrtcResult;
typedef unsigned long long CUdeviceptr;
typedef void *cu_obj; /* contexts, modules, functions, events, streams,
			 NVRTC programs: pointers to opaque structs */

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_NOT_READY = 600,
	CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
};

#define CU_API(X)                                                          \
	X(CUresult, cuInit, (unsigned))                                    \
	X(CUresult, cuDriverGetVersion, (int *))                           \
	X(CUresult, cuDeviceGet, (CUdevice *, int))                        \
	X(CUresult, cuDeviceGetName, (char *, int, CUdevice))              \
	X(CUresult, cuDeviceGetAttribute, (int *, int, CUdevice))          \
	X(CUresult, cuDevicePrimaryCtxRetain, (cu_obj *, CUdevice))        \
	X(CUresult, cuDevicePrimaryCtxRelease_v2, (CUdevice))              \
	X(CUresult, cuCtxSetCurrent, (cu_obj))                             \
	X(CUresult, cuModuleLoadData, (cu_obj *, const void *))            \
	X(CUresult, cuModuleGetFunction, (cu_obj *, cu_obj, const char *)) \
	X(CUresult, cuModuleUnload, (cu_obj))                              \
	X(CUresult, cuMemAlloc_v2, (CUdeviceptr *, size_t))                \
	X(CUresult, cuMemFree_v2, (CUdeviceptr))                           \
	X(CUresult, cuMemcpyHtoD_v2, (CUdeviceptr, const void *, size_t))  \
	X(CUresult, cuMemcpyDtoH_v2, (void *, CUdeviceptr, size_t))        \
	X(CUresult, cuMemsetD8Async, (CUdeviceptr, unsigned char, size_t,  \
				      cu_obj))                             \
	X(CUresult, cuLaunchKernel, (cu_obj, unsigned, unsigned, unsigned, \
				     unsigned, unsigned, unsigned,         \
				     unsigned, cu_obj, void **, void **))  \
	X(CUresult, cuEventCreate, (cu_obj *, unsigned))                   \
	X(CUresult, cuEventRecord, (cu_obj, cu_obj))                       \
	X(CUresult, cuEventQuery, (cu_obj))                                \
	X(CUresult, cuEventElapsedTime, (float *, cu_obj, cu_obj))         \
	X(CUresult, cuEventDestroy_v2, (cu_obj))                           \
	X(CUresult, cuCtxSynchronize, (void))                              \
	X(CUresult, cuGetErrorString, (CUresult, const char **))

#define NVRTC_API(X)                                                       \
	X(nvrtcResult, nvrtcVersion, (int *, int *))                       \
	X(nvrtcResult, nvrtcCreateProgram, (cu_obj *, const char *,        \
					    const char *, int,             \
					    const char *const *,           \
					    const char *const *))          \
	X(nvrtcResult, nvrtcCompileProgram, (cu_obj, int,                  \
					     const char *const *))         \
	X(nvrtcResult, nvrtcGetProgramLogSize, (cu_obj, size_t *))         \
	X(nvrtcResult, nvrtcGetProgramLog, (cu_obj, char *))               \
	X(nvrtcResult, nvrtcGetCUBINSize, (cu_obj, size_t *))              \
	X(nvrtcResult, nvrtcGetCUBIN, (cu_obj, char *))                    \
	X(nvrtcResult, nvrtcDestroyProgram, (cu_obj *))

#define CU_FIELD(ret, name, params) ret(*name) params;
typedef struct cu_api {
	CU_API(CU_FIELD)
	NVRTC_API(CU_FIELD)
} cu_api;
#undef CU_FIELD

/* Process-wide, like the dynamic linker's tables: written once under
 * pthread_once before anything reads it. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static cu_api cu;
static int load_failed;
static char load_why[512];

/* The first of names that dlopen finds (LEGO_NVRTC_LIB first when set). */
static void *open_first(const char *env, const char *const *names)
{
	const char *chosen = getenv(env);
	if (chosen && *chosen)
		return dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
	void *lib = NULL;
	for (size_t i = 0; !lib && names[i]; i++)
		lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	return lib;
}

static void load(void)
{
	static const char *const cuda[] = {"libcuda.so.1", "libcuda.so", NULL};
	static const char *const nvrtc[] = {
		"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
		"/usr/local/cuda/lib64/libnvrtc.so", NULL};
	void *lc = open_first("LEGO_CUDA_LIB", cuda);
	void *ln = lc ? open_first("LEGO_NVRTC_LIB", nvrtc) : NULL;
	if (!lc || !ln) {
		load_failed = 1;
		snprintf(load_why, sizeof load_why, "%s is not installed: %s "
			 "(LEGO_%s_LIB names it)", lc ? "NVRTC" : "CUDA",
			 dlerror(), lc ? "NVRTC" : "CUDA");
		return;
	}
#define CU_RESOLVE(lib, name)                                            \
	if (!load_failed && !(*(void **)&cu.name = dlsym(lib, #name))) { \
		load_failed = 1;                                         \
		snprintf(load_why, sizeof load_why, "no %s: CUDA too old?", \
			 #name);                                         \
	}
#define CU_RESOLVE_CUDA(ret, name, params) CU_RESOLVE(lc, name)
#define CU_RESOLVE_NVRTC(ret, name, params) CU_RESOLVE(ln, name)
	CU_API(CU_RESOLVE_CUDA)
	NVRTC_API(CU_RESOLVE_NVRTC)
#undef CU_RESOLVE_CUDA
#undef CU_RESOLVE_NVRTC
#undef CU_RESOLVE
}

typedef struct cuda_runner {
	tune_device d;             /* first: the runner */
	CUdevice dev;
	cu_obj ctx;
	char arch[64];             /* --gpu-architecture=sm_90 */
	CUdeviceptr flush;         /* as large as the L2 cache */
	size_t flush_bytes;
} cuda_runner;

/* A compiled candidate: its cubin (NVRTC in any thread), loaded as a
 * module at its first launch (the context's thread). */
typedef struct cuda_prog {
	char *cubin;
	cu_obj module, fn;
} cuda_prog;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *cu_error(CUresult e)
{
	const char *s = NULL;
	return cu.cuGetErrorString(e, &s) == CUDA_SUCCESS && s ? s : "?";
}

/* "-DM=64 -DN=64" as NVRTC's options, one a word. */
static size_t split_options(char *opts, const char **out, size_t cap)
{
	size_t n = 0;
	char *save = NULL; /* builds run in several threads: strtok_r */
	for (char *s = strtok_r(opts, " ", &save); s && n < cap;
	     s = strtok_r(NULL, " ", &save))
		out[n++] = s;
	return n;
}

/* The first line of the log that says "error", else its first. */
static void log_line(const char *log, char *why, size_t cap)
{
	const char *line = strstr(log, "error");
	if (!line)
		line = log;
	while (line > log && line[-1] != '\n')
		line--;
	size_t len = strcspn(line, "\n");
	snprintf(why, cap, "does not compile: %.*s", (int)len, line);
}

static void *cuda_build(void *dev, const char *source, const char *options,
			char *why, size_t cap)
{
	cuda_runner *r = dev;
	char *opts = strdup(options);
	const char *argv[72] = {r->arch, "-default-device", "-std=c++17"};
	size_t n = opts ? 3 + split_options(opts, argv + 3, 64) : 0;
	const char *inc = "-I/usr/local/cuda/include";
	argv[n++] = inc;
	cu_obj prog = NULL;
	cuda_prog *p = opts ? calloc(1, sizeof *p) : NULL;
	size_t size = 0;
	if (!p || cu.nvrtcCreateProgram(&prog, source, "candidate.cu", 0, NULL,
					NULL)) {
		snprintf(why, cap, "NVRTC: cannot create a program");
	} else if (cu.nvrtcCompileProgram(prog, (int)n, argv)) {
		size_t len = 0;
		char *log = !cu.nvrtcGetProgramLogSize(prog, &len)
				    ? malloc(len + 1) : NULL;
		if (log && !cu.nvrtcGetProgramLog(prog, log)) {
			log[len] = '\0';
			log_line(log, why, cap);
		} else {
			snprintf(why, cap, "does not compile");
		}
		free(log);
	} else if (cu.nvrtcGetCUBINSize(prog, &size) ||
		   !(p->cubin = malloc(size)) ||
		   cu.nvrtcGetCUBIN(prog, p->cubin)) {
		snprintf(why, cap, "NVRTC: no cubin");
	}
	if (prog)
		cu.nvrtcDestroyProgram(&prog);
	free(opts);
	if (p && !p->cubin) {
		free(p);
		p = NULL;
	}
	return p;
}

static void cuda_release(void *dev, void *prog)
{
	cuda_prog *p = prog;
	if (p->module)
		cu.cuModuleUnload(p->module);
	free(p->cubin);
	free(p);
}

static void *cuda_alloc(void *dev, size_t bytes)
{
	CUdeviceptr d = 0;
	/* a device pointer is never 0: it stands for no buffer */
	return cu.cuMemAlloc_v2(&d, bytes) ? NULL : (void *)(uintptr_t)d;
}

static void cuda_free_buf(void *dev, void *buf)
{
	cu.cuMemFree_v2((CUdeviceptr)(uintptr_t)buf);
}

static int cuda_write(void *dev, void *buf, const void *src, size_t bytes)
{
	return cu.cuMemcpyHtoD_v2((CUdeviceptr)(uintptr_t)buf, src, bytes) ? -1
									  : 0;
}

static int cuda_read(void *dev, void *buf, void *dst, size_t bytes)
{
	return cu.cuMemcpyDtoH_v2(dst, (CUdeviceptr)(uintptr_t)buf, bytes) ? -1
									  : 0;
}

/* Waits for ev within limit seconds; past it, waits ten times longer and
 * 5 s for the device to be free again, else gives it up. */
static int wait_event(cuda_runner *r, cu_obj ev, double limit, char *why,
		      size_t cap)
{
	double t0 = now();
	CUresult e;
	while ((e = cu.cuEventQuery(ev)) == CUDA_ERROR_NOT_READY) {
		if (now() - t0 > limit * 11 + 5) {
			r->d.stuck = 1;
			break;
		}
		nanosleep(&(struct timespec){0, 50000}, NULL);
	}
	if (now() - t0 > limit) {
		snprintf(why, cap, "timed out after %g s", limit);
		return -1;
	}
	if (e != CUDA_SUCCESS) {
		snprintf(why, cap, "the launch failed: %s", cu_error(e));
		return -1;
	}
	return 0;
}

static int cuda_launch(void *dev, void *prog, void *const *bufs,
		       const tune_shape *s, double limit, double *ms, char *why,
		       size_t cap)
{
	cuda_runner *r = dev;
	cuda_prog *p = prog;
	CUresult e = CUDA_SUCCESS;
	if (!p->module && ((e = cu.cuModuleLoadData(&p->module, p->cubin)) ||
			   (e = cu.cuModuleGetFunction(&p->fn, p->module,
						       r->d.l->kernel)))) {
		snprintf(why, cap, "cannot load kernel '%s': %s",
			 r->d.l->kernel, cu_error(e));
		return -1;
	}
	unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
	for (unsigned k = 0; k < s->dims; k++) {
		block[k] = (unsigned)(s->local[0] ? s->local[k]
				      : k == 0 ? 128 : 1);
		grid[k] = (unsigned)((s->global[k] + block[k] - 1) / block[k]);
	}
	CUdeviceptr ptr[TUNE_MAX_ARGS];
	void *params[TUNE_MAX_ARGS];
	for (size_t a = 0; a < s->nargs; a++) {
		size_t bytes;
		const void *v = tune_shape_scalar(s, a, &bytes);
		ptr[a] = (CUdeviceptr)(uintptr_t)bufs[a];
		if (v) /* a scalar's bytes, from the start of its slot */
			memcpy(&ptr[a], v, bytes);
		params[a] = &ptr[a];
	}
	cu_obj ev[2] = {NULL, NULL};
	float t = 0;
	if (cu.cuEventCreate(&ev[0], 0) || cu.cuEventCreate(&ev[1], 0) ||
	    (r->flush && cu.cuMemsetD8Async(r->flush, 0, r->flush_bytes, NULL)) ||
	    cu.cuEventRecord(ev[0], NULL) ||
	    (e = cu.cuLaunchKernel(p->fn, grid[0], grid[1], grid[2], block[0],
				   block[1], block[2], 0, NULL, params,
				   NULL)) ||
	    cu.cuEventRecord(ev[1], NULL)) {
		snprintf(why, cap, "cannot launch '%s': %s", r->d.l->kernel,
			 e ? cu_error(e) : "no events");
		e = 1;
	} else if (wait_event(r, ev[1], limit, why, cap)) {
		e = 1;
	} else {
		e = cu.cuEventElapsedTime(&t, ev[0], ev[1]);
		if (e)
			snprintf(why, cap, "no time: %s", cu_error(e));
	}
	for (int k = 0; k < 2; k++)
		if (ev[k] && !r->d.stuck)
			cu.cuEventDestroy_v2(ev[k]);
	*ms = t;
	return e ? -1 : 0;
}

static const tune_dev_ops cuda_ops = {cuda_build, cuda_release, cuda_alloc,
				      cuda_free_buf, cuda_write, cuda_read,
				      cuda_launch};

static void cuda_free(lego_tune_runner *base)
{
	cuda_runner *r = (cuda_runner *)base;
	tune_device_fini(&r->d);
	if (r->flush && !r->d.stuck)
		cu.cuMemFree_v2(r->flush);
	if (r->ctx && !r->d.stuck)
		cu.cuDevicePrimaryCtxRelease_v2(r->dev);
	free(r);
}

/* The device, its context, its name and the L2 flush buffer. */
static int open_device(cuda_runner *r, int device, char *err, size_t cap)
{
	CUresult e;
	int major = 0, minor = 0, l2 = 0, drv = 0, nv[2] = {0, 0};
	char name[200] = "";
	if ((e = cu.cuInit(0)) || (e = cu.cuDeviceGet(&r->dev, device)) ||
	    (e = cu.cuDevicePrimaryCtxRetain(&r->ctx, r->dev)) ||
	    (e = cu.cuCtxSetCurrent(r->ctx))) {
		snprintf(err, cap, "cannot open CUDA device %d: %s", device,
			 cu_error(e));
		return -1;
	}
	cu.cuDeviceGetName(name, sizeof name - 1, r->dev);
	cu.cuDeviceGetAttribute(&major,
				CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
				r->dev);
	cu.cuDeviceGetAttribute(&minor,
				CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
				r->dev);
	cu.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, r->dev);
	cu.cuDriverGetVersion(&drv);
	cu.nvrtcVersion(&nv[0], &nv[1]);
	snprintf(r->d.device, sizeof r->d.device, "cuda:%s", name);
	snprintf(r->d.driver, sizeof r->d.driver, "driver %d nvrtc %d.%d "
		 "sm_%d%d", drv, nv[0], nv[1], major, minor);
	snprintf(r->arch, sizeof r->arch, "--gpu-architecture=sm_%d%d", major,
		 minor);
	/* twice the L2: every line of the candidate's data is evicted */
	r->flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 1 << 20);
	if ((e = cu.cuMemAlloc_v2(&r->flush, r->flush_bytes))) {
		r->flush = 0;
		snprintf(err, cap, "cannot allocate the L2 flush buffer: %s",
			 cu_error(e));
		return -1;
	}
	return 0;
}

lego_tune_runner *lego_tune_runner_cuda(const lego_tune_launch *l,
					int device, char *err, size_t cap)
{
	pthread_once(&once, load);
	if (load_failed) {
		snprintf(err, cap, "%s", load_why);
		return NULL;
	}
	cuda_runner *r = (cuda_runner *)tune_device_new(
		sizeof *r, "CUDA", &cuda_ops, l, cuda_free, err, cap);
	if (!r)
		return NULL;
	if (open_device(r, device, err, cap)) {
		cuda_free(&r->d.base);
		return NULL;
	}
	tune_device_sign(&r->d);
	return &r->d.base;
}

/* launch.h - what the built-in runners share (internal to src/tune): a
 * lego_tune_launch evaluated for one problem, the host's inputs, the
 * reference's outputs, the check of a candidate's outputs. */
#ifndef LEGO_TUNE_LAUNCH_H
#define LEGO_TUNE_LAUNCH_H

#include "tune/tune.h"

#define TUNE_MAX_ARGS 16

/* What an argument is: a buffer, or a scalar passed by value. */
typedef enum tune_arg_kind {
	TUNE_ARG_BUFFER,
	TUNE_ARG_INT32,
	TUNE_ARG_INT64
} tune_arg_kind;

/* A lego_tune_launch evaluated for one set of defines. */
typedef struct tune_shape {
	size_t nargs;
	char names[TUNE_MAX_ARGS][32];
	tune_arg_kind kind[TUNE_MAX_ARGS];
	size_t elems[TUNE_MAX_ARGS];   /* a buffer's; 0 for a scalar */
	lego_tune_elem elem[TUNE_MAX_ARGS]; /* a buffer's element type */
	int out[TUNE_MAX_ARGS];
	/* a scalar's value, as the kernel takes it */
	int32_t i32[TUNE_MAX_ARGS];
	int64_t i64[TUNE_MAX_ARGS];
	unsigned dims;
	size_t global[3], local[3];  /* local[0] == 0: none given */
	unsigned ref_dims;           /* the reference's */
	size_t ref_global[3], ref_local[3];
} tune_shape;

/* An owned copy of l (one allocation), NULL if out of memory. */
lego_tune_launch *tune_launch_copy(const lego_tune_launch *l);
/* A hash of everything in l that a measurement's check or time depends
 * on (kernel, arguments and their types, sizes, the reference's text,
 * tolerance, repetitions): 16 hex digits (key.c). */
void tune_launch_digest(const lego_tune_launch *l, char out[17]);
/* Evaluates l's sizes for defs; -1 with the reason in why. */
int tune_launch_shape(const lego_tune_launch *l, const lego_define *defs,
		      size_t ndefs, tune_shape *out, char *why, size_t cap);
/* The same buffers and scalars (the grid may differ). */
int tune_shape_equal(const tune_shape *a, const tune_shape *b);
/* Scalar argument a's value and its size in bytes, for clSetKernelArg
 * and cuLaunchKernel; NULL for a buffer. */
const void *tune_shape_scalar(const tune_shape *s, size_t a, size_t *bytes);
size_t tune_elem_bytes(lego_tune_elem e);
/* The inputs: small integers, exact in f16 and f32 sums. */
void tune_fill_input(lego_tune_elem e, void *buf, size_t n, size_t arg);
/* A value no kernel writes by chance, for the outputs: NaN, or the
 * integer type's least value (a correct kernel must not write it). */
void tune_fill_poison(lego_tune_elem e, void *buf, size_t n);
/* 0 when got matches want: floats within the relative tolerance (0: the
 * type's default), integers exactly and never the poison; -1 with the
 * first mismatch of buffer arg in why. */
int tune_check(lego_tune_elem e, double tolerance, const char *arg,
	       const void *got, const void *want, size_t n, char *why,
	       size_t cap);
/* "-DM=64 -DN=64": the defines as compiler options (OpenCL's and
 * NVRTC's), for the reference (malloc'ed); not those that name a scalar
 * argument of s (a parameter "int M" would read "int 64"). */
char *tune_define_options(const lego_define *defs, size_t ndefs,
			  const tune_shape *s);

/* ------------------------------------------------- a built-in runner */

/* What a device does for the common part below.  A program is a
 * compiled candidate or reference; build must be safe to call from
 * several threads at once. */
typedef struct tune_dev_ops {
	void *(*build)(void *dev, const char *source, const char *options,
		       char *why, size_t cap);
	void (*release)(void *dev, void *prog);
	void *(*alloc)(void *dev, size_t bytes);
	void (*free_buf)(void *dev, void *buf);
	int (*write)(void *dev, void *buf, const void *src, size_t bytes);
	int (*read)(void *dev, void *buf, void *dst, size_t bytes);
	/* One launch of the launch's kernel in prog over bufs (NULL for a
	 * scalar: its value is in s, tune_shape_scalar): 0 with *ms,
	 * or -1 past limit seconds (waiting ten times longer and 5 s for
	 * the device to be free again, else setting stuck). */
	int (*launch)(void *dev, void *prog, void *const *bufs,
		      const tune_shape *s, double limit, double *ms,
		      char *why, size_t cap);
} tune_dev_ops;

/* The state every built-in runner shares: its first member. */
typedef struct tune_device {
	lego_tune_runner base;
	const tune_dev_ops *ops;
	lego_tune_launch *l;
	char device[256], driver[512];
	tune_shape shape;          /* of the buffers below; nargs 0: none */
	void *mem[TUNE_MAX_ARGS];
	void *input[TUNE_MAX_ARGS], *want[TUNE_MAX_ARGS], *got;
	int stuck;                 /* a launch never finished */
} tune_device;

/* A runner of size bytes whose first member is its tune_device, with
 * its entry points filled and l copied; NULL with the reason in err when
 * l lacks what a built-in runner (what: "CUDA", "OpenCL") needs or
 * memory runs out.  free_fn frees it. */
tune_device *tune_device_new(size_t size, const char *what,
			     const tune_dev_ops *ops, const lego_tune_launch *l,
			     void (*free_fn)(lego_tune_runner *), char *err,
			     size_t cap);
/* Appends " check DIGEST" (tune_launch_digest) to d's driver, once the
 * runner has written it: the cache keys measurements by device and
 * driver, so a run with other arguments, types or reference measures
 * again instead of reusing results checked against something else. */
void tune_device_sign(tune_device *d);
/* Frees the buffers and the launch (not d). */
void tune_device_fini(tune_device *d);

#endif

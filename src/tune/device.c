/* device.c - what the built-in runners share: the buffers of a problem
 * and the reference's outputs, computed when the problem's shape
 * changes; a candidate's checked launch, then its timed launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/launch.h"

/* The time limit of a timed launch; a checked launch (the first of a
 * program, in which a driver may still compile) gets ten times longer
 * and 5 s. */
static double limit_of(const tune_device *d, int checked)
{
	double t = d->l->timeout_s > 0 ? d->l->timeout_s : 10;
	return checked ? 10 * t + 5 : t;
}

static void drop_buffers(tune_device *d)
{
	for (size_t a = 0; a < d->shape.nargs; a++) {
		/* Buffers of a device still running a candidate that never
		 * ended are left to the process's exit: freeing them would
		 * wait for it. */
		if (d->mem[a] && !d->stuck)
			d->ops->free_buf(d, d->mem[a]);
		free(d->input[a]);
		free(d->want[a]);
		d->mem[a] = d->input[a] = d->want[a] = NULL;
	}
	free(d->got);
	d->got = NULL;
	d->shape.nargs = 0;
}

/* Writes the inputs, poisons the outputs, launches prog once and reads
 * the outputs: into want (the reference) or checked against want. */
static int run_checked(tune_device *d, void *prog, int reference,
		       double *ms, char *why, size_t cap)
{
	const tune_shape *s = &d->shape;
	for (size_t a = 0; a < s->nargs; a++) {
		void *src = d->input[a];
		size_t es = tune_elem_bytes(s->elem[a]);
		if (s->kind[a] != TUNE_ARG_BUFFER)
			continue;
		if (s->out[a])
			tune_fill_poison(s->elem[a], src = d->got, s->elems[a]);
		if (d->ops->write(d, d->mem[a], src, s->elems[a] * es)) {
			snprintf(why, cap, "cannot write %s", s->names[a]);
			return -1;
		}
	}
	tune_shape grid = *s;
	if (reference) {
		grid.dims = s->ref_dims;
		memcpy(grid.global, s->ref_global, sizeof grid.global);
		memcpy(grid.local, s->ref_local, sizeof grid.local);
	}
	if (d->ops->launch(d, prog, d->mem, &grid, limit_of(d, 1), ms, why,
			   cap))
		return -1;
	for (size_t a = 0; a < s->nargs; a++) {
		if (!s->out[a])
			continue;
		void *dst = reference ? d->want[a] : d->got;
		size_t bytes = s->elems[a] * tune_elem_bytes(s->elem[a]);
		if (d->ops->read(d, d->mem[a], dst, bytes)) {
			snprintf(why, cap, "cannot read %s back", s->names[a]);
			return -1;
		}
		if (!reference &&
		    tune_check(s->elem[a], d->l->tolerance, s->names[a], d->got,
			       d->want[a], s->elems[a], why, cap))
			return -1;
	}
	return 0;
}

/* The buffers and the reference's outputs for the problem of shape s
 * (the reference compiled with the defines as macros). */
static int set_problem(tune_device *d, const tune_shape *s,
		       const lego_define *defs, size_t ndefs, char *why,
		       size_t cap)
{
	drop_buffers(d);
	d->shape = *s;
	size_t most = 0; /* bytes of the largest buffer: got's */
	for (size_t a = 0; a < s->nargs; a++) {
		if (s->kind[a] != TUNE_ARG_BUFFER)
			continue; /* passed by value at each launch */
		size_t bytes = s->elems[a] * tune_elem_bytes(s->elem[a]);
		d->input[a] = malloc(bytes);
		d->want[a] = s->out[a] ? malloc(bytes) : NULL;
		d->mem[a] = d->ops->alloc(d, bytes);
		if (!d->input[a] || (s->out[a] && !d->want[a]) || !d->mem[a]) {
			snprintf(why, cap, "cannot allocate %s (%zu elements)",
				 s->names[a], s->elems[a]);
			drop_buffers(d);
			return -1;
		}
		tune_fill_input(s->elem[a], d->input[a], s->elems[a], a);
		most = bytes > most ? bytes : most;
	}
	char *opts = tune_define_options(defs, ndefs, s);
	char rwhy[512] = "out of memory";
	void *prog = opts && (d->got = malloc(most))
			     ? d->ops->build(d, d->l->reference, opts, rwhy,
					     sizeof rwhy) : NULL;
	double ms;
	int rc = prog ? run_checked(d, prog, 1, &ms, rwhy, sizeof rwhy) : -1;
	if (prog)
		d->ops->release(d, prog);
	free(opts);
	if (rc) {
		snprintf(why, cap, "the reference: %s", rwhy);
		drop_buffers(d);
	}
	return rc;
}

static void *dev_prepare(lego_tune_runner *base, const char *kernel,
			 const lego_define *defs, size_t ndefs, char *why,
			 size_t cap)
{
	tune_device *d = (tune_device *)base;
	return d->ops->build(d, kernel, "", why, cap);
}

static void dev_release(lego_tune_runner *base, void *prog)
{
	tune_device *d = (tune_device *)base;
	d->ops->release(d, prog);
}

static int dev_measure_prepared(lego_tune_runner *base, void *prog,
				const lego_define *defs, size_t ndefs,
				double *ms, char *why, size_t cap)
{
	tune_device *d = (tune_device *)base;
	tune_shape s;
	if (d->stuck) {
		snprintf(why, cap, "not run: the device is still busy with a "
			 "candidate that timed out");
		return -1;
	}
	if (tune_launch_shape(d->l, defs, ndefs, &s, why, cap))
		return -1;
	if ((!d->shape.nargs || !tune_shape_equal(&s, &d->shape)) &&
	    set_problem(d, &s, defs, ndefs, why, cap))
		return -1;
	d->shape = s; /* the same buffers; the grid may differ */
	double t;
	int rc = run_checked(d, prog, 0, &t, why, cap);
	int reps = d->l->reps > 0 ? d->l->reps : 5;
	*ms = t;
	for (int i = 0; !rc && i < reps; i++) {
		rc = d->ops->launch(d, prog, d->mem, &s, limit_of(d, 0), &t,
				     why, cap);
		*ms = t < *ms ? t : *ms;
	}
	return rc;
}

static int dev_measure(lego_tune_runner *base, const char *kernel,
		       const lego_define *defs, size_t ndefs, double *ms,
		       char *why, size_t cap)
{
	void *prog = dev_prepare(base, kernel, defs, ndefs, why, cap);
	if (!prog)
		return -1;
	int rc = dev_measure_prepared(base, prog, defs, ndefs, ms, why, cap);
	dev_release(base, prog);
	return rc;
}

tune_device *tune_device_new(size_t size, const char *what,
			     const tune_dev_ops *ops, const lego_tune_launch *l,
			     void (*free_fn)(lego_tune_runner *), char *err,
			     size_t cap)
{
	if (!l->kernel || !l->args || !l->global || !l->reference) {
		snprintf(err, cap, "the %s runner needs a kernel name, "
			 "arguments, a global size and a reference", what);
		return NULL;
	}
	tune_device *d = calloc(1, size);
	if (!d) {
		snprintf(err, cap, "out of memory");
		return NULL;
	}
	d->ops = ops;
	d->base = (lego_tune_runner){
		.device = d->device, .driver = d->driver,
		.measure = dev_measure, .free = free_fn,
		.prepare = dev_prepare,
		.measure_prepared = dev_measure_prepared,
		.release = dev_release};
	if (!(d->l = tune_launch_copy(l))) {
		free_fn(&d->base);
		snprintf(err, cap, "out of memory");
		return NULL;
	}
	return d;
}

void tune_device_sign(tune_device *d)
{
	char digest[17], driver[sizeof d->driver];
	tune_launch_digest(d->l, digest);
	/* the digest is kept whole: the driver text gives way if need be */
	snprintf(driver, sizeof driver, "%.*s check %s",
		 (int)(sizeof driver - sizeof " check " - sizeof digest),
		 d->driver, digest);
	memcpy(d->driver, driver, sizeof driver);
}

void tune_device_fini(tune_device *d)
{
	drop_buffers(d);
	free(d->l);
	d->l = NULL;
}

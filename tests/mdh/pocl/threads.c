/* threads.c - runs a lego mdh kernel (examples/mdh/NAME.mdh lowered to
 * OpenCL C) as C through its own generated host code (NAME_launch): the
 * OpenCL calls it makes are defined here, so its argument order, local
 * and global sizes and the grid kernel's launch are what runs.  Each
 * work-group runs with one POSIX thread per work-item taking turns
 * between barriers, barriers checked by wg.h, twice (work-items in the
 * order of their ids, then the reverse), and the result compared with
 * plain C.  Output and scratch start as NaN: an element the kernels
 * leave unwritten, or a scratch element the grid kernel reads but no
 * work-group wrote, is a wrong result.  Built by threads.sh with KERNEL
 * (the .cl file), HOST (its host code) and PROG_matvec or PROG_conv1d.
 * Exit 0 when every barrier was reached by the whole group and both
 * results are right. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wg.h"
#include KERNEL

/* What the host code needs of OpenCL: a buffer is its floats, a kernel
 * the arguments set on it and the C function that unpacks them. */
typedef int cl_int;
typedef unsigned cl_uint;
typedef float *cl_mem;
typedef void *cl_command_queue;
typedef union {
	float *p;
	int i;
} th_arg;
typedef struct th_kernel {
	void (*run)(const th_arg *a);
	th_arg a[16];
	int bad;
} *cl_kernel;
#define CL_SUCCESS 0

static cl_int clSetKernelArg(cl_kernel k, cl_uint n, size_t size,
			     const void *value)
{
	if (n >= 16 || (size != sizeof(float *) && size != sizeof(int)))
		return -1;
	if (size == sizeof(float *))
		memcpy(&k->a[n].p, value, size);
	else
		memcpy(&k->a[n].i, value, size);
	return CL_SUCCESS;
}

typedef struct {
	cl_kernel k;
	wg_group *grp;
	int group, lid;
} th_item;

static void *th_run(void *p)
{
	const th_item *it = p;
	wg_self = (wg_item){ it->grp, it->group, it->lid };
	wg_start(it->grp);
	it->k->run(it->k->a);
	wg_exit();
	return NULL;
}

/* Runs work-group GROUP of NGROUPS, LOCAL threads taking turns in the
 * order of their ids (or the REVERSE); 0 when its barriers held. */
static int th_group(cl_kernel k, int group, int ngroups, int local,
		    int reverse)
{
	wg_group g = { .n = local, .groups = ngroups, .reverse = reverse };
	pthread_t *th = malloc(sizeof *th * (size_t)local);
	th_item *it = malloc(sizeof *it * (size_t)local);
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.cv, NULL);
	for (int l = 0; l < local; l++) {
		it[l] = (th_item){ k, &g, group, l };
		pthread_create(&th[l], NULL, th_run, &it[l]);
	}
	for (int l = 0; l < local; l++)
		pthread_join(th[l], NULL);
	pthread_cond_destroy(&g.cv);
	pthread_mutex_destroy(&g.mu);
	free(th);
	free(it);
	if (g.bad)
		printf("FAIL: work-group %d: a barrier not reached by all its work-items\n",
		       group);
	return g.bad;
}

/* The order of turns of the run in progress (a queue argument would be
 * the kernel's; the host code passes the queue through untouched). */
typedef struct {
	int reverse;
} th_queue;

/* Runs every work-group of the NDRange; no local size (the grid
 * kernel): one work-group of the whole range, as an implementation may
 * choose.  A global size not a multiple of the local one is an error
 * in OpenCL 1.2. */
static cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k,
				     cl_uint dims, const size_t *offset,
				     const size_t *global, const size_t *local,
				     cl_uint nev, const void *wait, void *ev)
{
	const size_t l = local ? *local : *global;
	(void)wait;
	(void)ev;
	if (dims != 1 || offset || nev || l == 0 || *global % l) {
		printf("FAIL: NDRange %zu / %zu\n", *global, l);
		return -1;
	}
	for (size_t g = 0; g < *global / l; g++)
		k->bad |= th_group(k, (int)g, (int)(*global / l), (int)l,
				   ((const th_queue *)q)->reverse);
	return CL_SUCCESS;
}

#include HOST

static float *th_floats(size_t n, int seed)
{
	float *f = malloc(sizeof *f * (n ? n : 1));
	for (size_t e = 0; e < n; e++)
		f[e] = (float)(((int)e * seed) % 11) / 4.0f - 1.0f;
	return f;
}

static float *th_nans(size_t n)
{
	float *f = malloc(sizeof *f * (n ? n : 1));
	for (size_t e = 0; e < n; e++)
		f[e] = NAN;
	return f;
}

/* Compares OUT with REF (N elements); 1 when equal to rounding. */
static int th_compare(const float *out, const double *ref, size_t n,
		      int reverse)
{
	int ok = 1;
	for (size_t e = 0; e < n; e++)
		if (!(fabs(out[e] - ref[e]) <= 1e-4 * (1.0 + fabs(ref[e])))) {
			printf("FAIL: %s order: element %zu: got %g, want %g\n",
			       reverse ? "reverse" : "id", e, out[e], ref[e]);
			ok = 0;
		}
	return ok;
}

#if defined(PROG_conv1d)
static void th_main(const th_arg *a)
{
	conv1d(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i);
}

static void th_grid(const th_arg *a)
{
	conv1d_grid(a[0].p, a[1].p, a[2].i, a[3].i);
}

/* The lengths of x, w, y and the scratch at sizes N, W. */
static void th_lens(const int *s, size_t *n)
{
	n[0] = conv1d_x_len(s[0], s[1]);
	n[1] = conv1d_w_len(s[0], s[1]);
	n[2] = conv1d_y_len(s[0], s[1]);
	n[3] = conv1d_scratch_len(s[0], s[1]);
}

/* y[i] = sum over d of w[d] x[i + d], in double. */
static void th_ref(const int *s, const float *x, const float *w, double *y)
{
	for (int i = 0; i < s[0]; i++)
		for (int d = 0; d < s[1]; d++)
			y[i] += (double)w[d] * x[i + d];
}
#define TH_LAUNCH conv1d_launch
#else
static void th_main(const th_arg *a)
{
	matvec(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i);
}

static void th_grid(const th_arg *a)
{
	matvec_grid(a[0].p, a[1].p, a[2].i, a[3].i);
}

/* The lengths of M, v, w and the scratch at sizes I, K. */
static void th_lens(const int *s, size_t *n)
{
	n[0] = matvec_M_len(s[0], s[1]);
	n[1] = matvec_v_len(s[0], s[1]);
	n[2] = matvec_w_len(s[0], s[1]);
	n[3] = matvec_scratch_len(s[0], s[1]);
}

/* w[i] = sum over k of M[i][k] v[k], in double. */
static void th_ref(const int *s, const float *M, const float *v, double *w)
{
	for (int i = 0; i < s[0]; i++)
		for (int k = 0; k < s[1]; k++)
			w[i] += (double)M[i * s[1] + k] * v[k];
}
#define TH_LAUNCH matvec_launch
#endif

/* Runs the program at sizes S through its host code, work-items taking
 * turns in the order of their ids (or the REVERSE); 1 when the barriers
 * held and the output equals plain C. */
static int th_check(const int *s, int reverse)
{
	size_t n[4];
	th_lens(s, n);
	float *in0 = th_floats(n[0], 7), *in1 = th_floats(n[1], 5);
	float *out = th_nans(n[2]), *scr = th_nans(n[3]);
	double *ref = calloc(n[2] ? n[2] : 1, sizeof *ref);
	th_ref(s, in0, in1, ref);
	struct th_kernel k = { th_main, { { 0 } }, 0 };
	struct th_kernel g = { th_grid, { { 0 } }, 0 };
	th_queue q = { reverse };
	int ok = TH_LAUNCH(&q, &k, &g, in0, in1, out, scr, s[0], s[1]) ==
			 CL_SUCCESS && !k.bad && !g.bad;
	ok &= th_compare(out, ref, n[2], reverse);
	free(in0);
	free(in1);
	free(out);
	free(scr);
	free(ref);
	return ok;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	const int s[2] = { atoi(argv[1]), atoi(argv[2]) };
	return th_check(s, 0) & th_check(s, 1) ? 0 : 1;
}

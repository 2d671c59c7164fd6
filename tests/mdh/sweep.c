/* sweep.c - every configuration of a space at once: the kernels of
 * `lego mdh` for each configuration, renamed matvec_vN, are one OpenCL
 * program, and their host headers one table (variants.h, written by
 * tests/mdh/sweep.sh); each is run on PoCL against plain C.
 * Usage: sweep DIR I K; exit 0 when every configuration is right. */
#include "ocl.h"

#include <math.h>

typedef cl_int (*launch_fn)(cl_command_queue, cl_kernel, cl_kernel, cl_mem,
			    cl_mem, cl_mem, cl_mem, const int, const int);
typedef size_t (*len_fn)(const int, const int);

typedef struct variant {
	const char *kernel, *grid, *config;
	launch_fn launch;
	len_fn scratch_len;
} variant;

#include "variants.h"

static unsigned seed = 777u;

static float rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	int I = atoi(argv[2]), K = atoi(argv[3]);
	cl c = setup(argv[1], "kernels.cl");
	float *M = malloc((size_t)I * K * sizeof *M), *v = malloc(K * sizeof *v);
	float *ref = calloc(I, sizeof *ref), *got = malloc(I * sizeof *got);
	for (int i = 0; i < I * K; i++)
		M[i] = rnd();
	for (int k = 0; k < K; k++)
		v[k] = rnd();
	for (int i = 0; i < I; i++)
		for (int k = 0; k < K; k++)
			ref[i] += M[i * K + k] * v[k];
	cl_mem dM = buffer(&c, (size_t)I * K * sizeof *M, M);
	cl_mem dv = buffer(&c, K * sizeof *v, v);
	size_t n = sizeof variants / sizeof variants[0];
	for (size_t t = 0; t < n; t++) {
		const variant *x = &variants[t];
		cl_int err;
		cl_kernel k = clCreateKernel(c.prog, x->kernel, &err);
		die_cl(err, x->kernel);
		cl_kernel g = clCreateKernel(c.prog, x->grid, &err);
		die_cl(err, x->grid);
		/* poisoned: an element nothing writes stays NaN */
		for (int i = 0; i < I; i++)
			got[i] = NAN;
		cl_mem dw = buffer(&c, I * sizeof *got, got);
		cl_mem ds = buffer(&c, x->scratch_len(I, K) * sizeof(float),
				   NULL);
		die_cl(x->launch(c.q, k, g, dM, dv, dw, ds, I, K), x->config);
		die_cl(clFinish(c.q), x->config);
		read_back(&c, dw, I * sizeof *got, got);
		for (int i = 0; i < I; i++)
			CHECK(fabsf(got[i] - ref[i]) <= 1e-4f * (1 + fabsf(ref[i])),
			      "%s: element %d: got %g, want %g", x->config, i,
			      got[i], ref[i]);
		clReleaseMemObject(dw);
		clReleaseMemObject(ds);
		clReleaseKernel(k);
		clReleaseKernel(g);
	}
	printf("%zu configurations\n", n);
	return failures ? 1 : 0;
}

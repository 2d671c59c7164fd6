/* ocl_time.c KERNEL.cl M N K TM - the measuring command of run.sh: builds
 * the kernel `matmul` on the first OpenCL device (PoCL here), runs it on
 * M*N/TM work-items, checks C = A*B against the product computed here,
 * and prints the best of 5 runs in ms.  Exit 1 on a wrong result, 2 on a
 * failure to build or run. */
#include <math.h>
#include <time.h>

#include "../../examples/opencl/ocl.h"

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: ocl_time KERNEL.cl M N K TM\n");
		return 2;
	}
	size_t m = strtoul(argv[2], NULL, 10), n = strtoul(argv[3], NULL, 10);
	size_t k = strtoul(argv[4], NULL, 10), tm = strtoul(argv[5], NULL, 10);
	float *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
	float *c = malloc(m * n * sizeof *c), *want = calloc(m * n, sizeof *c);
	if (!a || !b || !c || !want || !tm)
		return 2;
	for (size_t i = 0; i < m * k; i++)
		a[i] = (float)((i * 7) % 13) - 6;
	for (size_t i = 0; i < k * n; i++)
		b[i] = (float)((i * 5) % 11) - 5;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			for (size_t x = 0; x < k; x++)
				want[i * n + j] += a[i * k + x] * b[x * n + j];
	const char *slash = strrchr(argv[1], '/');
	char dir[4096] = ".";
	if (slash)
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - argv[1]),
			 argv[1]);
	cl c_ = setup(dir, slash ? slash + 1 : argv[1]);
	cl_mem bufs[3] = {buffer(&c_, m * k * sizeof *a, a),
			  buffer(&c_, k * n * sizeof *b, b),
			  buffer(&c_, m * n * sizeof *c, NULL)};
	double best = INFINITY;
	for (int r = 0; r < 5; r++) {
		double t0 = now_ms();
		run(&c_, "matmul", m * n / tm, 0, 3, bufs);
		double t = now_ms() - t0;
		best = t < best ? t : best;
	}
	read_back(&c_, bufs[2], m * n * sizeof *c, c);
	for (size_t i = 0; i < m * n && !failures; i++)
		CHECK(c[i] == want[i], "wrong result at %zu: %g, expected %g", i,
		      c[i], want[i]);
	if (failures)
		return 1;
	printf("%.6f\n", best);
	return 0;
}

/* matmul_odd.c - runs matmul_odd (generated from matmul_odd.cl.tpl with the
 * same sizes) on OpenCL (PoCL in CI) and compares C with a plain
 * triple-loop product.  A, B and C are row-major, each in a buffer of the
 * padded size, so that even an unguarded access stays in the buffer: past
 * the real elements A and B hold NaN (a load the masks let through ends in
 * some element of C as NaN) and C a sentinel that must stay (as must C's
 * elements: a store at a padding position overwrites one of them).
 *
 *   cc -DM=37 -DN=53 -DK=29 -DBM=8 -DBN=16 -DBK=4 matmul_odd.c -lOpenCL
 *   ./a.out KERNEL_DIR             (KERNEL_DIR holds matmul_odd.cl)
 */
#include "ocl.h"
#include <math.h>

#define CDIV(a, b) (((a) + (b) - 1) / (b))
#define PM (CDIV(M, BM) * BM)
#define PN (CDIV(N, BN) * BN)
#define PK (CDIV(K, BK) * BK)
#define SENTINEL (-12345.0f)

/* n floats, the first real of them set later, the others fill. */
static float *padded(size_t n, size_t real, float fill)
{
	float *p = malloc(n * sizeof *p);
	if (!p)
		exit(2);
	for (size_t x = real; x < n; x++)
		p[x] = fill;
	return p;
}

static float a_at(size_t i, size_t k) { return (float)((int)(i * 7 + k * 3) % 11 - 5); }
static float b_at(size_t k, size_t j) { return (float)((int)(k * 5 + j) % 7 - 3); }

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
		return 2;
	}
	cl c = setup(argv[1], "matmul_odd.cl");
	float *a = padded(PM * PK, M * K, NAN), *b = padded(PK * PN, K * N, NAN);
	float *got = padded(PM * PN, 0, SENTINEL);
	for (size_t i = 0; i < M; i++)
		for (size_t k = 0; k < K; k++)
			a[i * K + k] = a_at(i, k);
	for (size_t k = 0; k < K; k++)
		for (size_t j = 0; j < N; j++)
			b[k * N + j] = b_at(k, j);
	cl_mem m[3] = {buffer(&c, PM * PK * sizeof *a, a),
		       buffer(&c, PK * PN * sizeof *b, b),
		       buffer(&c, PM * PN * sizeof *got, got)};
	run(&c, "matmul_odd", PM, PN, 3, m);
	read_back(&c, m[2], PM * PN * sizeof *got, got);
	for (size_t i = 0; i < M; i++)
		for (size_t j = 0; j < N; j++) {
			float want = 0;
			for (size_t k = 0; k < K; k++)
				want += a_at(i, k) * b_at(k, j);
			CHECK(got[i * N + j] == want,
			      "matmul_odd c[%zu][%zu] = %g, want %g", i, j,
			      got[i * N + j], want);
		}
	for (size_t x = M * N; x < PM * PN; x++)
		CHECK(got[x] == SENTINEL, "matmul_odd wrote past C at %zu", x);
	for (int i = 0; i < 3; i++)
		clReleaseMemObject(m[i]);
	free(a), free(b), free(got);
	clReleaseProgram(c.prog);
	clReleaseCommandQueue(c.q);
	clReleaseContext(c.ctx);
	printf("opencl matmul_odd %dx%dx%d: %s\n", M, N, K,
	       failures ? "FAILED" : "ok");
	return failures != 0;
}

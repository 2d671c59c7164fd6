/* check.c - runs the kernels of `lego mdh` on the OpenCL CPU driver
 * (PoCL) through the generated host code, against a plain C computation
 * of the same program written here.  Built once per example with
 * -DBENCH_<name> and -DHOST="<its lego mdh --host header>".
 * Usage: check DIR SIZE... [--time]  (DIR holds kernel.cl); exit 0 when
 * equal; with --time it then prints the best of 5 runs in ms. */
#include "ocl.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include HOST

static unsigned seed = 12345u;

static float rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
}

static float *randoms(size_t n)
{
	float *v = malloc((n ? n : 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = rnd();
	return v;
}

static cl_mem input(cl *c, const float *v, size_t n)
{
	return buffer(c, n * sizeof *v, v);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* LAUNCH: the example's NAME_launch call, run once or timed. */
#define MAIN_OF(NAME, NOUT, LAUNCH)                                          \
	cl_int err;                                                          \
	cl_kernel mdh_k = clCreateKernel(c.prog, #NAME, &err);               \
	die_cl(err, "kernel");                                               \
	cl_kernel mdh_g = clCreateKernel(c.prog, #NAME "_grid", &err);       \
	(void)mdh_g;                                                         \
	cl_mem out = buffer(&c, (NOUT) * sizeof(float), NULL);               \
	double best = INFINITY;                                              \
	for (int rep = 0; rep < (timed ? 5 : 1); rep++) {                    \
		double t0 = now_ms();                                        \
		die_cl(LAUNCH, "launch");                                    \
		die_cl(clFinish(c.q), "finish");                             \
		double t = now_ms() - t0;                                    \
		best = t < best ? t : best;                                  \
	}                                                                    \
	got = malloc((NOUT) * sizeof *got);                                  \
	nout = (NOUT);                                                       \
	read_back(&c, out, nout * sizeof *got, got)

int main(int argc, char **argv)
{
	int timed = argc > 2 && !strcmp(argv[argc - 1], "--time");
	if (timed)
		argc--;
	if (argc < 3)
		return 2;
	int s[8] = {0};
	for (int i = 2; i < argc && i < 10; i++)
		s[i - 2] = atoi(argv[i]);
	cl c = setup(argv[1], "kernel.cl");
	float *ref = NULL, *got = NULL;
	size_t nout = 0;
#if defined(BENCH_matvec)
	int I = s[0], K = s[1];
	float *M = randoms((size_t)I * K), *v = randoms((size_t)K);
	ref = calloc((size_t)I, sizeof *ref);
	for (int i = 0; i < I; i++)
		for (int k = 0; k < K; k++)
			ref[i] += M[i * K + k] * v[k];
	cl_mem scr = buffer(&c, matvec_scratch_len(I, K) * sizeof(float), NULL);
	MAIN_OF(matvec, (size_t)I,
		matvec_launch(c.q, mdh_k, mdh_g, input(&c, M, (size_t)I * K),
			      input(&c, v, (size_t)K), out, scr, I, K));
#elif defined(BENCH_matmul)
	int M = s[0], N = s[1], K = s[2];
	float *A = randoms((size_t)M * K), *B = randoms((size_t)K * N);
	ref = calloc((size_t)M * N, sizeof *ref);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				ref[i * N + j] += A[i * K + k] * B[k * N + j];
	cl_mem scr = buffer(&c, matmul_scratch_len(M, N, K) * sizeof(float),
			    NULL);
	MAIN_OF(matmul, (size_t)M * N,
		matmul_launch(c.q, mdh_k, mdh_g, input(&c, A, (size_t)M * K),
			      input(&c, B, (size_t)K * N), out, scr, M, N, K));
#elif defined(BENCH_dot)
	int N = s[0];
	float *x = randoms((size_t)N), *y = randoms((size_t)N);
	ref = calloc(1, sizeof *ref);
	for (int k = 0; k < N; k++)
		ref[0] += x[k] * y[k];
	cl_mem scr = buffer(&c, dotp_scratch_len(N) * sizeof(float), NULL);
	MAIN_OF(dotp, 1,
		dotp_launch(c.q, mdh_k, mdh_g, input(&c, x, (size_t)N),
			   input(&c, y, (size_t)N), out, scr, N));
#elif defined(BENCH_jacobi1d)
	int N = s[0];
	float *x = randoms((size_t)N + 2);
	ref = calloc((size_t)N, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i] = 0.33333f * (x[i] + x[i + 1] + x[i + 2]);
	MAIN_OF(jacobi1d, (size_t)N,
		jacobi1d_launch(c.q, mdh_k, input(&c, x, (size_t)N + 2), out, N));
#elif defined(BENCH_jacobi2d)
	int M = s[0], N = s[1], W = N + 2;
	float *x = randoms((size_t)(M + 2) * W);
	ref = calloc((size_t)M * N, sizeof *ref);
	for (int i = 1; i <= M; i++)
		for (int j = 1; j <= N; j++)
			ref[(i - 1) * N + j - 1] =
				0.2f * (x[(i - 1) * W + j] + x[i * W + j - 1] +
					x[i * W + j] + x[i * W + j + 1] +
					x[(i + 1) * W + j]);
	MAIN_OF(jacobi2d, (size_t)M * N,
		jacobi2d_launch(c.q, mdh_k, input(&c, x, (size_t)(M + 2) * W),
				out, M, N));
#elif defined(BENCH_jacobi3d)
	int X = s[0], Y = s[1], Z = s[2], P = Y + 2, Q = Z + 2;
	size_t nx = (size_t)(X + 2) * P * Q;
	float *x = randoms(nx);
	ref = calloc((size_t)X * Y * Z, sizeof *ref);
#define AT(a, b, c) x[((size_t)(a) * P + (b)) * Q + (c)]
	for (int i = 1; i <= X; i++)
		for (int j = 1; j <= Y; j++)
			for (int k = 1; k <= Z; k++)
				ref[((size_t)(i - 1) * Y + j - 1) * Z + k - 1] =
					(AT(i - 1, j, k) + AT(i, j - 1, k) +
					 AT(i, j, k - 1) + AT(i, j, k) +
					 AT(i, j, k + 1) + AT(i, j + 1, k) +
					 AT(i + 1, j, k)) / 7.0f;
#undef AT
	MAIN_OF(jacobi3d, (size_t)X * Y * Z,
		jacobi3d_launch(c.q, mdh_k, input(&c, x, nx), out, X, Y, Z));
#elif defined(BENCH_bmatmul)
	int S = s[0], M = s[1], N = s[2], K = s[3];
	size_t na = (size_t)S * M * K, nb = (size_t)S * K * N;
	float *A = randoms(na), *B = randoms(nb);
	ref = calloc((size_t)S * M * N, sizeof *ref);
	for (int b = 0; b < S; b++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				for (int k = 0; k < K; k++)
					ref[((size_t)b * M + i) * N + j] +=
						A[((size_t)b * M + i) * K + k] *
						B[((size_t)b * K + k) * N + j];
	cl_mem scr = buffer(&c, bmatmul_scratch_len(S, M, N, K) * sizeof(float),
			    NULL);
	MAIN_OF(bmatmul, (size_t)S * M * N,
		bmatmul_launch(c.q, mdh_k, mdh_g, input(&c, A, na),
			       input(&c, B, nb), out, scr, S, M, N, K));
#elif defined(BENCH_conv1d)
	int N = s[0], W = s[1];
	float *x = randoms((size_t)N + W - 1), *w = randoms((size_t)W);
	ref = calloc((size_t)N, sizeof *ref);
	for (int i = 0; i < N; i++)
		for (int d = 0; d < W; d++)
			ref[i] += w[d] * x[i + d];
	cl_mem scr = buffer(&c, conv1d_scratch_len(N, W) * sizeof(float), NULL);
	MAIN_OF(conv1d, (size_t)N,
		conv1d_launch(c.q, mdh_k, mdh_g, input(&c, x, (size_t)N + W - 1),
			      input(&c, w, (size_t)W), out, scr, N, W));
#elif defined(BENCH_contraction)
	int A1 = s[0], B1 = s[1], C1 = s[2], D1 = s[3], E1 = s[4];
	size_t na = (size_t)A1 * D1 * E1 * C1, nb = (size_t)E1 * B1 * D1;
	float *A = randoms(na), *B = randoms(nb);
	ref = calloc((size_t)A1 * B1 * C1, sizeof *ref);
	for (int a = 0; a < A1; a++)
		for (int b = 0; b < B1; b++)
			for (int cc = 0; cc < C1; cc++)
				for (int d = 0; d < D1; d++)
					for (int e = 0; e < E1; e++)
						ref[(a * B1 + b) * C1 + cc] +=
							A[((a * D1 + d) * E1 + e) * C1 + cc] *
							B[(e * B1 + b) * D1 + d];
	cl_mem scr = buffer(&c, contraction_scratch_len(A1, B1, C1, D1, E1) *
				    sizeof(float), NULL);
	MAIN_OF(contraction, (size_t)A1 * B1 * C1,
		contraction_launch(c.q, mdh_k, mdh_g, input(&c, A, na),
				   input(&c, B, nb), out, scr, A1, B1, C1, D1,
				   E1));
#elif defined(BENCH_absmax)
	int M = s[0], N = s[1];
	float *x = randoms((size_t)M * N);
	ref = calloc((size_t)M, sizeof *ref);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			if (fabsf(x[i * N + j]) > ref[i])
				ref[i] = fabsf(x[i * N + j]);
	cl_mem scr = buffer(&c, rowabsmax_scratch_len(M, N) * sizeof(float),
			    NULL);
	MAIN_OF(rowabsmax, (size_t)M,
		rowabsmax_launch(c.q, mdh_k, mdh_g, input(&c, x, (size_t)M * N),
				 out, scr, M, N));
#else
#error "no BENCH_ defined"
#endif
	for (size_t i = 0; i < nout; i++)
		CHECK(fabsf(got[i] - ref[i]) <= 1e-4f * (1.0f + fabsf(ref[i])),
		      "element %zu: got %g, want %g", i, got[i], ref[i]);
	if (timed && !failures)
		printf("%.6f\n", best);
	return failures ? 1 : 0;
}

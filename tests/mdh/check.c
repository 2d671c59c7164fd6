/* check.c - runs the kernels of `lego mdh` on the OpenCL CPU driver
 * (PoCL) through the generated host code, against a plain C computation
 * of the same program written here.  Built once per example with
 * -DBENCH_<name> and -DHOST="<its lego mdh --host header>".
 * Usage: check DIR SIZE... [--time | --serve]  (DIR holds kernel.cl);
 * exit 0 when equal; with --time it then prints the best of 5 runs in
 * ms, with --serve that once for each line read on stdin. */
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

/* Whether got equals the plain C result ref, up to float rounding (the
 * kernels may sum in another order and fuse multiply-adds). */
static void compare(const float *got, const float *ref, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CHECK(fabsf(got[i] - ref[i]) <= 1e-4f * (1.0f + fabsf(ref[i])),
		      "element %zu: got %g, want %g", i, got[i], ref[i]);
}

#if defined(BENCH_prl)
/* PRL's results are (weight, id) pairs whose id fields hold ints:
 * compared as their values */
static void prl_ids(float *got, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2) {
		match m;
		memcpy(&m, &got[i], sizeof m);
		got[i + 1] = (float)m.id;
	}
}
#endif

/* LAUNCH: the example's NAME_launch call, run once and compared with
 * the reference; then, when it is equal, the best of 5 runs timed:
 * once (--time), or once for each line read on stdin (--serve: a driver
 * interleaves them with its own timings, bench/mdh/numpy_ref.py). */
#define MAIN_OF(NAME, NOUT, LAUNCH)                                          \
	cl_int err;                                                          \
	cl_kernel mdh_k = clCreateKernel(c.prog, #NAME, &err);               \
	die_cl(err, "kernel");                                               \
	cl_kernel mdh_g = clCreateKernel(c.prog, #NAME "_grid", &err);       \
	(void)mdh_g;                                                         \
	cl_mem out = buffer(&c, (NOUT) * sizeof(float), NULL);               \
	die_cl(LAUNCH, "launch");                                            \
	die_cl(clFinish(c.q), "finish");                                     \
	got = malloc((NOUT) * sizeof *got);                                  \
	nout = (NOUT);                                                       \
	read_back(&c, out, nout * sizeof *got, got);                         \
	if (as_floats)                                                       \
		as_floats(got, nout);                                        \
	compare(got, ref, nout);                                             \
	for (char line[64]; mode && !failures &&                             \
	     (mode == 1 || fgets(line, sizeof line, stdin)); mode &= 2) {    \
		double best = INFINITY;                                      \
		for (int rep = 0; rep < 5; rep++) {                          \
			double t0 = now_ms();                                \
			die_cl(LAUNCH, "launch");                            \
			die_cl(clFinish(c.q), "finish");                     \
			double t = now_ms() - t0;                            \
			best = t < best ? t : best;                          \
		}                                                            \
		printf("%.6f\n", best);                                      \
		fflush(stdout);                                              \
	}

int main(int argc, char **argv)
{
	/* 0: check only; 1: --time; 2: --serve (mode &= 2 keeps it) */
	int mode = 0;
	if (argc > 2 && !strcmp(argv[argc - 1], "--time"))
		mode = 1;
	else if (argc > 2 && !strcmp(argv[argc - 1], "--serve"))
		mode = 2;
	if (mode)
		argc--;
	/* what makes a result comparable as floats, where it is not */
	void (*as_floats)(float *got, size_t n) = NULL;
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
	cl_mem in0 = input(&c, M, (size_t)I * K);
	cl_mem in1 = input(&c, v, (size_t)K);
	MAIN_OF(matvec, (size_t)I,
		matvec_launch(c.q, mdh_k, mdh_g, in0,
			      in1, out, scr, I, K));
#elif defined(BENCH_matmul)
	int M = s[0], N = s[1], K = s[2];
	float *A = randoms((size_t)M * K), *B = randoms((size_t)K * N);
	ref = calloc((size_t)M * N, sizeof *ref);
	/* k outside j: each element still sums along k in order, and B is
	 * read along its rows (1024^3 in a second, for bench/mdh/cpu.sh) */
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				ref[i * N + j] += A[i * K + k] * B[k * N + j];
	cl_mem scr = buffer(&c, matmul_scratch_len(M, N, K) * sizeof(float),
			    NULL);
	cl_mem in0 = input(&c, A, (size_t)M * K);
	cl_mem in1 = input(&c, B, (size_t)K * N);
	MAIN_OF(matmul, (size_t)M * N,
		matmul_launch(c.q, mdh_k, mdh_g, in0,
			      in1, out, scr, M, N, K));
#elif defined(BENCH_dot)
	int N = s[0];
	float *x = randoms((size_t)N), *y = randoms((size_t)N);
	ref = calloc(1, sizeof *ref);
	for (int k = 0; k < N; k++)
		ref[0] += x[k] * y[k];
	cl_mem scr = buffer(&c, dotp_scratch_len(N) * sizeof(float), NULL);
	cl_mem in0 = input(&c, x, (size_t)N);
	cl_mem in1 = input(&c, y, (size_t)N);
	MAIN_OF(dotp, 1,
		dotp_launch(c.q, mdh_k, mdh_g, in0,
			   in1, out, scr, N));
#elif defined(BENCH_jacobi1d)
	int N = s[0];
	float *x = randoms((size_t)N + 2);
	ref = calloc((size_t)N, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i] = 0.33333f * (x[i] + x[i + 1] + x[i + 2]);
	cl_mem in0 = input(&c, x, (size_t)N + 2);
	MAIN_OF(jacobi1d, (size_t)N,
		jacobi1d_launch(c.q, mdh_k, in0, out, N));
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
	cl_mem in0 = input(&c, x, (size_t)(M + 2) * W);
	MAIN_OF(jacobi2d, (size_t)M * N,
		jacobi2d_launch(c.q, mdh_k, in0,
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
	cl_mem in0 = input(&c, x, nx);
	MAIN_OF(jacobi3d, (size_t)X * Y * Z,
		jacobi3d_launch(c.q, mdh_k, in0, out, X, Y, Z));
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
	cl_mem in0 = input(&c, A, na);
	cl_mem in1 = input(&c, B, nb);
	MAIN_OF(bmatmul, (size_t)S * M * N,
		bmatmul_launch(c.q, mdh_k, mdh_g, in0,
			       in1, out, scr, S, M, N, K));
#elif defined(BENCH_conv1d)
	int N = s[0], W = s[1];
	float *x = randoms((size_t)N + W - 1), *w = randoms((size_t)W);
	ref = calloc((size_t)N, sizeof *ref);
	for (int i = 0; i < N; i++)
		for (int d = 0; d < W; d++)
			ref[i] += w[d] * x[i + d];
	cl_mem scr = buffer(&c, conv1d_scratch_len(N, W) * sizeof(float), NULL);
	cl_mem in0 = input(&c, x, (size_t)N + W - 1);
	cl_mem in1 = input(&c, w, (size_t)W);
	MAIN_OF(conv1d, (size_t)N,
		conv1d_launch(c.q, mdh_k, mdh_g, in0,
			      in1, out, scr, N, W));
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
	cl_mem in0 = input(&c, A, na);
	cl_mem in1 = input(&c, B, nb);
	MAIN_OF(contraction, (size_t)A1 * B1 * C1,
		contraction_launch(c.q, mdh_k, mdh_g, in0,
				   in1, out, scr, A1, B1, C1, D1,
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
	cl_mem in0 = input(&c, x, (size_t)M * N);
	MAIN_OF(rowabsmax, (size_t)M,
		rowabsmax_launch(c.q, mdh_k, mdh_g, in0,
				 out, scr, M, N));
#elif defined(BENCH_prl)
	/* each query's best match: the largest weight, ties to the smaller
	 * id (ids run backwards, so the first j is not the answer) */
	int I = s[0], J = s[1];
	float *qa = randoms((size_t)I), *qb = randoms((size_t)I);
	float *da = randoms((size_t)J), *db = randoms((size_t)J);
	int *did = malloc((size_t)J * sizeof *did);
	for (int j = 0; j < J; j++)
		did[j] = J - j;
	ref = malloc((size_t)I * 2 * sizeof *ref);
	for (int i = 0; i < I; i++) {
		float bw = -INFINITY;
		int bid = -1;
		for (int j = 0; j < J; j++) {
			float w = (fabsf(qa[i] - da[j]) < 0.25f ? 2.3f : -1.6f) +
				  (fabsf(qb[i] - db[j]) < 0.25f ? 1.9f : -0.7f);
			if (w > bw || (w == bw && did[j] < bid)) {
				bw = w;
				bid = did[j];
			}
		}
		ref[2 * i] = bw;
		ref[2 * i + 1] = (float)bid;
	}
	cl_mem scr = buffer(&c, prl_scratch_len(I, J) * sizeof(match), NULL);
	cl_mem in0 = input(&c, qa, (size_t)I), in1 = input(&c, qb, (size_t)I);
	cl_mem in2 = input(&c, da, (size_t)J), in3 = input(&c, db, (size_t)J);
	cl_mem in4 = buffer(&c, (size_t)J * sizeof *did, did);
	as_floats = prl_ids;
	MAIN_OF(prl, (size_t)I * 2,
		prl_launch(c.q, mdh_k, mdh_g, in0, in1, in2, in3, in4,
			   out, scr, I, J));
#elif defined(BENCH_gaussian2d)
	int H = s[0], W = s[1], XW = W + 4;
	size_t nx = (size_t)(H + 4) * XW;
	float *x = randoms(nx), *w = randoms(25);
	ref = calloc((size_t)H * W, sizeof *ref);
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++)
			for (int a = 0; a < 5; a++)
				for (int b = 0; b < 5; b++)
					ref[i * W + j] += w[a * 5 + b] *
							  x[(i + a) * XW + j + b];
	cl_mem scr = buffer(&c, gaussian2d_scratch_len(H, W) * sizeof(float),
			    NULL);
	cl_mem in0 = input(&c, x, nx);
	cl_mem in1 = input(&c, w, 25);
	MAIN_OF(gaussian2d, (size_t)H * W,
		gaussian2d_launch(c.q, mdh_k, mdh_g, in0,
				  in1, out, scr, H, W));
#elif defined(BENCH_ccsdt)
	int H3 = s[0], H2 = s[1], H1 = s[2], P6 = s[3], P5 = s[4], P4 = s[5],
	    H7 = s[6];
	size_t nt2 = (size_t)H7 * P4 * P5 * H1, nv2 = (size_t)H3 * H2 * P6 * H7;
	size_t nt3 = (size_t)H3 * H2 * H1 * P6 * P5 * P4;
	float *t2 = randoms(nt2), *v2 = randoms(nv2);
	ref = calloc(nt3, sizeof *ref);
	/* t3 -= t2 * v2 from zero, in NWChem's loop order */
	for (int h7 = 0; h7 < H7; h7++)
		for (int p4 = 0; p4 < P4; p4++)
			for (int p5 = 0; p5 < P5; p5++)
				for (int h1 = 0; h1 < H1; h1++)
					for (int h3 = 0; h3 < H3; h3++)
						for (int h2 = 0; h2 < H2; h2++)
							for (int p6 = 0; p6 < P6; p6++)
								ref[((((h3 * H2 + h2) * H1 + h1) * P6 + p6) * P5 + p5) * P4 + p4] -=
									t2[((h7 * P4 + p4) * P5 + p5) * H1 + h1] *
									v2[((h3 * H2 + h2) * P6 + p6) * H7 + h7];
	cl_mem scr = buffer(&c, sd_t_d1_1_scratch_len(H3, H2, H1, P6, P5, P4,
						      H7) * sizeof(float), NULL);
	cl_mem in0 = input(&c, t2, nt2);
	cl_mem in1 = input(&c, v2, nv2);
	MAIN_OF(sd_t_d1_1, nt3,
		sd_t_d1_1_launch(c.q, mdh_k, mdh_g, in0,
				 in1, out, scr, H3, H2, H1, P6,
				 P5, P4, H7));
#elif defined(BENCH_mcc)
	int N = s[0], K = s[1], P = s[2], Q = s[3], C = s[4], R = s[5], S = s[6];
	int H = P + R - 1, W = Q + S - 1;
	size_t nx = (size_t)N * C * H * W, nf = (size_t)K * C * R * S;
	size_t ny = (size_t)N * K * P * Q;
	float *x = randoms(nx), *f = randoms(nf);
	ref = calloc(ny, sizeof *ref);
	for (int n = 0; n < N; n++)
		for (int k = 0; k < K; k++)
			for (int p = 0; p < P; p++)
				for (int q = 0; q < Q; q++)
					for (int ch = 0; ch < C; ch++)
						for (int r = 0; r < R; r++)
							for (int t = 0; t < S; t++)
								ref[((n * K + k) * P + p) * Q + q] +=
									x[((n * C + ch) * H + p + r) * W + q + t] *
									f[((k * C + ch) * R + r) * S + t];
	cl_mem scr = buffer(&c, mcc_scratch_len(N, K, P, Q, C, R, S) *
				    sizeof(float), NULL);
	cl_mem in0 = input(&c, x, nx);
	cl_mem in1 = input(&c, f, nf);
	MAIN_OF(mcc, ny,
		mcc_launch(c.q, mdh_k, mdh_g, in0, in1,
			   out, scr, N, K, P, Q, C, R, S));
#else
#error "no BENCH_ defined"
#endif
	return failures ? 1 : 0;
}

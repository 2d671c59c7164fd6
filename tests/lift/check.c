/* check.c - runs a kernel from `lego lift` on the OpenCL CPU driver (or,
 * built by nvcc with -DCUDA, on a CUDA GPU; or, with -DC_KERNEL="<the
 * kernel>", compiled as C and run as one work-item) against a plain C computation
 * of the same benchmark.  Built once per benchmark with -DBENCH_<name> and
 * -DHOST="<its lego lift --host header>" (and for CUDA -DKERNEL="<its
 * kernel>").  Usage: check DIR SIZE...  (DIR holds kernel.cl for OpenCL);
 * exit 0 when equal. */
#ifdef CUDA
#include "cuda_shim.h"
#include KERNEL
/* the NDRange global x local as grid x block */
#define LAUNCH(name, g, l, ...)                                           \
	die_cl(name##_launch(__VA_ARGS__, grid_of(g, l), block_of(l), 0),    \
	       "launch")
/* an int buffer (the shims type buffers as float *): the kernel's type;
 * C++ converts no void * implicitly */
#define INT_BUF(b) ((const int *)(void *)(b))
#elif defined(C_KERNEL)
/* the OpenCL kernel as C, one work-item (tests/lift/c_shim.h) */
#include "c_shim.h"
#include C_KERNEL
#define LAUNCH(name, g, l, ...) ((void)(g), (void)(l), name(__VA_ARGS__))
#define INT_BUF(b) ((void *)(b))
#else
#include "ocl.h"
#define LAUNCH(name, g, l, ...)                                           \
	do {                                                               \
		cl_int e_;                                                 \
		cl_kernel k_ = clCreateKernel(c.prog, #name, &e_);         \
		die_cl(e_, "kernel");                                      \
		die_cl(name##_launch(c.q, k_, __VA_ARGS__, g, l), "launch"); \
	} while (0)
#define INT_BUF(b) (b)
#endif

#include <math.h>

#include HOST

/* a benchmark named by a macro (MM, STENCIL): its functions and launch */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define LAUNCH_(...) LAUNCH(__VA_ARGS__)

static unsigned seed = 12345u;

static float rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
}

static float *randoms(size_t n)
{
	float *v = (float *)malloc((n ? n : 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = rnd();
	return v;
}

static int clampi(int i, int n)
{
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static cl_mem input(cl *c, const float *v, size_t n)
{
	return buffer(c, n * sizeof *v, v);
}

/* A (2r+1) x (2r+1) weighted stencil on an M x N grid: reads outside the
 * grid clamp to the edge (clamp) or are zero. */
static float *stencil2d_ref(const float *A, const float *w, int M, int N,
			    int r, int clamp)
{
	float *ref = (float *)calloc((size_t)M * N, sizeof *ref);
	int d = 2 * r + 1;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int a = 0; a < d; a++)
				for (int b = 0; b < d; b++) {
					int y = i + a - r, x = j + b - r;
					int in = y >= 0 && y < M && x >= 0 && x < N;
					if (clamp || in)
						ref[i * N + j] += w[d * a + b] *
							A[clampi(y, M) * N +
							  clampi(x, N)];
				}
	return ref;
}

/* C = A B for A of M x K, B of K x N. */
static float *matmul_ref(const float *A, const float *B, int M, int N, int K)
{
	float *ref = (float *)calloc((size_t)M * N, sizeof *ref);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int l = 0; l < K; l++)
				ref[i * N + j] += A[i * K + l] * B[l * N + j];
	return ref;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int s[5] = {0, 0, 0, 0, 0};
	for (int i = 2; i < argc && i < 7; i++)
		s[i - 2] = atoi(argv[i]);
	cl c = setup(argv[1], "kernel.cl");
	/* odd global sizes: every loop strides over more than one round */
	size_t global[2] = {3, 2};
	float *ref = NULL;
	size_t nout = 0;
	cl_mem out = NULL;
#if defined(BENCH_dot) || defined(BENCH_dotvec)
	/* dotvec.lift computes dot.lift's partial sums with vector loads */
#ifdef BENCH_dot
#define DOT partialDot
#else
#define DOT dotvec
#endif
	int N = s[0];
	float *x = randoms((size_t)N), *y = randoms((size_t)N);
	nout = CAT(DOT, _out_len)(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N / 4; i++)
		for (int j = 0; j < 4; j++)
			ref[i] += x[4 * i + j] * y[4 * i + j];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH_(DOT, global, NULL, input(&c, x, (size_t)N), input(&c, y,
		(size_t)N), out, N);
#elif defined(BENCH_gemv)
	int M = s[0], K = s[1];
	float *A = randoms((size_t)M * K), *x = randoms((size_t)K);
	nout = gemv_out_len(M, K);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < K; j++)
			ref[i] += A[i * K + j] * x[j];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(gemv, global, NULL, input(&c, A, (size_t)M * K), input(&c, x,
	       (size_t)K), out, M, K);
#elif defined(BENCH_stencil1d)
	int N = s[0];
	float *x = randoms((size_t)N), *w = randoms(3);
	nout = stencil1d_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < 3; j++)
			if (i + j - 1 >= 0 && i + j - 1 < N)
				ref[i] += x[i + j - 1] * w[j];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(stencil1d, global, NULL, input(&c, x, (size_t)N), input(&c, w,
	       3), out, N);
#elif defined(BENCH_stencil2d)
	int M = s[0], N = s[1];
	float *A = randoms((size_t)M * N), *w = randoms(9);
	nout = stencil2d_out_len(M, N);
	ref = stencil2d_ref(A, w, M, N, 1, 1);
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(stencil2d, global, NULL, input(&c, A, (size_t)M * N), input(&c,
	       w, 9), out, M, N);
#elif defined(BENCH_conv2d)
	int M = s[0], N = s[1];
	float *A = randoms((size_t)M * N), *w = randoms(25);
	nout = conv2d_out_len(M, N);
	ref = stencil2d_ref(A, w, M, N, 2, 0);
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(conv2d, global, NULL, input(&c, A, (size_t)M * N), input(&c,
	       w, 25), out, M, N);
#elif defined(BENCH_jacobi3d)
	int L = s[0], M = s[1], N = s[2];
	/* random weights at all 27 positions: the 7-point stencil weighs
	 * the centre (13) and its face neighbours by theirs and must not
	 * read the others */
	float *A = randoms((size_t)L * M * N), *w = randoms(27);
	nout = jacobi3d_out_len(L, M, N);
	ref = (float *)calloc(nout, sizeof *ref);
	static const int face[7][3] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0},
				       {0, -1, 0}, {0, 1, 0}, {0, 0, -1},
				       {0, 0, 1}};
	for (int i = 0; i < L; i++)
		for (int j = 0; j < M; j++)
			for (int k = 0; k < N; k++)
				for (int f = 0; f < 7; f++)
					ref[((size_t)i * M + j) * N + k] +=
						w[9 * (face[f][0] + 1) + 3 * (face[f][1] + 1) +
						  face[f][2] + 1] *
						A[((size_t)clampi(i + face[f][0], L) * M +
						   clampi(j + face[f][1], M)) * N +
						  clampi(k + face[f][2], N)];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(jacobi3d, global, NULL, input(&c, A, (size_t)L * M * N),
	       input(&c, w, 27), out, L, M, N);
#elif defined(BENCH_matmul) || defined(BENCH_mmreg)
	/* one element of C a work-item, or a 4 x 4 block (mmreg) */
#ifdef BENCH_mmreg
#define MM mmreg
#else
#define MM matmul
#endif
	int M = s[0], N = s[1], K = s[2];
	float *A = randoms((size_t)M * K), *B = randoms((size_t)K * N);
	nout = CAT(MM, _out_len)(M, N, K);
	ref = matmul_ref(A, B, M, N, K);
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH_(MM, global, NULL, input(&c, A, (size_t)M * K), input(&c, B,
		(size_t)K * N), out, M, N, K);
#elif defined(BENCH_stencil2dlocal) || defined(BENCH_conv2dlocal)
	/* work-groups of 3 x 2 work-items over 4 x 4 tiles, 2 x 2 groups:
	 * fewer than the tiles, so both the group and local loops stride;
	 * the 3 x 3 clamped stencil or the 5 x 5 convolution (zero outside) */
#ifdef BENCH_conv2dlocal
#define STENCIL conv2dlocal
	int r = 2, clamp = 0;
#else
#define STENCIL stencil2dlocal
	int r = 1, clamp = 1;
#endif
	int M = s[0], N = s[1], d = 2 * r + 1;
	size_t local[2] = {3, 2};
	global[0] = 6;
	global[1] = 4;
	float *A = randoms((size_t)M * N), *w = randoms((size_t)(d * d));
	nout = CAT(STENCIL, _out_len)(M, N);
	ref = stencil2d_ref(A, w, M, N, r, clamp);
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH_(STENCIL, global, local, input(&c, A, (size_t)M * N),
		input(&c, w, (size_t)(d * d)), out, M, N);
#elif defined(BENCH_mmtiled)
	int M = s[0], N = s[1], K = s[2];
	size_t local[2] = {3, 2};
	global[0] = 6;
	global[1] = 4;
	float *A = randoms((size_t)M * K), *B = randoms((size_t)K * N);
	nout = mmtiled_out_len(M, N, K);
	ref = matmul_ref(A, B, M, N, K);
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(mmtiled, global, local, input(&c, A, (size_t)M * K), input(&c, B,
	       (size_t)K * N), out, M, N, K);
#elif defined(BENCH_mmlocal) || defined(BENCH_mmvec) || defined(BENCH_mmvecv)
	/* the declared work-group (SIZES: M N K, then its X Y), 2 x 2 groups
	 * over more tiles (mmlocal's 8 x 8, mmvec's 24 x 24), so that the
	 * group loops stride; a group of 3 x 2 (a variant of mmlocal,
	 * tests/lift/run.sh) also makes the local loops stride, each
	 * work-item holding 2 x 2 blocks of private memory */
#ifdef BENCH_mmvec
#define MM mmvec
#elif defined(BENCH_mmvecv)
#define MM mmvecv
#else
#define MM mmlocal
#endif
	int M = s[0], N = s[1], K = s[2];
	size_t local[2] = {(size_t)s[3], (size_t)s[4]};
	global[0] = 2 * local[0];
	global[1] = 2 * local[1];
	float *A = randoms((size_t)M * K), *B = randoms((size_t)K * N);
	nout = CAT(MM, _out_len)(M, N, K);
	ref = matmul_ref(A, B, M, N, K);
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH_(MM, global, local, input(&c, A, (size_t)M * K), input(&c, B,
		(size_t)K * N), out, M, N, K);
#elif defined(BENCH_sumtree)
	/* work-groups of 5 over chunks of 12, 2 groups for N / 12 chunks */
	int N = s[0];
	size_t local[2] = {5, 1};
	global[0] = 10;
	float *x = randoms((size_t)N);
	nout = sumtree_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i / 12] += x[i];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(sumtree, global, local, input(&c, x, (size_t)N), out, N);
#elif defined(BENCH_pairsum)
	int N = s[0];
	float *x = randoms((size_t)N);
	nout = pairsum_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i / 4] += x[N - 1 - i];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(pairsum, global, NULL, input(&c, x, (size_t)N), out, N);
#elif defined(BENCH_vscale)
	int N = s[0];
	float *x = randoms((size_t)N);
	nout = vscale_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i] = 2.0f * (2.0f * x[N - 1 - i] + 1.0f) + 1.0f;
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(vscale, global, NULL, input(&c, x, (size_t)N), out, N);
#elif defined(BENCH_rules)
	int N = s[0];
	float *x = randoms((size_t)N);
	nout = rules_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i / 8] += (0.5f * x[i]) * (0.5f * x[i]);
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(rules, global, NULL, input(&c, x, (size_t)N), out, N);
#elif defined(BENCH_colsum)
	int N = s[0];
	float *x = randoms((size_t)N);
	nout = colsum_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[2 * (i / 8) + i % 2] += x[i];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(colsum, global, NULL, input(&c, x, (size_t)N), out, N);
#elif defined(BENCH_tiling)
	int M = s[0], N = s[1];
	float *A = randoms((size_t)M * N);
	nout = tiling_out_len(M, N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < M * N; i++)
		ref[i] = 0.5f * A[i] * A[i] + A[i];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(tiling, global, NULL, input(&c, A, (size_t)M * N), out, M, N);
#elif defined(BENCH_gemvwg) || defined(BENCH_gemvvec)
	/* work-groups of 5 (each strides over the 256 partial sums), 2
	 * groups for the M rows; gemvvec.lift reads gemvwg.lift's pairs as
	 * float4 vectors */
#ifdef BENCH_gemvwg
#define GEMV gemvwg
#else
#define GEMV gemvvec
#endif
	int M = s[0], K = s[1];
	size_t local[2] = {5, 1};
	global[0] = 10;
	float *A = randoms((size_t)M * K), *x = randoms((size_t)K);
	nout = CAT(GEMV, _out_len)(M, K);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < K; j++)
			ref[i] += A[i * K + j] * x[j];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH_(GEMV, global, local, input(&c, A, (size_t)M * K), input(&c, x,
		(size_t)K), out, M, K);
#elif defined(BENCH_nn) || defined(BENCH_nnvec)
	/* nnvec.lift computes nn.lift's distances with vector loads, stores */
#ifdef BENCH_nn
#define NN nn
#else
#define NN nnvec
#endif
	int N = s[0];
	float *lat = randoms((size_t)N), *lng = randoms((size_t)N);
	float tlat = 0.25f, tlng = -0.5f;
	nout = CAT(NN, _out_len)(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i] = sqrtf((lat[i] - tlat) * (lat[i] - tlat) +
			       (lng[i] - tlng) * (lng[i] - tlng));
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH_(NN, global, NULL, input(&c, lat, (size_t)N), input(&c, lng,
		(size_t)N), tlat, tlng, out, N);
#elif defined(BENCH_kmeans)
	int N = s[0], K = s[1], F = s[2];
	float *P = randoms((size_t)N * F), *C = randoms((size_t)K * F);
	nout = kmeans_out_len(N, K, F);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++) {
		float best = 0.0f;
		for (int k = 0; k < K; k++) {
			float d = 0.0f;
			for (int f = 0; f < F; f++)
				d += (P[i * F + f] - C[k * F + f]) *
				     (P[i * F + f] - C[k * F + f]);
			/* the first of equally near clusters */
			if (k == 0 || d < best) {
				best = d;
				ref[i] = (float)k;
			}
		}
	}
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(kmeans, global, NULL, input(&c, P, (size_t)N * F), input(&c, C,
	       (size_t)K * F), out, N, K, F);
#elif defined(BENCH_nbody)
	int N = s[0];
	float *x = randoms((size_t)N), *y = randoms((size_t)N),
	      *z = randoms((size_t)N), *m = randoms((size_t)N);
	float sel[3] = {0.0f, 1.0f, 2.0f};
	nout = nbody_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			float d[3] = {x[j] - x[i], y[j] - y[i], z[j] - z[i]};
			float r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01f;
			float w = m[j] / (r2 * sqrtf(r2));
			for (int k = 0; k < 3; k++)
				ref[3 * i + k] += w * d[k];
		}
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(nbody, global, NULL, input(&c, x, (size_t)N), input(&c, y,
	       (size_t)N), input(&c, z, (size_t)N), input(&c, m, (size_t)N),
	       input(&c, sel, 3), out, N);
#elif defined(BENCH_md)
	/* neighbours (i + 1 + 2k) mod N, but two entries out of [0, N) that
	 * must read as a particle at the origin (at's guard) */
	int N = s[0], K = s[1];
	if (K < 2 || N > 100000 || 2 * K >= N) {
		fprintf(stderr, "md needs 2 <= K < N / 2 <= 50000\n");
		return 1;
	}
	float *x = randoms((size_t)N), *y = randoms((size_t)N),
	      *z = randoms((size_t)N);
	float sel[3] = {0.0f, 1.0f, 2.0f}, cutsq = 1.5f, lj1 = 0.5f, lj2 = 1.0f;
	int *nbh = (int *)malloc((size_t)N * K * sizeof *nbh);
	for (int i = 0; i < N; i++)
		for (int k = 0; k < K; k++)
			nbh[i * K + k] = (i + 1 + 2 * k) % N;
	nbh[K - 1] = N;
	nbh[K] = -5;
	nout = md_out_len(N, K);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		for (int k = 0; k < K; k++) {
			int j = nbh[i * K + k], in = j >= 0 && j < N;
			float d[3] = {x[i] - (in ? x[j] : 0.0f),
				      y[i] - (in ? y[j] : 0.0f),
				      z[i] - (in ? z[j] : 0.0f)};
			float r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
			if (r2 >= cutsq)
				continue;
			float r2inv = 1.0f / r2, r6inv = r2inv * r2inv * r2inv;
			for (int c3 = 0; c3 < 3; c3++)
				ref[3 * i + c3] += d[c3] * r2inv * r6inv *
						   (lj1 * r6inv - lj2);
		}
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(md, global, NULL, input(&c, x, (size_t)N), input(&c, y,
	       (size_t)N), input(&c, z, (size_t)N),
	       INT_BUF(buffer(&c, (size_t)N * K * sizeof *nbh, nbh)),
	       input(&c, sel, 3), cutsq, lj1, lj2, out, N, K);
#elif defined(BENCH_saxpy)
	int N = s[0];
	float *x = randoms((size_t)N), *y = randoms((size_t)N);
	nout = saxpy_out_len(N);
	ref = (float *)calloc(nout, sizeof *ref);
	for (int i = 0; i < N; i++)
		ref[i] = 2.5f * x[i] + y[i];
	out = buffer(&c, nout * sizeof(float), NULL);
	LAUNCH(saxpy, global, NULL, input(&c, x, (size_t)N), input(&c, y,
	       (size_t)N), out, N);
#else
#error "no BENCH_ defined"
#endif
	die_cl(clFinish(c.q), "finish");
	float *got = (float *)malloc(nout * sizeof *got);
	read_back(&c, out, nout * sizeof *got, got);
	for (size_t i = 0; i < nout; i++)
		CHECK(fabsf(got[i] - ref[i]) <= 1e-4f * (1.0f + fabsf(ref[i])),
		      "element %zu: got %g, want %g", i, got[i], ref[i]);
	return failures ? 1 : 0;
}

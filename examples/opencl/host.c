/* host.c - runs the kernels generated from kernels.cl.tpl (on PoCL in CI)
 * and compares them with plain computations.  Where data lives is taken
 * from `lego table` (the numeric mapping, a code path apart from the
 * generated expressions): TABLES/NAME.txt for A, C, Out and W.
 *
 *   cc -DM=32 -DN=24 -DK=16 -DBM=8 -DBK=4 -DNW=16 host.c -lOpenCL
 *   ./a.out KERNEL_DIR TABLES      (KERNEL_DIR holds kernels.cl and W.h)
 */
#include "ocl.h"

/* The `lego table` line of layout name: n physical offsets. */
static long *table(const char *dir, const char *name, size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.txt", dir, name);
	FILE *f = fopen(path, "r");
	long *t = malloc(n * sizeof *t);
	if (!f || !t) {
		perror(path);
		exit(2);
	}
	for (size_t i = 0; i < n; i++)
		if (fscanf(f, "%ld", &t[i]) != 1)
			exit(2);
	fclose(f);
	return t;
}

/* Row-major index of (i, k) in the logical view (i/BM, i%BM, k/B, k%B)
 * of a tiled layout with cols columns. */
static size_t tiled_logical(size_t i, size_t k, size_t cols, size_t b)
{
	return ((i / BM * BM + i % BM) * (cols / b) + k / b) * b + k % b;
}

static void test_matmul(cl *c, const char *tables)
{
	long *ta = table(tables, "A", M * K), *tc = table(tables, "C", M * N);
	float *a = calloc(M * K, sizeof *a), *b = calloc(K * N, sizeof *b);
	float *got = calloc(M * N, sizeof *got);
	for (size_t i = 0; i < M; i++)
		for (size_t k = 0; k < K; k++)
			a[ta[tiled_logical(i, k, K, BK)]] =
				(float)((int)(i * 7 + k * 3) % 11 - 5);
	for (size_t k = 0; k < K; k++)
		for (size_t j = 0; j < N; j++)
			b[k + K * j] = (float)((int)(k * 5 + j) % 7 - 3);
	cl_mem m[3] = {buffer(c, M * K * sizeof *a, a),
		       buffer(c, K * N * sizeof *b, b),
		       buffer(c, M * N * sizeof *got, NULL)};
	run(c, "matmul", M, N, 3, m);
	read_back(c, m[2], M * N * sizeof *got, got);
	for (size_t i = 0; i < M; i++)
		for (size_t j = 0; j < N; j++) {
			float want = 0;
			for (size_t k = 0; k < K; k++)
				want += (float)((int)(i * 7 + k * 3) % 11 - 5) *
					(float)((int)(k * 5 + j) % 7 - 3);
			float g = got[tc[tiled_logical(i, j, N, BK)]];
			CHECK(g == want, "matmul c[%zu][%zu] = %g, want %g", i,
			      j, g, want);
		}
	for (int i = 0; i < 3; i++)
		clReleaseMemObject(m[i]);
	free(ta), free(tc), free(a), free(b), free(got);
}

static void test_transpose(cl *c, const char *tables)
{
	long *to = table(tables, "Out", N * M);
	float *in = malloc(M * N * sizeof *in), *out = malloc(M * N * sizeof *out);
	for (size_t i = 0; i < M * N; i++)
		in[i] = (float)i;
	cl_mem m[2] = {buffer(c, M * N * sizeof *in, in),
		       buffer(c, M * N * sizeof *out, NULL)};
	run(c, "transpose", M, N, 2, m);
	read_back(c, m[1], M * N * sizeof *out, out);
	for (size_t i = 0; i < M; i++)
		for (size_t j = 0; j < N; j++)
			CHECK(out[to[j * M + i]] == in[i * N + j],
			      "transpose (%zu, %zu)", i, j);
	clReleaseMemObject(m[0]), clReleaseMemObject(m[1]);
	free(to), free(in), free(out);
}

static void test_antidiag(cl *c, const char *tables)
{
	size_t n2 = NW * NW, bytes = n2 * sizeof(int);
	long *tw = table(tables, "W", n2);
	int *in = malloc(bytes), *buf = malloc(bytes), *buf_at = malloc(bytes);
	int *back = malloc(bytes);
	for (size_t i = 0; i < n2; i++)
		in[i] = (int)(i * 37 % 1001);
	cl_mem m[4] = {buffer(c, bytes, in), buffer(c, bytes, NULL),
		       buffer(c, bytes, NULL), buffer(c, bytes, NULL)};
	run(c, "antidiag_store", NW, NW, 3, m);
	cl_mem l[2] = {m[1], m[3]};
	run(c, "antidiag_load", n2, 0, 2, l);
	read_back(c, m[1], bytes, buf);
	read_back(c, m[2], bytes, buf_at);
	read_back(c, m[3], bytes, back);
	for (size_t i = 0; i < n2; i++) {
		CHECK(buf[tw[i]] == in[i], "antidiag store of %zu", i);
		CHECK(buf_at[tw[i]] == in[i], "antidiag W_at of %zu", i);
		CHECK(back[i] == in[i], "antidiag inverse of %zu", i);
	}
	for (int i = 0; i < 4; i++)
		clReleaseMemObject(m[i]);
	free(tw), free(in), free(buf), free(buf_at), free(back);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s KERNEL_DIR TABLES\n", argv[0]);
		return 2;
	}
	cl c = setup(argv[1], "kernels.cl");
	test_matmul(&c, argv[2]);
	test_transpose(&c, argv[2]);
	test_antidiag(&c, argv[2]);
	clReleaseProgram(c.prog);
	clReleaseCommandQueue(c.q);
	clReleaseContext(c.ctx);
	printf("opencl: %s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}

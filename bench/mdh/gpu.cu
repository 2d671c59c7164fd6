// gpu.cu - checks and times one kernel of `lego mdh --target cuda` on the
// GPU.  Built per variant: nvcc -DKERNEL='"k.cu"'
// -DBENCH_matvec|matmul|jacobi3d|mcc|ccsdt.  Usage: gpu LABEL SIZES...
// (the program's sizes in its order).  Prints one line: label, ms (median
// of 20), the rate, the device-to-device copy bandwidth, and the check
// against a float64 reference computed here at about 4096 output points.
// The copy moves as many bytes as the kernel reads and writes.  With
// ROUNDS=n in the environment (n > 1), then n rounds, each timing the
// kernel and its baseline one after the other: the copy, or for MatMul
// built with -DWITH_CUBLAS -lcublas, cublasSgemm (FP32, no TF32); a line
// a round and the median ratio with its spread.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include KERNEL
#if defined(WITH_CUBLAS)
#include <cublas_v2.h>
#endif

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)

static std::vector<float> randoms(size_t n, unsigned seed)
{
	std::vector<float> v(n);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
	}
	return v;
}

static float *dev(const std::vector<float> &h)
{
	float *d;
	CK(cudaMalloc(&d, h.size() * sizeof(float)));
	CK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
	return d;
}

template <class F> static double median_ms(F f)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int i = 0; i < 3; i++)
		f();
	std::vector<float> t;
	for (int i = 0; i < 20; i++) {
		CK(cudaEventRecord(a));
		f();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms);
	}
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

// Per program: its inputs' lengths, the launch, the bytes and flops of one
// run, and the float64 reference at output point e.
#if defined(BENCH_matvec)
#define NAME matvec
#define NS 2
static double ref(const std::vector<float> &M, const std::vector<float> &v, size_t e, const int *s)
{
	double r = 0;
	for (int k = 0; k < s[1]; k++)
		r += (double)M[e * s[1] + k] * v[k];
	return r;
}
static double flops(const int *s) { return 2.0 * s[0] * s[1]; }
#elif defined(BENCH_matmul)
#define NAME matmul
#define NS 3
static double ref(const std::vector<float> &A, const std::vector<float> &B, size_t e, const int *s)
{
	size_t N = s[1], i = e / N, j = e % N;
	double r = 0;
	for (int k = 0; k < s[2]; k++)
		r += (double)A[i * s[2] + k] * B[(size_t)k * N + j];
	return r;
}
static double flops(const int *s) { return 2.0 * s[0] * s[1] * s[2]; }
#elif defined(BENCH_jacobi3d)
#define NAME jacobi3d
#define NS 3
#define ONE_INPUT
static double ref(const std::vector<float> &x, const std::vector<float> &, size_t e, const int *s)
{
	size_t Y = s[1], Z = s[2], k = e % Z, j = e / Z % Y, i = e / Z / Y;
	auto at = [&](size_t a, size_t b, size_t c) { return (double)x[(a * (Y + 2) + b) * (Z + 2) + c]; };
	return (at(i, j + 1, k + 1) + at(i + 1, j, k + 1) + at(i + 1, j + 1, k) + at(i + 1, j + 1, k + 1) +
		at(i + 1, j + 1, k + 2) + at(i + 1, j + 2, k + 1) + at(i + 2, j + 1, k + 1)) / 7.0;
}
static double flops(const int *s) { return 7.0 * s[0] * s[1] * s[2]; }
#elif defined(BENCH_mcc)
#define NAME mcc
#define NS 7
static double ref(const std::vector<float> &x, const std::vector<float> &f, size_t e, const int *s)
{
	size_t K = s[1], P = s[2], Q = s[3], C = s[4], R = s[5], S = s[6];
	size_t H = P + R - 1, W = Q + S - 1;
	size_t q = e % Q, p = e / Q % P, k = e / Q / P % K, n = e / Q / P / K;
	double r = 0;
	for (size_t c = 0; c < C; c++)
		for (size_t a = 0; a < R; a++)
			for (size_t b = 0; b < S; b++)
				r += (double)x[((n * C + c) * H + p + a) * W + q + b] * f[((k * C + c) * R + a) * S + b];
	return r;
}
static double flops(const int *s) { return 2.0 * s[0] * s[1] * s[2] * s[3] * s[4] * s[5] * s[6]; }
#elif defined(BENCH_ccsdt)
#define NAME sd_t_d1_1
#define NS 7
static double ref(const std::vector<float> &t2, const std::vector<float> &v2, size_t e, const int *s)
{
	size_t H2 = s[1], H1 = s[2], P6 = s[3], P5 = s[4], P4 = s[5], H7 = s[6];
	size_t p4 = e % P4, p5 = e / P4 % P5, p6 = e / P4 / P5 % P6, h1 = e / P4 / P5 / P6 % H1;
	size_t h2 = e / P4 / P5 / P6 / H1 % H2, h3 = e / P4 / P5 / P6 / H1 / H2;
	double r = 0;
	for (size_t h7 = 0; h7 < H7; h7++)
		r += (double)t2[((h7 * P4 + p4) * P5 + p5) * H1 + h1] * v2[((h3 * H2 + h2) * P6 + p6) * H7 + h7];
	return -r;
}
static double flops(const int *s) { return 2.0 * s[0] * s[1] * s[2] * s[3] * s[4] * s[5] * s[6]; }
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if NS == 2
#define SIZES s[0], s[1]
#elif NS == 3
#define SIZES s[0], s[1], s[2]
#else
#define SIZES s[0], s[1], s[2], s[3], s[4], s[5], s[6]
#endif

int main(int argc, char **argv)
{
	const char *label = argv[1];
	int s[7] = {0};
	for (int i = 2; i < argc && i < 2 + NS; i++)
		s[i - 2] = atoi(argv[i]);
#if defined(BENCH_matvec)
	size_t n0 = matvec_M_len(SIZES), n1 = matvec_v_len(SIZES), nout = matvec_w_len(SIZES);
#elif defined(BENCH_matmul)
	size_t n0 = matmul_A_len(SIZES), n1 = matmul_B_len(SIZES), nout = matmul_C_len(SIZES);
#elif defined(BENCH_jacobi3d)
	size_t n0 = jacobi3d_x_len(SIZES), n1 = 0, nout = jacobi3d_y_len(SIZES);
#elif defined(BENCH_mcc)
	size_t n0 = mcc_x_len(SIZES), n1 = mcc_f_len(SIZES), nout = mcc_y_len(SIZES);
#elif defined(BENCH_ccsdt)
	size_t n0 = sd_t_d1_1_t2_len(SIZES), n1 = sd_t_d1_1_v2_len(SIZES), nout = sd_t_d1_1_t3_len(SIZES);
#endif
	std::vector<float> h0 = randoms(n0, 1), h1 = randoms(n1, 2);
	float *d0 = dev(h0), *d1 = n1 ? dev(h1) : nullptr, *dw, *ds = nullptr;
	CK(cudaMalloc(&dw, nout * sizeof(float)));
#if defined(ONE_INPUT)
	auto run = [&] { CK(CAT(NAME, _launch)(d0, dw, SIZES)); };
#else
	CK(cudaMalloc(&ds, CAT(NAME, _scratch_len)(SIZES) * sizeof(float)));
	auto run = [&] { CK(CAT(NAME, _launch)(d0, d1, dw, ds, SIZES)); };
#endif
	double bytes = 4.0 * (n0 + n1 + nout);
	// check: output poisoned (NaN) first, reference in double
	CK(cudaMemset(dw, 0xff, nout * sizeof(float)));
	run();
	CK(cudaDeviceSynchronize());
	std::vector<float> got(nout);
	CK(cudaMemcpy(got.data(), dw, nout * sizeof(float), cudaMemcpyDeviceToHost));
	double err = 0, norm = 0;
	size_t checked = 0;
	for (size_t e = 0; e < nout; e += (nout > 4096 ? nout / 4093 : 1)) {
		double r = ref(h0, h1, e, s);
		err += (got[e] - r) * (got[e] - r);
		norm += r * r;
		checked++;
	}
	double rel = std::sqrt(err / norm);
	int ok = rel < 1e-4 && !std::isnan(rel);
	double ms = median_ms(run);
	size_t copy_elems = (n0 + n1 + nout) / 2;
	float *c1, *c2;
	CK(cudaMalloc(&c1, copy_elems * sizeof(float)));
	CK(cudaMalloc(&c2, copy_elems * sizeof(float)));
	auto copy = [&] { CK(cudaMemcpyAsync(c2, c1, copy_elems * sizeof(float), cudaMemcpyDeviceToDevice)); };
	double cms = median_ms(copy);
	double copy_gbs = 2.0 * copy_elems * 4 / cms / 1e6;
	printf("%-44s %9.4f ms %8.1f GB/s %8.1f GFLOP/s  copy %7.1f GB/s  bw/copy %.2f  check %s (rel %.1e, %zu points)\n",
	       label, ms, bytes / ms / 1e6, flops(s) / ms / 1e6, copy_gbs,
	       bytes / ms / 1e6 / copy_gbs, ok ? "ok" : "FAILED", rel, checked);
	const char *rounds_env = getenv("ROUNDS");
	int rounds = rounds_env ? atoi(rounds_env) : 1;
	if (rounds > 1 && ok) {
		auto base = copy;
		const char *bname = "copy";
#if defined(WITH_CUBLAS)
		cublasHandle_t h;
		if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
			exit(2);
		const float one = 1.0f, zero = 0.0f;
		// row-major C = A B is column-major C^T = B^T A^T
		auto gemm = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s[1], s[0], s[2], &one, d1, s[1], d0, s[2], &zero, c2, s[1]); };
		if (copy_elems < nout)
			exit(2);
		bname = "cublasSgemm";
#endif
		std::vector<double> ratio;
		for (int r = 0; r < rounds; r++) {
			double a = median_ms(run);
#if defined(WITH_CUBLAS)
			double c = median_ms(gemm);
#else
			double c = median_ms(base);
#endif
			ratio.push_back(c / a);
			printf("  round %d: ours %.4f ms, %s %.4f ms, ratio %.3f\n", r + 1, a, bname, c, c / a);
		}
		std::sort(ratio.begin(), ratio.end());
		printf("%-44s ROUNDS %d  %s/ours median %.3f  min %.3f  max %.3f\n", label, rounds, bname,
		       ratio[ratio.size() / 2], ratio.front(), ratio.back());
		(void)base;
	}
	return ok ? 0 : 1;
}

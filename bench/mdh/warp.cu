// warp.cu - checks one kernel of `lego mdh --target cuda` (the warp layer,
// B_red = 2, or the shared-memory tree, B_red = 1) at every output point
// against a float64 reference computed here.  Built per kernel: nvcc
// -DKERNEL='"k.cu"' -DW_dot|W_matvec|W_matmul|W_absmax warp.cu.  Usage:
// warp OUTFILE SEED SIZES... (the program's sizes in its order).  Random
// inputs from SEED (warp.sh draws a fresh one a configuration, the same
// for both strategies), the output poisoned with NaN before the launch,
// every CUDA call checked.  Prints "ok" or "FAIL" with the largest error
// over the sum of the magnitudes of the terms; writes the output's bytes
// to OUTFILE so that warp.sh can compare the two strategies bit for bit.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <random>
#include KERNEL

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)

// n floats in managed memory (one more, so that none is empty), each
// uniform in [-1, 1), or NaN (an output: each point must be written)
static float *managed(size_t n, std::mt19937 *g)
{
	float *p;
	CK(cudaMallocManaged(&p, (n + 1) * sizeof(float)));
	std::uniform_real_distribution<float> u(-1.0f, 1.0f);
	for (size_t i = 0; i < n; i++)
		p[i] = g ? u(*g) : NAN;
	return p;
}

// Per program: its sizes, inputs' lengths, the launch, and the reference
// at output point e with the sum of its terms' magnitudes in *mag.
#if defined(W_dot)
#define NS 1
#define LENS(s) dotp_x_len(s[0]), dotp_y_len(s[0]), dotp_r_len(s[0])
#define LAUNCH(a, b, o, t, s) dotp_launch(a, b, o, t, s[0])
#define SCRATCH(s) dotp_scratch_len(s[0])
static double ref(const float *x, const float *y, size_t, const int *s, double *mag)
{
	double r = 0;
	for (int k = 0; k < s[0]; k++) {
		r += (double)x[k] * y[k];
		*mag += fabs((double)x[k] * y[k]);
	}
	return r;
}
#elif defined(W_matvec)
#define NS 2
#define LENS(s) matvec_M_len(s[0], s[1]), matvec_v_len(s[0], s[1]), matvec_w_len(s[0], s[1])
#define LAUNCH(a, b, o, t, s) matvec_launch(a, b, o, t, s[0], s[1])
#define SCRATCH(s) matvec_scratch_len(s[0], s[1])
static double ref(const float *M, const float *v, size_t e, const int *s, double *mag)
{
	double r = 0;
	for (int k = 0; k < s[1]; k++) {
		r += (double)M[e * s[1] + k] * v[k];
		*mag += fabs((double)M[e * s[1] + k] * v[k]);
	}
	return r;
}
#elif defined(W_matmul)
#define NS 3
#define LENS(s) matmul_A_len(s[0], s[1], s[2]), matmul_B_len(s[0], s[1], s[2]), matmul_C_len(s[0], s[1], s[2])
#define LAUNCH(a, b, o, t, s) matmul_launch(a, b, o, t, s[0], s[1], s[2])
#define SCRATCH(s) matmul_scratch_len(s[0], s[1], s[2])
static double ref(const float *A, const float *B, size_t e, const int *s, double *mag)
{
	size_t N = s[1], i = e / N, j = e % N;
	double r = 0;
	for (int k = 0; k < s[2]; k++) {
		r += (double)A[i * s[2] + k] * B[(size_t)k * N + j];
		*mag += fabs((double)A[i * s[2] + k] * B[(size_t)k * N + j]);
	}
	return r;
}
#elif defined(W_absmax)
#define NS 2
#define LENS(s) rowabsmax_x_len(s[0], s[1]), 0, rowabsmax_y_len(s[0], s[1])
#define LAUNCH(a, b, o, t, s) rowabsmax_launch(a, o, t, s[0], s[1])
#define SCRATCH(s) rowabsmax_scratch_len(s[0], s[1])
static double ref(const float *x, const float *, size_t e, const int *s, double *mag)
{
	double r = 0;
	for (int j = 0; j < s[1]; j++)
		r = fmax(r, fabs((double)x[e * s[1] + j]));
	*mag = r;
	return r;
}
#endif

int main(int argc, char **argv)
{
	if (argc != 3 + NS) {
		fprintf(stderr, "usage: %s OUTFILE SEED SIZES (%d)\n", argv[0], NS);
		return 2;
	}
	int s[NS];
	for (int i = 0; i < NS; i++)
		s[i] = atoi(argv[3 + i]);
	size_t n[3] = {LENS(s)};
	std::mt19937 g((unsigned)strtoul(argv[2], NULL, 10));
	float *a = managed(n[0], &g), *b = managed(n[1], &g);
	float *out = managed(n[2], NULL), *scr = managed(SCRATCH(s), NULL);
	CK(LAUNCH(a, b, out, scr, s));
	CK(cudaDeviceSynchronize());
	double worst = 0;
	for (size_t e = 0; e < n[2]; e++) {
		double mag = 0, r = ref(a, b, e, s, &mag);
		double err = fabs(out[e] - r) / (mag + 1e-30);
		if (!(err <= worst))
			worst = std::isnan(err) ? INFINITY : err;
	}
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(out, sizeof(float), n[2], f) != n[2])
		return 2;
	fclose(f);
	int ok = worst <= 1e-5;
	printf("%s %zu points, max error %.3g\n", ok ? "ok" : "FAIL", n[2], worst);
	return ok ? 0 : 1;
}

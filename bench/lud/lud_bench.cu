// LU decomposition benchmark: the kernels of lud.cuh.tpl (lud_r<R>.cuh,
// from gen.sh) for register tiles R = 2, 4, 8, 16 (and R = 4 with unpadded
// shared tiles, R = 4 and 8 with XOR-swizzled ones).  Before timing, each
// variant is checked:
//   - at n = 1024 against an unblocked LU computed here in double, every
//     entry, and L * U against A, every entry;
//   - at each timed size, L * U against A on 4096 random entries.
// L * U - A is measured entry by entry relative to |L| |U| (the
// componentwise backward error, bounded by about n * eps for a stable LU).
// Timing: the whole factorisation (every launch of every step), median of
// RUNS after one warm-up, the matrix copied in before each run (not timed).
// Build: nvcc -O3 -arch=sm_90 -use_fast_math -Ibench/lud \
//            bench/lud/lud_bench.cu -o lud_bench
// Run:   ./lud_bench 4096 8192 16384
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define RUNS 5

namespace r2 {
#include "lud_r2.cuh"
}
namespace r4 {
#include "lud_r4.cuh"
}
namespace r8 {
#include "lud_r8.cuh"
}
namespace r16 {
#include "lud_r16.cuh"
}
namespace r4_nopad {
#include "lud_r4_nopad.cuh"
}
namespace r4_swz {
#include "lud_r4_swz.cuh"
}
namespace r8_swz {
#include "lud_r8_swz.cuh"
}

typedef void kernel_fn(float *, int, int);
struct variant {
	int r;
	const char *tiles;
	kernel_fn *diagonal, *perimeter, *internal;
};
#define VARIANT(ns, R, tiles) {R, tiles, ns::diagonal, ns::perimeter, ns::internal}
static const variant variants[] = {VARIANT(r2, 2, "padded"), VARIANT(r4, 4, "padded"),
				   VARIANT(r8, 8, "padded"), VARIANT(r16, 16, "padded"),
				   VARIANT(r4_nopad, 4, "unpadded"), VARIANT(r4_swz, 4, "swizzled"),
				   VARIANT(r8_swz, 8, "swizzled")};

static void factor(const variant &v, float *dm, int n)
{
	const int threads = (64 / v.r) * (64 / v.r);
	int i = 0;
	for (; i < n - 64; i += 64) {
		const int nb = (n - i) / 64 - 1;
		v.diagonal<<<1, 64>>>(dm, n, i);
		v.perimeter<<<2 * nb, 64>>>(dm, n, i);
		v.internal<<<dim3(nb, nb), threads>>>(dm, n, i);
	}
	v.diagonal<<<1, 64>>>(dm, n, i);
}

// A diagonally dominant matrix: LU without pivoting is stable on it.
static std::vector<float> matrix(int n)
{
	std::vector<float> a((size_t)n * n);
	srand(7);
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++)
			a[(size_t)r * n + c] = (float)rand() / RAND_MAX + (r == c ? n : 0);
	return a;
}

// |(L U - A)[r][c]| / (|L| |U|)[r][c] from the packed factors (unit lower
// L): the componentwise backward error, which rounding keeps near n * eps.
static double backward_error(const std::vector<float> &f, const std::vector<float> &a, int n,
			     int r, int c)
{
	double s = 0, scale = 0;
	for (int k = 0; k <= std::min(r, c); k++) {
		const double l = k == r ? 1.0 : (double)f[(size_t)r * n + k];
		s += l * f[(size_t)k * n + c];
		scale += std::fabs(l * f[(size_t)k * n + c]);
	}
	return std::fabs(s - a[(size_t)r * n + c]) / scale;
}

// The largest backward error over the entries (all when every is set, else
// 4096 random ones).
static double product_error(const std::vector<float> &f, const std::vector<float> &a, int n,
			    bool every)
{
	double worst = 0;
	const long count = every ? (long)n * n : 4096;
	srand(11);
	for (long e = 0; e < count; e++) {
		const int r = every ? e / n : rand() % n, c = every ? e % n : rand() % n;
		worst = std::max(worst, backward_error(f, a, n, r, c));
	}
	return worst;
}

// Largest |factor - reference| / (1 + |reference|), the reference an
// unblocked Doolittle LU in double.
static double reference_error(const std::vector<float> &f, const std::vector<float> &a, int n)
{
	std::vector<double> d(a.begin(), a.end());
	for (int k = 0; k < n; k++)
		for (int r = k + 1; r < n; r++) {
			const double l = d[(size_t)r * n + k] /= d[(size_t)k * n + k];
			for (int c = k + 1; c < n; c++)
				d[(size_t)r * n + c] -= l * d[(size_t)k * n + c];
		}
	double worst = 0;
	for (size_t e = 0; e < d.size(); e++)
		worst = std::max(worst, std::fabs(f[e] - d[e]) / (1 + std::fabs(d[e])));
	return worst;
}

static std::vector<float> run(const variant &v, const std::vector<float> &a, int n, float *dm,
			      float *ms)
{
	std::vector<float> f(a.size()), t;
	cudaEvent_t t0, t1;
	cudaEventCreate(&t0);
	cudaEventCreate(&t1);
	for (int k = 0; k <= RUNS; k++) {
		cudaMemcpy(dm, a.data(), sizeof(float) * a.size(), cudaMemcpyHostToDevice);
		cudaEventRecord(t0);
		factor(v, dm, n);
		cudaEventRecord(t1);
		cudaEventSynchronize(t1);
		float x;
		cudaEventElapsedTime(&x, t0, t1);
		if (k)
			t.push_back(x);
	}
	cudaEventDestroy(t0);
	cudaEventDestroy(t1);
	std::sort(t.begin(), t.end());
	*ms = t[t.size() / 2];
	cudaMemcpy(f.data(), dm, sizeof(float) * a.size(), cudaMemcpyDeviceToHost);
	if (cudaGetLastError() != cudaSuccess)
		f.clear();
	return f;
}

int main(int argc, char **argv)
{
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	printf("device: %s\n", p.name);
	int bad = 0;
	float *dm;
	{
		const int n = 1024;
		const std::vector<float> a = matrix(n);
		cudaMalloc(&dm, sizeof(float) * a.size());
		for (const variant &v : variants) {
			float ms;
			const std::vector<float> f = run(v, a, n, dm, &ms);
			const double e1 = f.empty() ? INFINITY : reference_error(f, a, n);
			const double e2 = f.empty() ? INFINITY : product_error(f, a, n, true);
			const bool ok = e1 < 1e-4 && e2 < 1e-4;
			bad += !ok;
			printf("check n=%d R=%-2d %-8s %s  max |LU - ref| %.1e  max backward error of L*U %.1e\n",
			       n, v.r, v.tiles, ok ? "ok" : "WRONG", e1, e2);
		}
		cudaFree(dm);
	}
	for (int k = 1; k < argc; k++) {
		const int n = atoi(argv[k]);
		if (n < 128 || n % 64) {
			fprintf(stderr, "lud_bench: n must be a multiple of 64, >= 128: %s\n", argv[k]);
			return 2;
		}
		const std::vector<float> a = matrix(n);
		cudaMalloc(&dm, sizeof(float) * a.size());
		for (const variant &v : variants) {
			float ms;
			const std::vector<float> f = run(v, a, n, dm, &ms);
			const double e = f.empty() ? INFINITY : product_error(f, a, n, false);
			const bool ok = e < 1e-4;
			bad += !ok;
			printf("lud n=%-5d R=%-2d %-8s %s  median %9.3f ms  %6.2f TFLOP/s  "
			       "(sampled backward error of L*U %.1e)\n",
			       n, v.r, v.tiles, ok ? "ok   " : "WRONG", ms, 2.0 / 3 * n * (double)n * n / ms / 1e9, e);
		}
		cudaFree(dm);
	}
	printf(bad ? "FAILED: %d wrong\n" : "all variants correct\n", bad);
	return bad != 0;
}

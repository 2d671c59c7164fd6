// 3-D stencil benchmark: the cube and star kernels of stencil.cuh.tpl
// (direct and tiled) on the row-major grid and on bricks (b<X><Y><Z>.cuh,
// from gen.sh), for N = 384, 512 and R = 1..4.  Checks, then times:
//   - the row-major direct kernel against a CPU sum in double on a sample
//     of points (every 97th point plus every point of the 8 corner boxes),
//     and its untouched border (zero) at every point;
//   - every other kernel against it at every point, bit for bit: the input
//     is reordered into bricks and the output back with a brick index
//     written here by hand (not liblego's), so the check covers L too;
//   - the ghost-zone kernels (bricks of 8^3 and 16^3 padded by R, layout Q)
//     likewise, their margins poisoned with NaN before the fill kernel
//     writes them: a margin point that fill missed and ghost reads would
//     show.  Their time is given alone and with the fill's.
// Build: nvcc -O3 -arch=sm_90 -use_fast_math -Xcompiler -fopenmp -Ibench/stencil \
//            bench/stencil/stencil_bench.cu -o stencil_bench   (OpenMP: host loops)
// Run:   ./stencil_bench [N...]   (default 384 512); prints one line per
// kernel: median ms of REPS launches, GB/s of the compulsory traffic
// (grid read + written once) and the speed-up over the row-major direct
// kernel.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define REPS 7

namespace b111 {
#include "b111.cuh"
}
namespace b888 {
#include "b888.cuh"
}
namespace b444 {
#include "b444.cuh"
}
namespace b884 {
#include "b884.cuh"
}
namespace b1644 {
#include "b1644.cuh"
}
namespace b4416 {
#include "b4416.cuh"
}
namespace b161616 {
#include "b161616.cuh"
}

typedef void kernel_fn(const float *, float *);
typedef void fill_fn(float *);

// One layout's kernels: [variant: direct, tiled, ghost][N = 384, 512][R][cube],
// and the ghost-zone fill [N][R]; ghost runs for bricks of at least 8^3.
struct layout {
	const char *name;
	int bx, by, bz;
	float *weights; // the layout's copy of the weights (constant memory)
	kernel_fn *k[3][2][5][2];
	fill_fn *fill[2][5];
};

#define BY_CUBE(ns, v, n, r) {ns::v<n, r, false>, ns::v<n, r, true>}
#define BY_R(ns, v, n)                                                     \
	{{nullptr, nullptr}, BY_CUBE(ns, v, n, 1), BY_CUBE(ns, v, n, 2),   \
	 BY_CUBE(ns, v, n, 3), BY_CUBE(ns, v, n, 4)}
#define BY_N(ns, v) {BY_R(ns, v, 384), BY_R(ns, v, 512)}
#define FILL_R(ns, n)                                                      \
	{nullptr, ns::fill<n, 1>, ns::fill<n, 2>, ns::fill<n, 3>, ns::fill<n, 4>}
#define LAYOUT(ns, x, y, z)                                                \
	{#x "x" #y "x" #z, x, y, z, nullptr,                               \
	 {BY_N(ns, direct), BY_N(ns, tiled), BY_N(ns, ghost)},             \
	 {FILL_R(ns, 384), FILL_R(ns, 512)}}

static layout layouts[] = {
	LAYOUT(b111, 1, 1, 1),  LAYOUT(b888, 8, 8, 8),   LAYOUT(b444, 4, 4, 4),
	LAYOUT(b884, 8, 8, 4),  LAYOUT(b1644, 16, 4, 4), LAYOUT(b4416, 4, 4, 16),
	LAYOUT(b161616, 16, 16, 16),
};
static const char *const variants[] = {"direct", "tiled", "ghost"};

static void find_weights()
{
	cudaGetSymbolAddress((void **)&layouts[0].weights, b111::weights);
	cudaGetSymbolAddress((void **)&layouts[1].weights, b888::weights);
	cudaGetSymbolAddress((void **)&layouts[2].weights, b444::weights);
	cudaGetSymbolAddress((void **)&layouts[3].weights, b884::weights);
	cudaGetSymbolAddress((void **)&layouts[4].weights, b1644::weights);
	cudaGetSymbolAddress((void **)&layouts[5].weights, b4416::weights);
	cudaGetSymbolAddress((void **)&layouts[6].weights, b161616::weights);
}

// The brick index of (x, y, z), by hand: bricks row-major, points
// row-major inside a brick.
static long brick_index(const layout &l, long n, long x, long y, long z)
{
	const long brick = (x / l.bx * (n / l.by) + y / l.by) * (n / l.bz) + z / l.bz;
	return brick * l.bx * l.by * l.bz + (x % l.bx * l.by + y % l.by) * l.bz + z % l.bz;
}

// The ghost-zone index of (x, y, z), by hand: bricks row-major, each
// (bx + 2r) x (by + 2r) x (bz + 2r) points row-major, the brick's own
// points from (r, r, r).
static long ghost_size(const layout &l, long n, int r)
{
	return n / l.bx * (n / l.by) * (n / l.bz) * (l.bx + 2 * r) * (l.by + 2 * r) * (l.bz + 2 * r);
}

static long ghost_index(const layout &l, long n, int r, long x, long y, long z)
{
	const long brick = (x / l.bx * (n / l.by) + y / l.by) * (n / l.bz) + z / l.bz;
	const long py = l.by + 2 * r, pz = l.bz + 2 * r;
	return brick * (l.bx + 2 * r) * py * pz + ((x % l.bx + r) * py + y % l.by + r) * pz + z % l.bz + r;
}

// Weights: cube (2R+1)^3 row-major; star: centre, then 2R per axis.
static std::vector<float> weights(int r, bool cube)
{
	const int m = 2 * r + 1;
	std::vector<float> w;
	if (cube) {
		for (int a = 0; a < m; a++)
			for (int b = 0; b < m; b++)
				for (int c = 0; c < m; c++) {
					const int d2 = (a - r) * (a - r) + (b - r) * (b - r) +
						       (c - r) * (c - r);
					w.push_back(1.0f / (1.0f + d2));
				}
	} else {
		w.push_back(-6.0f * r);
		for (int axis = 0; axis < 3; axis++)
			for (int d = -r; d <= r; d++)
				if (d)
					w.push_back(1.0f / (float)std::abs(d) + 0.1f * axis);
	}
	return w;
}

// The stencil at (x, y, z) of the row-major grid h, in double.
static double reference(const float *h, long n, int r, bool cube,
			const std::vector<float> &w, long x, long y, long z)
{
	auto at = [&](long i, long j, long k) { return (double)h[(i * n + j) * n + k]; };
	double s = 0;
	if (cube) {
		int q = 0;
		for (int a = -r; a <= r; a++)
			for (int b = -r; b <= r; b++)
				for (int c = -r; c <= r; c++)
					s += w[q++] * at(x + a, y + b, z + c);
		return s;
	}
	s = w[0] * at(x, y, z);
	int q = 1;
	for (int axis = 0; axis < 3; axis++)
		for (int d = -r; d <= r; d++)
			if (d)
				s += w[q++] * at(x + (axis == 0) * d, y + (axis == 1) * d,
						 z + (axis == 2) * d);
	return s;
}

// Median ms of REPS runs of launch() (after one untimed run).
template <class F> static float time_launch(F launch)
{
	launch();
	std::vector<float> t;
	cudaEvent_t t0, t1;
	cudaEventCreate(&t0);
	cudaEventCreate(&t1);
	for (int i = 0; i < REPS; i++) {
		cudaEventRecord(t0);
		launch();
		cudaEventRecord(t1);
		cudaEventSynchronize(t1);
		float ms;
		cudaEventElapsedTime(&ms, t0, t1);
		t.push_back(ms);
	}
	cudaEventDestroy(t0);
	cudaEventDestroy(t1);
	std::sort(t.begin(), t.end());
	return t[REPS / 2];
}

static bool sampled(long n, long x, long y, long z, long p)
{
	return p % 97 == 0 || ((x < 8 || x >= n - 8) && (y < 8 || y >= n - 8) && (z < 8 || z >= n - 8));
}

// One stencil, one size, one radius: every layout and variant, the
// row-major direct kernel first (the reference of the others).  Returns
// the number of wrong kernels.
static int bench(int n, int r, bool cube, const float *h, float *din, float *dout)
{
	const long size = (long)n * n * n;
	const int s = n == 384 ? 0 : 1;
	const int blocks = (n / 8) * (n / 8) * (n / 8);
	const std::vector<float> w = weights(r, cube);
	std::vector<float> ref(size), got(size), buf;
	int bad = 0;
	double ms_row = 0;
	for (const layout &l : layouts) {
		cudaMemcpy(l.weights, w.data(), sizeof(float) * w.size(), cudaMemcpyHostToDevice);
		for (int v = 0; v < 3; v++) {
			const bool ghost = v == 2;
			if (ghost && (l.bx < 8 || l.by < 8 || l.bz < 8))
				continue;
			// The input in the layout (NaN in the ghost margins), its
			// index by hand.
			auto at = [&](long x, long y, long z) {
				return ghost ? ghost_index(l, n, r, x, y, z) : brick_index(l, n, x, y, z);
			};
			const long total = ghost ? ghost_size(l, n, r) : size;
			buf.assign(total, ghost ? NAN : 0.0f);
#pragma omp parallel for
			for (long x = 0; x < n; x++)
				for (long y = 0; y < n; y++)
					for (long z = 0; z < n; z++)
						buf[at(x, y, z)] = h[(x * n + y) * n + z];
			cudaMemcpy(din, buf.data(), sizeof(float) * total, cudaMemcpyHostToDevice);
			const bool first = l.bx == 1 && v == 0;
			cudaMemset(dout, 0, sizeof(float) * total);
			float ms_fill = 0;
			if (ghost) {
				fill_fn *f = l.fill[s][r];
				ms_fill = time_launch([&] { f<<<(total + 511) / 512, 512>>>(din); });
			}
			kernel_fn *k = l.k[v][s][r][cube];
			const float ms = time_launch([&] { k<<<blocks, 512>>>(din, dout); });
			cudaMemcpy(buf.data(), dout, sizeof(float) * total, cudaMemcpyDeviceToHost);
			bool ok = cudaGetLastError() == cudaSuccess;
			long wrong = 0;
			double worst = 0;
#pragma omp parallel for reduction(+ : wrong) reduction(max : worst)
			for (long x = 0; x < n; x++)
				for (long y = 0; y < n; y++)
					for (long z = 0; z < n; z++) {
						const long p = (x * n + y) * n + z;
						got[p] = buf[at(x, y, z)];
						if (!first) {
							wrong += !(got[p] == ref[p]);
							continue;
						}
						const bool inner = x >= r && x < n - r && y >= r &&
								   y < n - r && z >= r && z < n - r;
						if (!inner) {
							wrong += got[p] != 0.0f;
						} else if (sampled(n, x, y, z, p)) {
							const double e = reference(h, n, r, cube, w, x, y, z);
							const double d = std::fabs(got[p] - e) / (1 + std::fabs(e));
							worst = std::max(worst, d);
							wrong += !(d <= 1e-4);
						}
					}
			if (first) {
				ref = got;
				ms_row = ms;
			}
			ok = ok && wrong == 0;
			bad += !ok;
			printf("  %-5s N=%d R=%d %-8s %-10s %-6s %s %9.4f ms %7.1f GB/s  x%.2f vs row-major direct",
			       cube ? "cube" : "star", n, r, l.name, l.bx == 1 ? "row-major" : "bricks",
			       variants[v], ok ? "ok   " : "WRONG", ms, 2.0 * 4 * size / ms / 1e6,
			       ms_row / ms);
			if (ghost)
				printf("  (fill %.4f ms; with it %.4f ms, x%.2f)", ms_fill, ms + ms_fill,
				       ms_row / (ms + ms_fill));
			if (first)
				printf("  (sampled CPU check: max rel. error %.1e)", worst);
			if (wrong)
				printf("  (%ld points differ)", wrong);
			printf("\n");
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	printf("device: %s\n", p.name);
	find_weights();
	std::vector<int> sizes;
	for (int a = 1; a < argc; a++)
		sizes.push_back(atoi(argv[a]));
	if (sizes.empty())
		sizes = {384, 512};
	int bad = 0;
	for (int n : sizes) {
		if (n != 384 && n != 512) {
			fprintf(stderr, "stencil_bench: N must be 384 or 512, not %d\n", n);
			return 2;
		}
		const long size = (long)n * n * n;
		std::vector<float> h(size);
		srand(42);
		for (long i = 0; i < size; i++)
			h[i] = (float)rand() / RAND_MAX * 2.0f - 1.0f;
		// Room for the largest ghost-zone grid: 8^3 bricks padded by 4.
		const long room = size * 8;
		float *din, *dout;
		if (cudaMalloc(&din, sizeof(float) * room) != cudaSuccess ||
		    cudaMalloc(&dout, sizeof(float) * room) != cudaSuccess) {
			fprintf(stderr, "stencil_bench: cudaMalloc failed\n");
			return 2;
		}
		for (int r = 1; r <= 4; r++)
			for (int cube = 0; cube < 2; cube++)
				bad += bench(n, r, cube, h.data(), din, dout);
		cudaFree(din);
		cudaFree(dout);
	}
	printf(bad ? "FAILED: %d kernels wrong\n" : "all kernels correct\n", bad);
	return bad != 0;
}

/* gpu.cu - the Lift GPU study (bench/lift/README.md): each benchmark's Lift
 * program generated for CUDA (lego lift --target cuda, included from
 * lift_all.cuh, written by bench/lift/gpu.sh) beside the hand-written
 * reference of bench/lift/refs.cuh.  Every kernel is checked first (the
 * reference against plain C at sampled elements, the Lift kernel against
 * the reference everywhere); the Lift kernel's launch is tuned over block
 * sizes (and, for matmul, the tile sides of mmtiled), the best kept; times
 * are medians of 10 runs after 2 warm-ups, CUDA events.
 * Usage: gpu [QUICK]  (QUICK: small sizes, for a run that only checks);
 * LIFT_ONLY=NAME,.. in the environment runs only those benchmarks. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "lift_all.cuh"
#include "refs.cuh"

#define CK(x)                                                              \
	do {                                                               \
		cudaError_t e_ = (x);                                      \
		if (e_ != cudaSuccess) {                                   \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,  \
				cudaGetErrorString(e_));                   \
			exit(2);                                           \
		}                                                          \
	} while (0)

static unsigned seed = 12345u;
static float rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
}

static std::vector<float> randoms(size_t n)
{
	std::vector<float> v(n);
	for (auto &x : v)
		x = rnd();
	return v;
}

static float *dev(const std::vector<float> &v)
{
	float *p;
	CK(cudaMalloc((void **)&p, v.size() * sizeof(float)));
	CK(cudaMemcpy(p, v.data(), v.size() * sizeof(float),
		      cudaMemcpyHostToDevice));
	return p;
}

static float *dev_out(size_t n)
{
	float *p;
	CK(cudaMalloc((void **)&p, n * sizeof(float)));
	CK(cudaMemset(p, 0xff, n * sizeof(float))); /* NaN: unwritten shows */
	return p;
}

static std::vector<float> host(const float *d, size_t n)
{
	std::vector<float> v(n);
	CK(cudaMemcpy(v.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
	return v;
}

static float median_ms(const std::function<void()> &f)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int r = 0; r < 2; r++)
		f();
	CK(cudaDeviceSynchronize());
	std::vector<float> t;
	for (int r = 0; r < 10; r++) {
		CK(cudaEventRecord(a));
		f();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms);
	}
	CK(cudaGetLastError());
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

static int fails;

/* |got - want| within tol (1 + |want|) at every element (or the sampled
 * ones, want given as a function of the index). */
static int close_all(const char *what, const std::vector<float> &got,
		     const std::function<float(size_t)> &want, size_t nsample,
		     float tol)
{
	size_t n = got.size(), bad = 0;
	double worst = 0;
	for (size_t s = 0; s < (nsample ? nsample : n); s++) {
		size_t i = nsample ? (s * 2654435761u) % n : s;
		if (nsample && s == 0)
			i = n - 1;
		float w = want(i);
		double e = fabs((double)got[i] - w) / (1.0 + fabs(w));
		if (!(e <= tol)) {
			if (bad++ < 3)
				printf("  %s: element %zu: got %g, want %g\n", what,
				       i, got[i], w);
		}
		if (e > worst || e != e)
			worst = e;
	}
	if (bad)
		fails++;
	printf("  check %-34s %s (%zu %s, worst rel %.1e)\n", what,
	       bad ? "FAILED" : "ok", nsample ? nsample : n,
	       nsample ? "sampled" : "all", worst);
	return bad == 0;
}

struct config {
	dim3 grid, block;
	char name[48];
};

static unsigned sms; /* the device's multiprocessors */

/* 1-D launches of n work-items: blocks of 128 to 1024 covering them, and
 * blocks of 256 in 4, 8 or 16 waves a multiprocessor (the Lift loops
 * stride over the rest). */
static std::vector<config> configs1(size_t n)
{
	std::vector<config> c;
	for (unsigned b = 128; b <= 1024; b *= 2) {
		config k;
		k.block = dim3(b);
		k.grid = dim3((unsigned)((n + b - 1) / b));
		snprintf(k.name, sizeof k.name, "block %u", b);
		c.push_back(k);
	}
	for (unsigned w = 4; w <= 16; w *= 2)
		if ((size_t)sms * w * 256 < n) {
			config k;
			k.block = dim3(256);
			k.grid = dim3(sms * w);
			snprintf(k.name, sizeof k.name, "grid %u block 256", sms * w);
			c.push_back(k);
		}
	return c;
}

/* 2-D launches over an X x Y range. */
static std::vector<config> configs2(size_t X, size_t Y)
{
	static const unsigned shapes[][2] = {{32, 4}, {32, 8}, {32, 16}, {64, 4},
					     {128, 2}, {256, 1}};
	std::vector<config> c;
	for (auto &s : shapes) {
		config k;
		k.block = dim3(s[0], s[1]);
		k.grid = dim3((unsigned)((X + s[0] - 1) / s[0]),
			      (unsigned)((Y + s[1] - 1) / s[1]));
		snprintf(k.name, sizeof k.name, "block %ux%u", s[0], s[1]);
		c.push_back(k);
	}
	return c;
}

/* The one launch of a kernel tiled T x T over an X x Y range (X, Y
 * multiples of T): a block a tile. */
static std::vector<config> tiles(size_t X, size_t Y, unsigned T)
{
	std::vector<config> c(1);
	c[0].grid = dim3((unsigned)(X / T), (unsigned)(Y / T));
	c[0].block = dim3(T, T);
	snprintf(c[0].name, sizeof c[0].name, "tile %u", T);
	return c;
}

/* The Lift kernel at every configuration: the first checked against the
 * reference's output, the best time returned with its name. */
static float tune(const char *what, const std::vector<config> &cs,
		  const std::function<void(const config &)> &launch, float *out,
		  const std::vector<float> &ref, float tol, char *best_name,
		  const std::function<float(size_t)> &want = nullptr)
{
	float best = 1e30f;
	for (const config &c : cs) {
		CK(cudaMemset(out, 0xff, ref.size() * sizeof(float)));
		launch(c);
		CK(cudaGetLastError());
		CK(cudaDeviceSynchronize());
		char label[96];
		snprintf(label, sizeof label, "lift %s, %s", what, c.name);
		if (!close_all(label, host(out, ref.size()),
			       want ? want : [&](size_t i) { return ref[i]; }, 0,
			       tol))
			continue;
		float ms = median_ms([&] { launch(c); });
		printf("  lift %-28s %-14s %9.4f ms\n", what, c.name, ms);
		if (ms < best) {
			best = ms;
			snprintf(best_name, 48, "%s", c.name);
		}
	}
	return best;
}

/* The kernels with their sizes compile-time constants (gpu.sh: fixed),
 * at the full sizes only: launched directly over the same configs. */
#define FIXED(what, ns, kern, cs, tol, ...)                                \
	if (!quick)                                                        \
		keep_best(&lms, cfg, tune(what ", sizes fixed", cs,        \
					  [&](const config &c) {           \
			ns::kern<<<c.grid, c.block>>>(__VA_ARGS__);        \
		}, o, ref, tol, cfg2), what ", sizes fixed", cfg2);

/* The benchmark is run: LIFT_ONLY unset, or naming it. */
static bool chosen(const char *only, const char *name)
{
	return !only || strstr(only, name);
}

/* Keeps a variant's time t (and its name, with its launch) if better. */
static void keep_best(float *best, char *cfg, float t, const char *variant,
		      const char *launch)
{
	if (t < *best) {
		*best = t;
		snprintf(cfg, 48, "%s %s", variant, launch);
	}
}

static void row(const char *bench, const char *size, float ref_ms,
		float lift_ms, const char *lift_cfg, const char *extra)
{
	printf("RESULT %-10s %-16s ref %9.4f ms  lift %9.4f ms (%s)  lift/ref "
	       "speed %.2fx%s\n", bench, size, ref_ms, lift_ms, lift_cfg,
	       ref_ms / lift_ms, extra);
}

static float copy_gbs(size_t n)
{
	float *a, *b;
	CK(cudaMalloc((void **)&a, n * sizeof(float)));
	CK(cudaMalloc((void **)&b, n * sizeof(float)));
	CK(cudaMemset(a, 0, n * sizeof(float)));
	size_t n4 = n / 4;
	float ms = median_ms([&] {
		ref_copy<<<(unsigned)((n4 + 255) / 256), 256>>>(
			(const float4 *)a, (float4 *)b, n4);
	});
	CK(cudaFree(a));
	CK(cudaFree(b));
	return 2.0f * n * sizeof(float) / ms / 1e6f;
}

int main(int argc, char **argv)
{
	int quick = argc > 1;
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	sms = (unsigned)prop.multiProcessorCount;
	printf("device: %s%s\n", prop.name, quick ? " (quick sizes)" : "");
	char cfg[48];
	const char *only = getenv("LIFT_ONLY");

	if (chosen(only, "dot")) { /* dot: partial sums of chunks of 4 */
		int N = quick ? 1 << 12 : 1 << 24;
		auto x = randoms(N), y = randoms(N);
		float *dx = dev(x), *dy = dev(y), *o = dev_out(N / 4),
		      *r = dev_out(N / 4);
		auto rl = [&] {
			ref_dot<<<(N / 4 + 255) / 256, 256>>>((const float4 *)dx,
							     (const float4 *)dy,
							     r, N / 4);
		};
		rl();
		auto ref = host(r, N / 4);
		close_all("ref dot", ref, [&](size_t i) {
			float s = 0;
			for (int j = 0; j < 4; j++)
				s += x[4 * i + j] * y[4 * i + j];
			return s;
		}, 4096, 1e-5f);
		float rms = median_ms(rl);
		float lms = tune("dot", configs1(N / 4), [&](const config &c) {
			ex_dot::partialDot_launch(dx, dy, o, N, c.grid, c.block, 0);
		}, o, ref, 1e-5f, cfg);
		/* dotvec.lift: 16-byte loads */
		char cfg2[48];
		keep_best(&lms, cfg, tune("dotvec", configs1(N / 4), [&](const config &c) {
			ex_dotvec::dotvec_launch(dx, dy, o, N, c.grid, c.block, 0);
		}, o, ref, 1e-5f, cfg2), "dotvec", cfg2);
		char sz[32], ex[64];
		snprintf(sz, sizeof sz, "N=%d", N);
		snprintf(ex, sizeof ex, "  lift %.0f GB/s, copy %.0f GB/s",
			 (2.0 * N + N / 4) * 4 / lms / 1e6, copy_gbs(N));
		row("dot", sz, rms, lms, cfg, ex);
		cudaFree(dx), cudaFree(dy), cudaFree(o), cudaFree(r);
	}
	if (chosen(only, "gemv")) { /* gemv */
		int M = quick ? 64 : 8192, K = quick ? 512 : 8192;
		auto A = randoms((size_t)M * K), x = randoms(K);
		float *dA = dev(A), *dx = dev(x), *o = dev_out(M), *r = dev_out(M);
		auto rl = [&] { ref_gemv<<<(M + 7) / 8, 256>>>(dA, dx, r, M, K); };
		rl();
		auto ref = host(r, M);
		close_all("ref gemv", ref, [&](size_t i) {
			double s = 0;
			for (int k = 0; k < K; k++)
				s += (double)A[i * K + k] * x[k];
			return (float)s;
		}, 256, 1e-4f);
		float rms = median_ms(rl);
		float lms = tune("gemv", configs1(M), [&](const config &c) {
			ex_gemv::gemv_launch(dA, dx, o, M, K, c.grid, c.block, 0);
		}, o, ref, 1e-4f, cfg);
		/* gemvwg.lift: a work-group a row, grids of M or fewer groups,
		 * with 32 to 1024 partial sums a row (gpu.sh) */
		std::vector<config> cs;
		for (unsigned b = 32; b <= 256; b *= 2)
			for (unsigned g : {(unsigned)M, sms * 8, sms * 4}) {
				config k;
				k.block = dim3(b);
				k.grid = dim3(g);
				snprintf(k.name, sizeof k.name, "grid %u block %u", g, b);
				cs.push_back(k);
			}
		char cfg2[48];
#define GEMVWG(W)                                                          \
	if (K % W == 0)                                                    \
	keep_best(&lms, cfg, tune("gemvwg" #W, cs, [&](const config &c) {  \
		ex_gemvwg##W::gemvwg##W##_launch(dA, dx, o, M, K, c.grid,  \
						 c.block, 0);              \
	}, o, ref, 1e-4f, cfg2), "gemvwg" #W, cfg2);
		keep_best(&lms, cfg, tune("gemvwg", cs, [&](const config &c) {
			ex_gemvwg::gemvwg_launch(dA, dx, o, M, K, c.grid, c.block, 0);
		}, o, ref, 1e-4f, cfg2), "gemvwg256", cfg2);
		GEMVWG(32) GEMVWG(64) GEMVWG(128) GEMVWG(512) GEMVWG(1024)
		/* gemvvec.lift: gemvwg's pairs read as float4 vectors */
#define GEMVVEC(W)                                                         \
	if (K % (4 * W) == 0) {                                            \
		keep_best(&lms, cfg, tune("gemvvec" #W, cs,                \
					  [&](const config &c) {           \
			ex_gemvvec##W::gemvvec##W##_launch(dA, dx, o, M, K, \
							   c.grid, c.block, \
							   0);             \
		}, o, ref, 1e-4f, cfg2), "gemvvec" #W, cfg2);              \
		FIXED("gemvvec" #W, ex_gemvvec##W##_f, gemvvec##W##_f, cs, \
		      1e-4f, dA, dx, o)                                    \
	}
		GEMVVEC(64) GEMVVEC(128) GEMVVEC(256)
		FIXED("gemvwg64", ex_gemvwg64_f, gemvwg64_f, cs, 1e-4f, dA, dx, o)
		FIXED("gemvwg128", ex_gemvwg128_f, gemvwg128_f, cs, 1e-4f, dA, dx, o)
		FIXED("gemvwg256", ex_gemvwg_f, gemvwg_f, cs, 1e-4f, dA, dx, o)
		char sz[32], ex[64];
		snprintf(sz, sizeof sz, "%dx%d", M, K);
		snprintf(ex, sizeof ex, "  lift %.0f GB/s, copy %.0f GB/s",
			 (double)M * K * 4 / lms / 1e6, copy_gbs((size_t)M * K));
		row("gemv", sz, rms, lms, cfg, ex);
		cudaFree(dA), cudaFree(dx), cudaFree(o), cudaFree(r);
	}
	if (chosen(only, "matmul")) { /* matmul: matmul.lift, mmtiled.lift at tile sides 4..32, mmreg.lift
	   * at blocks of 2 x 2 to 8 x 8 a work-item, mmlocal.lift at several
	   * work-groups, blocks and slices (gpu.sh) */
		int n = quick ? 128 : 4096;
		auto A = randoms((size_t)n * n), B = randoms((size_t)n * n);
		float *dA = dev(A), *dB = dev(B), *o = dev_out((size_t)n * n),
		      *r = dev_out((size_t)n * n);
		auto rl = [&] {
			ref_matmul<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(dA, dB, r,
									 n, n, n);
		};
		rl();
		auto ref = host(r, (size_t)n * n);
		close_all("ref matmul", ref, [&](size_t i) {
			double s = 0;
			for (int k = 0; k < n; k++)
				s += (double)A[(i / n) * n + k] * B[k * n + i % n];
			return (float)s;
		}, 512, 1e-4f);
		float rms = median_ms(rl);
		float lms = tune("matmul", configs2(n, n), [&](const config &c) {
			ex_matmul::matmul_launch(dA, dB, o, n, n, n, c.grid, c.block,
						 0);
		}, o, ref, 1e-4f, cfg);
		char cfg2[48];
#define MMT(T)                                                             \
	{                                                                  \
		std::vector<config> cs = tiles(n, n, T);                   \
		keep_best(&lms, cfg, tune("mmtiled", cs, [&](const config &c) { \
			ex_mmtiled##T::mmtiled##T##_launch(dA, dB, o, n, n, n,  \
						      c.grid, c.block, 0); \
		}, o, ref, 1e-4f, cfg2), "mmtiled", cfg2);                 \
		keep_best(&lms, cfg, tune("mmtiled unrolled", cs,          \
					  [&](const config &c) {           \
			ex_mmtiled##T##_u::mmtiled##T##_u_launch(dA, dB, o, n, \
						n, n, c.grid, c.block, 0); \
		}, o, ref, 1e-4f, cfg2), "mmtiled unrolled", cfg2);        \
	}
		MMT(4) MMT(8) MMT(16) MMT(32)
#define MMREG(R)                                                           \
	{                                                                  \
		std::vector<config> cs = configs2(n / R, n / R);           \
		keep_best(&lms, cfg, tune("mmreg" #R, cs, [&](const config &c) { \
			ex_mmreg##R::mmreg##R##_launch(dA, dB, o, n, n, n,      \
						       c.grid, c.block, 0); \
		}, o, ref, 1e-4f, cfg2), "mmreg" #R, cfg2);                \
		FIXED("mmreg" #R, ex_mmreg##R##_f, mmreg##R##_f, cs, 1e-4f, \
		      dA, dB, o)                                           \
	}
		MMREG(2) MMREG(4) MMREG(8)
		/* mmlocal and mmvec: their one launch, a T x T group a tile
		 * of T * R; each also unrolled, each with its sizes fixed */
#define MMP(P, F, T, R, KT, U, WHAT)                                      \
	keep_best(&lms, cfg, tune(#P #F #T "x" #R "k" #KT WHAT, cs,        \
				  [&](const config &c) {                   \
		ex_##P##F##T##x##R##k##KT##U::P##F##T##x##R##k##KT##U##_launch( \
			dA, dB, o, n, n, n, c.grid, c.block, 0);           \
	}, o, ref, 1e-4f, cfg2), #P #F #T "x" #R "k" #KT WHAT, cfg2);      \
	FIXED(#P #F #T "x" #R "k" #KT WHAT, ex_##P##F##T##x##R##k##KT##U##_f, \
	      P##F##T##x##R##k##KT##U##_f, cs, 1e-4f, dA, dB, o)
#define MMLOCAL(P, F, T, R, KT)                                           \
	{                                                                  \
		std::vector<config> cs = tiles(n, n, T * R);               \
		cs[0].block = dim3(T, T);                                  \
		MMP(P, F, T, R, KT, , "")                                  \
		MMP(P, F, T, R, KT, _u, " unrolled")                       \
	}
#define MMLOCALS(P, T, R, KT) MMLOCAL(P, , T, R, KT) MMLOCAL(P, w, T, R, KT)
		MMLOCALS(mmlocal, 16, 4, 16) MMLOCALS(mmlocal, 16, 4, 8)
		MMLOCALS(mmlocal, 16, 8, 8) MMLOCALS(mmlocal, 16, 8, 16)
		MMLOCALS(mmlocal, 8, 8, 8) MMLOCALS(mmlocal, 8, 8, 16)
		/* mmvec double-buffered, and not (form s) */
		MMLOCAL(mmvec, , 16, 8, 16) MMLOCAL(mmvec, s, 16, 8, 16)
		MMLOCAL(mmvec, , 16, 8, 8) MMLOCAL(mmvec, s, 16, 8, 8)
		/* mmvecv: A's tile copied by 16-byte loads */
		MMLOCAL(mmvecv, , 16, 8, 16) MMLOCAL(mmvecv, , 16, 8, 8)
		FIXED("matmul", ex_matmul_f, matmul_f, configs2(n, n), 1e-4f, dA,
		      dB, o)
		char sz[32], ex[64];
		snprintf(sz, sizeof sz, "%d^3", n);
		snprintf(ex, sizeof ex, "  ref %.2f, lift %.2f TFLOP/s",
			 2.0 * n * n * n / rms / 1e9, 2.0 * n * n * n / lms / 1e9);
		row("matmul", sz, rms, lms, cfg, ex);
		cudaFree(dA), cudaFree(dB), cudaFree(o), cudaFree(r);
	}
	if (chosen(only, "nbody")) { /* nbody */
		int N = quick ? 300 : 32768;
		auto x = randoms(N), y = randoms(N), z = randoms(N), m = randoms(N);
		for (auto &v : m)
			v = fabsf(v);
		std::vector<float> sel = {0, 1, 2};
		float *dx = dev(x), *dy = dev(y), *dz = dev(z), *dm = dev(m),
		      *ds = dev(sel), *o = dev_out(3 * N), *r = dev_out(3 * N);
		auto rl = [&] {
			ref_nbody<<<(N + 255) / 256, 256>>>(dx, dy, dz, dm, r, N);
		};
		rl();
		auto ref = host(r, 3 * N);
		close_all("ref nbody", ref, [&](size_t i) {
			size_t b = i / 3;
			double s = 0;
			for (int j = 0; j < N; j++) {
				double d[3] = {x[j] - x[b], y[j] - y[b], z[j] - z[b]};
				double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] +
					    0.01;
				s += m[j] * d[i % 3] / (r2 * sqrt(r2));
			}
			return (float)s;
		}, 256, 1e-2f);
		float rms = median_ms(rl);
		float lms = tune("nbody", configs1(N), [&](const config &c) {
			ex_nbody::nbody_launch(dx, dy, dz, dm, ds, o, N, c.grid,
					       c.block, 0);
		}, o, ref, 1e-2f, cfg);
		char cfg2[48];
		FIXED("nbody", ex_nbody_f, nbody_f, configs1(N), 1e-2f, dx, dy,
		      dz, dm, ds, o)
		char sz[32];
		snprintf(sz, sizeof sz, "N=%d", N);
		row("nbody", sz, rms, lms, cfg, "");
		cudaFree(dx), cudaFree(dy), cudaFree(dz), cudaFree(dm);
		cudaFree(ds), cudaFree(o), cudaFree(r);
	}
	if (chosen(only, "kmeans")) { /* kmeans */
		int N = quick ? 1000 : 1 << 20, K = 16, F = 8;
		auto P = randoms((size_t)N * F), C = randoms((size_t)K * F);
		float *dP = dev(P), *dC = dev(C), *o = dev_out(N), *r = dev_out(N);
		auto rl = [&] {
			ref_kmeans<<<(N + 255) / 256, 256, K * F * sizeof(float)>>>(
				dP, dC, r, N, K, F);
		};
		rl();
		auto ref = host(r, N);
		/* the nearest cluster, or got's own when its distance is
		 * within 1e-5 of the least (contracted multiply-adds round
		 * differently, near ties may fall either way) */
		auto dist = [&](size_t i, int k) {
			float d = 0;
			for (int f = 0; f < F; f++)
				d += (P[i * F + f] - C[k * F + f]) *
				     (P[i * F + f] - C[k * F + f]);
			return d;
		};
		auto nearest = [&](const std::vector<float> &got, size_t i) {
			int arg = 0;
			for (int k = 1; k < K; k++)
				if (dist(i, k) < dist(i, arg))
					arg = k;
			int g = (int)got[i];
			return g >= 0 && g < K && got[i] == (float)g &&
				       dist(i, g) <= dist(i, arg) * (1 + 1e-5f)
				       ? got[i] : (float)arg;
		};
		close_all("ref kmeans", ref,
			  [&](size_t i) { return nearest(ref, i); }, 0, 0.0f);
		std::vector<float> lgot;
		float rms = median_ms(rl);
		float lms = tune("kmeans", configs1(N), [&](const config &c) {
			ex_kmeans::kmeans_launch(dP, dC, o, N, K, F, c.grid, c.block,
						 0);
		}, o, ref, 0.0f, cfg, [&](size_t i) {
			if (i == 0)
				lgot = host(o, N);
			return nearest(lgot, i);
		});
		char sz[48];
		snprintf(sz, sizeof sz, "N=%d K=%d F=%d", N, K, F);
		row("kmeans", sz, rms, lms, cfg, "");
		cudaFree(dP), cudaFree(dC), cudaFree(o), cudaFree(r);
	}
	if (chosen(only, "nn")) { /* nn */
		int N = quick ? 5000 : 1 << 24;
		auto la = randoms(N), lo = randoms(N);
		float *da = dev(la), *dl = dev(lo), *o = dev_out(N), *r = dev_out(N);
		auto rl = [&] {
			ref_nn<<<(N + 255) / 256, 256>>>(da, dl, 0.25f, -0.5f, r, N);
		};
		rl();
		auto ref = host(r, N);
		close_all("ref nn", ref, [&](size_t i) {
			return sqrtf((la[i] - 0.25f) * (la[i] - 0.25f) +
				     (lo[i] + 0.5f) * (lo[i] + 0.5f));
		}, 0, 1e-6f);
		float rms = median_ms(rl);
		float lms = tune("nn", configs1(N), [&](const config &c) {
			ex_nn::nn_launch(da, dl, 0.25f, -0.5f, o, N, c.grid, c.block,
					 0);
		}, o, ref, 1e-6f, cfg);
		/* nnvec.lift: 16-byte loads and stores, N / 4 work-items */
		char cfg2[48];
		keep_best(&lms, cfg, tune("nnvec", configs1(N / 4), [&](const config &c) {
			ex_nnvec::nnvec_launch(da, dl, 0.25f, -0.5f, o, N, c.grid,
					       c.block, 0);
		}, o, ref, 1e-6f, cfg2), "nnvec", cfg2);
		char sz[32], ex[64];
		snprintf(sz, sizeof sz, "N=%d", N);
		snprintf(ex, sizeof ex, "  lift %.0f GB/s, copy %.0f GB/s",
			 3.0 * N * 4 / lms / 1e6, copy_gbs(N));
		row("nn", sz, rms, lms, cfg, ex);
		cudaFree(da), cudaFree(dl), cudaFree(o), cudaFree(r);
	}
	/* the stencils: 2-D (conv2d 5 x 5 zero outside, Jacobi 2-D 3 x 3
	 * clamped) and Jacobi 3-D, each also against copy bandwidth */
	for (int s = 0; s < 3; s++) {
		if (!chosen(only, s == 0 ? "conv2d" : s == 1 ? "jacobi2d" : "jacobi3d"))
			continue;
		int M = quick ? 100 : 8192, N = quick ? 130 : 8192, L = 1;
		if (s == 2) {
			L = quick ? 20 : 512;
			M = quick ? 30 : 512;
			N = quick ? 40 : 512;
		}
		size_t n = (size_t)L * M * N;
		int R = s == 0 ? 2 : 1, D = 2 * R + 1;
		auto A = randoms(n);
		std::vector<float> w;
		if (s < 2) {
			w = randoms((size_t)D * D);
		} else {
			w.assign(27, 0.0f);
			for (int k : {4, 10, 12, 13, 14, 16, 22})
				w[k] = 1.0f / 7.0f;
		}
		float *dA = dev(A), *dw = dev(w), *o = dev_out(n), *r = dev_out(n);
		const char *name = s == 0 ? "conv2d" : s == 1 ? "jacobi2d"
							    : "jacobi3d";
		std::function<void()> rl = [&] {
			dim3 g((N + 31) / 32, (M + 7) / 8);
			if (s == 0)
				ref_stencil2d<2, 0><<<g, dim3(32, 8)>>>(dA, dw, r, M, N);
			else if (s == 1)
				ref_stencil2d<1, 1><<<g, dim3(32, 8)>>>(dA, dw, r, M, N);
			else
				ref_jacobi3d<<<g, dim3(32, 8)>>>(dA, dw, r, L, M, N);
		};
		rl();
		auto ref = host(r, n);
		close_all(s == 0 ? "ref conv2d" : s == 1 ? "ref jacobi2d"
							  : "ref jacobi3d",
			  ref, [&](size_t i) {
			int z = (int)(i / ((size_t)M * N)), y = (int)(i / N % M),
			    x = (int)(i % N);
			float acc = 0;
			for (int c = 0; c < D; c++)
				for (int a = 0; a < D; a++)
					for (int b = 0; b < D; b++) {
						if (s < 2 && c > 0)
							continue;
						int zz = s < 2 ? z : z + c - 1;
						int yy = y + a - R, xx = x + b - R;
						int in = zz >= 0 && zz < L && yy >= 0 &&
							 yy < M && xx >= 0 && xx < N;
						zz = zz < 0 ? 0 : zz >= L ? L - 1 : zz;
						yy = yy < 0 ? 0 : yy >= M ? M - 1 : yy;
						xx = xx < 0 ? 0 : xx >= N ? N - 1 : xx;
						float v = s == 0 && !in ? 0.0f
							: A[((size_t)zz * M + yy) * N + xx];
						acc += v * w[(s < 2 ? 0 : c * 9) + a * D + b];
					}
			return acc;
		}, 4096, 1e-4f);
		float rms = median_ms(rl);
		float lms = tune(name, configs2(N, M), [&](const config &c) {
			if (s == 0)
				ex_conv2d::conv2d_launch(dA, dw, o, M, N, c.grid, c.block, 0);
			else if (s == 1)
				ex_stencil2d::stencil2d_launch(dA, dw, o, M, N, c.grid,
							       c.block, 0);
			else
				ex_jacobi3d::jacobi3d_launch(dA, dw, o, L, M, N, c.grid,
							     c.block, 0);
		}, o, ref, 1e-4f, cfg);
		/* the 2-D stencils' reduction over the neighbourhood unrolled
		 * (gpu.sh) */
		char cfg2[48], what[32];
		snprintf(what, sizeof what, "%s unrolled", name);
		if (s < 2)
			keep_best(&lms, cfg, tune(what, configs2(N, M),
						  [&](const config &c) {
				if (s == 0)
					ex_conv2d_u::conv2d_u_launch(dA, dw, o, M, N,
								     c.grid, c.block, 0);
				else
					ex_stencil2d_u::stencil2d_u_launch(
						dA, dw, o, M, N, c.grid, c.block, 0);
			}, o, ref, 1e-4f, cfg2), "unrolled", cfg2);
#define CONVL(T)                                                           \
	{                                                                  \
		std::vector<config> cs = tiles(N, M, T);                   \
		keep_best(&lms, cfg, tune("conv2dlocal unrolled", cs,      \
					  [&](const config &c) {           \
			ex_conv2dlocal##T::conv2dlocal##T##_launch(dA, dw, o, M, \
						N, c.grid, c.block, 0);    \
		}, o, ref, 1e-4f, cfg2), "conv2dlocal unrolled", cfg2);    \
	}
		if (s == 0 && M % 32 == 0 && N % 32 == 0) {
			CONVL(8) CONVL(16) CONVL(32)
		}
		if (s == 0) {
			FIXED("conv2d unrolled", ex_conv2d_f, conv2d_f,
			      configs2(N, M), 1e-4f, dA, dw, o)
		} else if (s == 2) {
			FIXED("jacobi3d", ex_jacobi3d_f, jacobi3d_f,
			      configs2(N, M), 1e-4f, dA, dw, o)
			/* jacobi3dz: the planes in parallel too (to-glb of the
			 * z map), a plane or 8 a block along z */
			std::vector<config> cs;
			for (unsigned zd : {1u, 8u})
				for (config k : configs2(N, M)) {
					k.grid.z = (unsigned)L / zd;
					snprintf(k.name + strlen(k.name),
						 sizeof k.name - strlen(k.name),
						 ", z %u", zd);
					cs.push_back(k);
				}
			keep_best(&lms, cfg, tune("jacobi3dz", cs, [&](const config &c) {
				ex_jacobi3dz::jacobi3dz_launch(dA, dw, o, L, M, N,
							       c.grid, c.block, 0);
			}, o, ref, 1e-4f, cfg2), "jacobi3dz", cfg2);
			FIXED("jacobi3dz", ex_jacobi3dz_f, jacobi3dz_f, cs, 1e-4f,
			      dA, dw, o)
		}
		float cgbs = copy_gbs(n);
		float lgbs = 2.0f * n * sizeof(float) / lms / 1e6f;
		char sz[48], ex[96];
		if (s < 2)
			snprintf(sz, sizeof sz, "%dx%d", M, N);
		else
			snprintf(sz, sizeof sz, "%dx%dx%d", L, M, N);
		snprintf(ex, sizeof ex, "  lift %.0f GB/s, copy %.0f GB/s, "
			 "lift/copy %.2f", lgbs, cgbs, lgbs / cgbs);
		row(name, sz, rms, lms, cfg, ex);
		cudaFree(dA), cudaFree(dw), cudaFree(o), cudaFree(r);
	}
	if (chosen(only, "md")) { /* md: atoms on a 64 x 64 x .. lattice of side 0.3, jittered by
	   * up to 0.1 (no two closer than 0.1), the neighbours of i the
	   * atoms i + 1 + 2k (mod N), those within the cutoff counted */
		int N = quick ? 5000 : 1 << 18, K = quick ? 16 : 128;
		std::vector<float> x(N), y(N), z(N), sel = {0, 1, 2};
		for (int i = 0; i < N; i++) {
			x[i] = 0.3f * (i % 64) + 0.1f * rnd();
			y[i] = 0.3f * (i / 64 % 64) + 0.1f * rnd();
			z[i] = 0.3f * (i / 4096) + 0.1f * rnd();
		}
		std::vector<int> nbh((size_t)N * K);
		for (int i = 0; i < N; i++)
			for (int k = 0; k < K; k++)
				nbh[(size_t)i * K + k] = (i + 1 + 2 * k) % N;
		const float cutsq = 1.5f, lj1 = 0.5f, lj2 = 1.0f;
		int *dn;
		CK(cudaMalloc((void **)&dn, nbh.size() * sizeof(int)));
		CK(cudaMemcpy(dn, nbh.data(), nbh.size() * sizeof(int),
			      cudaMemcpyHostToDevice));
		float *dx = dev(x), *dy = dev(y), *dz = dev(z), *ds = dev(sel),
		      *o = dev_out(3 * N), *r = dev_out(3 * N);
		auto rl = [&] {
			ref_md<<<(N + 255) / 256, 256>>>(dx, dy, dz, dn, cutsq, lj1,
							 lj2, r, N, K);
		};
		rl();
		auto ref = host(r, 3 * N);
		close_all("ref md", ref, [&](size_t i) {
			size_t a = i / 3;
			double f = 0;
			for (int k = 0; k < K; k++) {
				int j = nbh[a * K + k];
				double d[3] = {(double)x[a] - x[j], (double)y[a] - y[j],
					       (double)z[a] - z[j]};
				double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
				if (r2 >= cutsq)
					continue;
				double r6 = 1 / (r2 * r2 * r2);
				f += d[i % 3] / r2 * r6 * (lj1 * r6 - lj2);
			}
			return (float)f;
		}, 4096, 1e-3f);
		float rms = median_ms(rl);
		float lms = tune("md", configs1(N), [&](const config &c) {
			ex_md::md_launch(dx, dy, dz, dn, ds, cutsq, lj1, lj2, o, N, K,
					 c.grid, c.block, 0);
		}, o, ref, 1e-3f, cfg);
		char cfg2[48];
		FIXED("md", ex_md_f, md_f, configs1(N), 1e-3f, dx, dy, dz, dn,
		      ds, cutsq, lj1, lj2, o)
		char sz[32];
		snprintf(sz, sizeof sz, "N=%d K=%d", N, K);
		row("md", sz, rms, lms, cfg, "");
		cudaFree(dx), cudaFree(dy), cudaFree(dz), cudaFree(dn);
		cudaFree(ds), cudaFree(o), cudaFree(r);
	}
	printf("%s\n", fails ? "SOME CHECKS FAILED" : "all checks ok");
	return fails != 0;
}

// gpu.cu - checks and times one kernel of `lego mdh --target cuda` on the
// GPU.  Built per variant: nvcc -DKERNEL='"k.cu"' -DBENCH_matvec|matmul.
// Usage: gpu LABEL SIZES...  Prints one line: label, ms (median of 20),
// the rate, the device-to-device copy bandwidth, and the check.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include KERNEL

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

int main(int argc, char **argv)
{
	const char *label = argv[1];
	int s[3] = {0, 0, 0};
	for (int i = 2; i < argc && i < 5; i++)
		s[i - 2] = atoi(argv[i]);
#if defined(BENCH_matvec)
	int I = s[0], K = s[1];
	std::vector<float> M = randoms((size_t)I * K, 1), v = randoms(K, 2);
	float *dM = dev(M), *dv = dev(v), *dw, *ds;
	size_t nout = I;
	CK(cudaMalloc(&dw, nout * sizeof(float)));
	CK(cudaMalloc(&ds, matvec_scratch_len(I, K) * sizeof(float)));
	auto run = [&] { CK(matvec_launch(dM, dv, dw, ds, I, K)); };
	double bytes = 4.0 * ((double)I * K + K + I), flops = 2.0 * I * K;
	size_t copy_elems = (size_t)I * K;
#elif defined(BENCH_matmul)
	int Mm = s[0], N = s[1], K = s[2];
	std::vector<float> A = randoms((size_t)Mm * K, 1), B = randoms((size_t)K * N, 2);
	float *dA = dev(A), *dB = dev(B), *dC, *ds;
	size_t nout = (size_t)Mm * N;
	CK(cudaMalloc(&dC, nout * sizeof(float)));
	CK(cudaMalloc(&ds, matmul_scratch_len(Mm, N, K) * sizeof(float)));
	auto run = [&] { CK(matmul_launch(dA, dB, dC, ds, Mm, N, K)); };
	double bytes = 4.0 * ((double)Mm * K + (double)K * N + nout), flops = 2.0 * Mm * N * K;
	size_t copy_elems = (size_t)Mm * K;
	float *dw = dC;
#endif
	// check: output poisoned (NaN) first, reference in double
	CK(cudaMemset(dw, 0xff, nout * sizeof(float)));
	run();
	CK(cudaDeviceSynchronize());
	std::vector<float> got(nout);
	CK(cudaMemcpy(got.data(), dw, nout * sizeof(float), cudaMemcpyDeviceToHost));
	double err = 0, norm = 0;
	size_t checked = 0;
	for (size_t e = 0; e < nout; e += (nout > 4096 ? nout / 4093 : 1)) {
		double r = 0;
#if defined(BENCH_matvec)
		for (int k = 0; k < K; k++)
			r += (double)M[e * K + k] * v[k];
#else
		size_t i = e / N, j = e % N;
		for (int k = 0; k < K; k++)
			r += (double)A[i * K + k] * B[(size_t)k * N + j];
#endif
		err += (got[e] - r) * (got[e] - r);
		norm += r * r;
		checked++;
	}
	double rel = std::sqrt(err / norm);
	int ok = rel < 1e-4 && !std::isnan(rel);
	double ms = median_ms(run);
	float *c1, *c2;
	CK(cudaMalloc(&c1, copy_elems * sizeof(float)));
	CK(cudaMalloc(&c2, copy_elems * sizeof(float)));
	double cms = median_ms([&] { CK(cudaMemcpyAsync(c2, c1, copy_elems * sizeof(float), cudaMemcpyDeviceToDevice)); });
	double copy_gbs = 2.0 * copy_elems * 4 / cms / 1e6;
	printf("%-44s %9.4f ms %8.1f GB/s %8.1f GFLOP/s  copy %7.1f GB/s  bw/copy %.2f  check %s (rel %.1e, %zu points)\n",
	       label, ms, bytes / ms / 1e6, flops / ms / 1e6, copy_gbs,
	       bytes / ms / 1e6 / copy_gbs, ok ? "ok" : "FAILED", rel, checked);
	return ok ? 0 : 1;
}

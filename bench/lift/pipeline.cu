/* pipeline.cu - an experiment (bench/lift/README.md), not Lift output:
 * the kernel that lego lift writes for mmvec16x8k16 with its sizes fixed
 * (ex_mmvec16x8k16_f.cu, from bench/lift/gpu.sh) beside the same kernel
 * software-pipelined by hand: two local slots a tile, the next slice's
 * values loaded into registers before the product over this slice and
 * stored into the other slot after it, one barrier a slice.  It measures
 * what a pipelined toLocal would be worth; every element of each result
 * is checked against the generated kernel's.  Since reduceSeqPipe
 * (docs/lift.md), mmvec.lift double-buffers its slices itself, so the
 * generated kernel is pipelined too: the two are now alike. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

#include <algorithm>
#include <vector>

#define M 4096
#define N 4096
#define K 4096
#include "ex_mmvec16x8k16_f.cu"

/* UNROLL: nvcc's unrolling of the k loop of a slice (1: rolled) */
template <int UNROLL>
__global__ __launch_bounds__(256) void mmpf(const float *__restrict__ A,
					    const float *__restrict__ B,
					    float *__restrict__ out)
{
	float p[64];
	__shared__ float la[2 * 2048];
	__shared__ float lb[2 * 2048];
	const int tx = threadIdx.x, ty = threadIdx.y;
	for (int i_0 = blockIdx.y; i_0 < M / 128; i_0 += gridDim.y)
	for (int i_1 = blockIdx.x; i_1 < N / 128; i_1 += gridDim.x) {
		for (int e = 0; e < 64; e++)
			p[e] = 0.0f;
		__syncthreads();
		for (int t = 0; t < 8; t++) {
			la[tx + 16 * t + 128 * ty] =
				A[ty + K * (tx + 16 * t + 128 * i_0)];
			lb[tx + 16 * t + 128 * ty] =
				B[tx + 16 * t + 128 * i_1 + N * ty];
		}
		__syncthreads();
		for (int s = 0; s < K / 16; s++) {
			float ra[8], rb[8];
			const int nx = s + 1 < K / 16;
			if (nx)
				for (int t = 0; t < 8; t++) {
					ra[t] = A[ty + 16 * (s + 1) +
						  K * (tx + 16 * t + 128 * i_0)];
					rb[t] = B[tx + 16 * t + 128 * i_1 +
						  N * (ty + 16 * (s + 1))];
				}
			const float *a = la + (s & 1) * 2048;
			const float *b = lb + (s & 1) * 2048;
#pragma unroll UNROLL
			for (int k = 0; k < 16; k++)
				for (int i = 0; i < 8; i++)
					for (int j = 0; j < 8; j++)
						p[j + 8 * i] +=
							a[4 * (ty + 16 * (i / 4)) + 128 * k + i % 4] *
							b[4 * (tx + 16 * (j / 4)) + 128 * k + j % 4];
			if (nx)
				for (int t = 0; t < 8; t++) {
					int o = ((s + 1) & 1) * 2048 + tx + 16 * t + 128 * ty;
					la[o] = ra[t];
					lb[o] = rb[t];
				}
			__syncthreads();
		}
		for (int i = 0; i < 8; i++)
			for (int j = 0; j < 8; j++)
				out[4 * (tx + 16 * (j / 4)) + 128 * i_1 +
				    N * (4 * ty + 64 * (i / 4) + 128 * i_0 + i % 4) +
				    j % 4] = p[j + 8 * i];
	}
}

typedef void (*kernel_fn)(const float *, const float *, float *);

/* median of 10 runs after 2 warm-ups, CUDA events */
static float median_ms(kernel_fn f, const float *a, const float *b, float *o)
{
	cudaEvent_t x, y;
	cudaEventCreate(&x);
	cudaEventCreate(&y);
	std::vector<float> t;
	for (int r = 0; r < 12; r++) {
		cudaEventRecord(x);
		f(a, b, o);
		cudaEventRecord(y);
		cudaEventSynchronize(y);
		float ms;
		cudaEventElapsedTime(&ms, x, y);
		if (r >= 2)
			t.push_back(ms);
	}
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

static const dim3 grid(N / 128, M / 128), block(16, 16);
static void gen(const float *a, const float *b, float *o)
{
	mmvec16x8k16_f<<<grid, block>>>(a, b, o);
}
static void pf1(const float *a, const float *b, float *o)
{
	mmpf<1><<<grid, block>>>(a, b, o);
}
static void pf4(const float *a, const float *b, float *o)
{
	mmpf<4><<<grid, block>>>(a, b, o);
}
static void pf16(const float *a, const float *b, float *o)
{
	mmpf<16><<<grid, block>>>(a, b, o);
}

int main(void)
{
	size_t n = (size_t)M * K;
	std::vector<float> h(n);
	unsigned s = 1;
	for (auto &v : h) {
		s = s * 1103515245u + 12345u;
		v = (float)((s >> 8) % 2001) / 1000.0f - 1.0f;
	}
	float *a, *b, *o1, *o2;
	cudaMalloc(&a, n * 4);
	cudaMalloc(&b, n * 4);
	cudaMalloc(&o1, n * 4);
	cudaMalloc(&o2, n * 4);
	cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice);
	cudaMemcpy(b, h.data(), n * 4, cudaMemcpyHostToDevice);
	gen(a, b, o1);
	std::vector<float> r1(n), r2(n);
	cudaMemcpy(r1.data(), o1, n * 4, cudaMemcpyDeviceToHost);
	struct {
		const char *name;
		kernel_fn f;
	} ks[] = {{"generated mmvec16x8k16, sizes fixed", gen},
		  {"pipelined, k loop rolled", pf1},
		  {"pipelined, k unrolled by 4", pf4},
		  {"pipelined, k unrolled", pf16}};
	int bad = 0;
	for (auto &k : ks) {
		cudaMemset(o2, 0xff, n * 4); /* NaN: an unwritten element fails */
		k.f(a, b, o2);
		cudaMemcpy(r2.data(), o2, n * 4, cudaMemcpyDeviceToHost);
		double worst = 0;
		for (size_t i = 0; i < n; i++) {
			double e = fabs((double)r2[i] - r1[i]) / (1 + fabs(r1[i]));
			if (!(e <= worst))
				worst = e;
		}
		float ms = median_ms(k.f, a, b, o2);
		bad += !(worst <= 1e-4);
		printf("%-40s %8.4f ms  %6.2f TFLOP/s  worst rel vs generated "
		       "%.1e%s\n", k.name, ms, 2.0 * M * N * K / ms / 1e9, worst,
		       worst <= 1e-4 ? "" : "  FAILED");
	}
	printf("%s\n", cudaGetErrorString(cudaGetLastError()));
	return bad != 0;
}

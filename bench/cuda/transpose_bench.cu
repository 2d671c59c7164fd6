// Transpose benchmark: out (N x M) = in^T (in M x N), float, both row-major.
// The first three kernels take their index expressions from liblego:
//   lego gen ../../examples/cuda/transpose.lego transpose_bench.cu.tpl \
//       --target cuda -D TILE=32 -o transpose_bench.cu
// (M, N stay symbolic: kernel parameters). The padded transpose, the copy
// through shared memory and the plain copy are hand-written references
// (the classic CUDA sample kernels).
// Build: nvcc -O3 -arch=sm_90 transpose_bench.cu -o transpose_bench
// Run:   ./transpose_bench 4096 8192 16384
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define ROWS 8
#define REPS 20

__global__ void transpose_naive(const float *__restrict__ in,
				float *__restrict__ out, int M, int N)
{
	for (int k = 0; k < 32; k += ROWS) {
		const int i = blockIdx.y * 32 + threadIdx.y + k;
		const int j = blockIdx.x * 32 + threadIdx.x;
		out[i + (long long)M * j] = in[j + (long long)N * i];
	}
}

__global__ void transpose_tile(const float *__restrict__ in,
			       float *__restrict__ out, int M, int N)
{
	__shared__ float tile[1024];
	const int c = threadIdx.x;
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + r;
		const int j = blockIdx.x * 32 + c;
		tile[c + 32 * r] = in[j + (long long)N * i];
	}
	__syncthreads();
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + c;
		const int j = blockIdx.x * 32 + r;
		out[i + (long long)M * j] = tile[r + 32 * c];
	}
}

__global__ void transpose_swizzle(const float *__restrict__ in,
				  float *__restrict__ out, int M, int N)
{
	__shared__ float tile[1024];
	const int c = threadIdx.x;
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + r;
		const int j = blockIdx.x * 32 + c;
		const int t58_0 = c + 32 * r;
		tile[t58_0 ^ (31 & (t58_0 >> 5))] = in[j + (long long)N * i];
	}
	__syncthreads();
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + c;
		const int j = blockIdx.x * 32 + r;
		const int t65_0 = r + 32 * c;
		out[i + (long long)M * j] = tile[t65_0 ^ (31 & (t65_0 >> 5))];
	}
}

// 64 x 64 tiles, 32 x 8 threads: each thread moves 2 x 8 elements, and
// every row segment read or written is 256 bytes.
__global__ void transpose_swizzle64(const float *__restrict__ in,
				    float *__restrict__ out, int M, int N)
{
	__shared__ float tile[4096];
	for (int h = 0; h < 64; h += 32) {
		const int cc = threadIdx.x + h;
		for (int k = 0; k < 64; k += ROWS) {
			const int rr = threadIdx.y + k;
			const int i = blockIdx.y * 64 + rr;
			const int j = blockIdx.x * 64 + cc;
			const int t81_0 = cc + 64 * rr;
			tile[t81_0 ^ (31 & (t81_0 >> 6))] = in[j + (long long)N * i];
		}
	}
	__syncthreads();
	for (int h = 0; h < 64; h += 32) {
		const int cc = threadIdx.x + h;
		for (int k = 0; k < 64; k += ROWS) {
			const int rr = threadIdx.y + k;
			const int i = blockIdx.y * 64 + cc;
			const int j = blockIdx.x * 64 + rr;
			const int t91_0 = rr + 64 * cc;
			out[i + (long long)M * j] = tile[t91_0 ^ (31 & (t91_0 >> 6))];
		}
	}
}

// The same with a padded 64 x 65 tile, by hand (the fair reference for the
// 64-tile swizzle).
__global__ void transpose_padded64(const float *__restrict__ in,
				   float *__restrict__ out, int M, int N)
{
	__shared__ float tile[64][65];
	for (int h = 0; h < 64; h += 32)
		for (int k = 0; k < 64; k += ROWS)
			tile[threadIdx.y + k][threadIdx.x + h] =
				in[(long)(blockIdx.y * 64 + threadIdx.y + k) * N +
				   blockIdx.x * 64 + threadIdx.x + h];
	__syncthreads();
	for (int h = 0; h < 64; h += 32)
		for (int k = 0; k < 64; k += ROWS)
			out[(long)(blockIdx.x * 64 + threadIdx.y + k) * M +
			    blockIdx.y * 64 + threadIdx.x + h] =
				tile[threadIdx.x + h][threadIdx.y + k];
}

// Hand-written references (CUDA samples, TILE 32, 32 x 8 threads).
__global__ void transpose_padded(const float *__restrict__ in,
				 float *__restrict__ out, int M, int N)
{
	__shared__ float tile[32][33];
	const int x = blockIdx.x * 32 + threadIdx.x;
	const int y = blockIdx.y * 32 + threadIdx.y;
	for (int k = 0; k < 32; k += ROWS)
		tile[threadIdx.y + k][threadIdx.x] = in[(long)(y + k) * N + x];
	__syncthreads();
	const int ox = blockIdx.y * 32 + threadIdx.x;
	const int oy = blockIdx.x * 32 + threadIdx.y;
	for (int k = 0; k < 32; k += ROWS)
		out[(long)(oy + k) * M + ox] = tile[threadIdx.x][threadIdx.y + k];
}

__global__ void copy_shared(const float *__restrict__ in,
			    float *__restrict__ out, int M, int N)
{
	__shared__ float tile[32][32];
	const int x = blockIdx.x * 32 + threadIdx.x;
	const int y = blockIdx.y * 32 + threadIdx.y;
	for (int k = 0; k < 32; k += ROWS)
		tile[threadIdx.y + k][threadIdx.x] = in[(long)(y + k) * N + x];
	__syncthreads();
	for (int k = 0; k < 32; k += ROWS)
		out[(long)(y + k) * N + x] = tile[threadIdx.y + k][threadIdx.x];
}

__global__ void copy_plain(const float *__restrict__ in,
			   float *__restrict__ out, int M, int N)
{
	const int x = blockIdx.x * 32 + threadIdx.x;
	const int y = blockIdx.y * 32 + threadIdx.y;
	for (int k = 0; k < 32; k += ROWS)
		out[(long)(y + k) * N + x] = in[(long)(y + k) * N + x];
}

typedef void kernel_fn(const float *, float *, int, int);

// Runs k, checks out against the CPU (transpose or copy), prints the median
// bandwidth (bytes read + written over time); returns it, or -1 if wrong.
static double run(kernel_fn *k, const char *name, bool is_copy, const float *din,
		  float *dout, const float *hin, float *hout, int n, int tile = 32)
{
	const long size = (long)n * n;
	dim3 grid(n / tile, n / tile), block(32, ROWS);
	cudaMemset(dout, 0, sizeof(float) * size);
	k<<<grid, block>>>(din, dout, n, n);
	cudaMemcpy(hout, dout, sizeof(float) * size, cudaMemcpyDeviceToHost);
	long bad = cudaGetLastError() != cudaSuccess;
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++)
			bad += hout[is_copy ? i * n + j : j * n + i] != hin[i * n + j];
	std::vector<float> t;
	cudaEvent_t t0, t1;
	cudaEventCreate(&t0);
	cudaEventCreate(&t1);
	for (int r = 0; r < REPS; r++) {
		cudaEventRecord(t0);
		k<<<grid, block>>>(din, dout, n, n);
		cudaEventRecord(t1);
		cudaEventSynchronize(t1);
		float ms;
		cudaEventElapsedTime(&ms, t0, t1);
		t.push_back(ms);
	}
	std::sort(t.begin(), t.end());
	const double ms = t[REPS / 2], gbs = 2.0 * sizeof(float) * size / ms / 1e6;
	printf("  %-22s %s  median %8.4f ms  %7.1f GB/s\n", name, bad ? "WRONG" : "ok", ms,
	       gbs);
	return bad ? -1 : gbs;
}

static int bench(int n)
{
	const long size = (long)n * n;
	float *hin = (float *)malloc(sizeof(float) * size);
	float *hout = (float *)malloc(sizeof(float) * size);
	for (long x = 0; x < size; x++)
		hin[x] = (float)(x % 16777213);
	float *din, *dout;
	cudaMalloc(&din, sizeof(float) * size);
	cudaMalloc(&dout, sizeof(float) * size);
	cudaMemcpy(din, hin, sizeof(float) * size, cudaMemcpyHostToDevice);
	printf("transpose %d x %d float (%d runs, median)\n", n, n, REPS);
	double g[8];
	g[0] = run(copy_plain, "plain copy (hand)", true, din, dout, hin, hout, n);
	g[1] = run(copy_shared, "copy via shared (hand)", true, din, dout, hin, hout, n);
	g[2] = run(transpose_naive, "naive (gen)", false, din, dout, hin, hout, n);
	g[3] = run(transpose_tile, "shared tile (gen)", false, din, dout, hin, hout, n);
	g[4] = run(transpose_padded, "padded tile (hand)", false, din, dout, hin, hout, n);
	g[5] = run(transpose_swizzle, "xor-swizzled (gen)", false, din, dout, hin, hout, n);
	g[6] = run(transpose_padded64, "padded 64 tile (hand)", false, din, dout, hin, hout, n,
		   64);
	g[7] = run(transpose_swizzle64, "xor-swizzled 64 (gen)", false, din, dout, hin, hout,
		   n, 64);
	printf("  swizzled / padded %.3f   swizzled / copy-via-shared %.3f\n", g[5] / g[4],
	       g[5] / g[1]);
	printf("  swizzled64 / padded %.3f   swizzled64 / padded64 %.3f   "
	       "swizzled64 / copy-via-shared %.3f\n",
	       g[7] / g[4], g[7] / g[6], g[7] / g[1]);
	cudaFree(din);
	cudaFree(dout);
	free(hin);
	free(hout);
	for (int k = 0; k < 8; k++)
		if (g[k] < 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	printf("device: %s\n", p.name);
	int bad = 0;
	for (int a = 1; a < argc; a++)
		bad |= bench(atoi(argv[a]));
	printf(bad ? "FAILED\n" : "all kernels correct\n");
	return bad;
}

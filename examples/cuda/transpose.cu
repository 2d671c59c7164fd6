// CUDA transpose: naive, through a shared tile, and through an
// XOR-swizzled shared tile.  The index expressions come from liblego:
//   lego gen transpose.lego transpose.cu.tpl --target cuda \
//       -D M=4096 -D N=4096 -D TILE=32 -o transpose.cu
//   nvcc -O3 -arch=sm_90 transpose.cu -o transpose && ./transpose
// Blocks of TILE x ROWS threads; each thread moves TILE / ROWS elements.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ROWS 8

__global__ void transpose_naive(const float *__restrict__ in,
				float *__restrict__ out)
{
	for (int k = 0; k < 32; k += ROWS) {
		const int i = blockIdx.y * 32 + threadIdx.y + k;
		const int j = blockIdx.x * 32 + threadIdx.x;
		out[i + 4096 * j] = in[j + 4096 * i];
	}
}

__global__ void transpose_tile(const float *__restrict__ in,
			       float *__restrict__ out)
{
	__shared__ float tile[1024];
	const int c = threadIdx.x;
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + r;
		const int j = blockIdx.x * 32 + c;
		tile[c + 32 * r] = in[j + 4096 * i];
	}
	__syncthreads();
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + c;
		const int j = blockIdx.x * 32 + r;
		out[i + 4096 * j] = tile[r + 32 * c];
	}
}

__global__ void transpose_swizzle(const float *__restrict__ in,
				  float *__restrict__ out)
{
	__shared__ float tile[1024];
	const int c = threadIdx.x;
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + r;
		const int j = blockIdx.x * 32 + c;
		tile[r ^ (c + 32 * r)] = in[j + 4096 * i];
	}
	__syncthreads();
	for (int k = 0; k < 32; k += ROWS) {
		const int r = threadIdx.y + k;
		const int i = blockIdx.y * 32 + c;
		const int j = blockIdx.x * 32 + r;
		out[i + 4096 * j] = tile[c ^ (r + 32 * c)];
	}
}

typedef void kernel_fn(const float *, float *);

// Runs k, checks out against the transpose, returns ms per launch.
static float run(kernel_fn *k, const char *name, const float *din,
		 float *dout, const float *hin, float *hout)
{
	const int m = 4096, n = 4096, tile = 32;
	dim3 grid(n / tile, m / tile), block(tile, ROWS);
	cudaMemset(dout, 0, sizeof(float) * m * n);
	k<<<grid, block>>>(din, dout);
	cudaMemcpy(hout, dout, sizeof(float) * m * n, cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			bad += hout[(long)j * m + i] != hin[(long)i * n + j];
	cudaEvent_t t0, t1;
	cudaEventCreate(&t0);
	cudaEventCreate(&t1);
	const int reps = 100;
	cudaEventRecord(t0);
	for (int r = 0; r < reps; r++)
		k<<<grid, block>>>(din, dout);
	cudaEventRecord(t1);
	cudaEventSynchronize(t1);
	float ms = 0;
	cudaEventElapsedTime(&ms, t0, t1);
	ms /= reps;
	printf("%-18s %s  %8.4f ms  %7.1f GB/s\n", name, bad ? "WRONG" : "ok",
	       ms, 2.0 * sizeof(float) * m * n / ms / 1e6);
	return bad ? -1 : ms;
}

int main(void)
{
	const long size = (long)4096 * 4096;
	float *hin = (float *)malloc(sizeof(float) * size);
	float *hout = (float *)malloc(sizeof(float) * size);
	for (long x = 0; x < size; x++)
		hin[x] = (float)(x % 65521);
	float *din, *dout;
	cudaMalloc(&din, sizeof(float) * size);
	cudaMalloc(&dout, sizeof(float) * size);
	cudaMemcpy(din, hin, sizeof(float) * size, cudaMemcpyHostToDevice);
	int bad = run(transpose_naive, "naive", din, dout, hin, hout) < 0;
	bad |= run(transpose_tile, "shared tile", din, dout, hin, hout) < 0;
	bad |= run(transpose_swizzle, "swizzled tile", din, dout, hin, hout) < 0;
	cudaFree(din);
	cudaFree(dout);
	free(hin);
	free(hout);
	return bad;
}

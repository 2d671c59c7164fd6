// Needleman-Wunsch tiles in CUDA, the paper's Arr2D: the kernel body
// indexes its shared score buffer as buff[i][j]; with a plain row-major
// buffer or, unchanged, through the anti-diagonal layout of
// examples/nw.lego, whose accessor liblego generates:
//   lego accessor ../nw.lego W --target cuda -D n=17 -o W.cuh
//   nvcc -O3 -arch=sm_90 -I. nw.cu -o nw && ./nw
// One block per (B+1) x (B+1) tile, one thread per row; the cells of an
// anti-diagonal (one wavefront step) are contiguous in the W layout.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "W.cuh"

#define B 16
#define N1 (B + 1)
#define GAP 2
#define MATCH 3
#define MISMATCH 1

__host__ __device__ static inline int max3(int a, int b, int c)
{
	int m = a > b ? a : b;
	return m > c ? m : c;
}

// The textbook recurrence over buff[i][j]: Buf is int (*)[N1] or W_arr.
template <class Buf>
__device__ void nw_tile(Buf buff, const char *sa, const char *sb)
{
	const int tid = threadIdx.x;
	for (int k = tid; k < N1; k += blockDim.x) {
		buff[k][0] = -GAP * k;
		buff[0][k] = -GAP * k;
	}
	__syncthreads();
	for (int d = 2; d <= 2 * B; d++) {
		const int i = tid + 1, j = d - i;
		if (j >= 1 && j <= B)
			buff[i][j] = max3(buff[i - 1][j - 1] +
						  (sa[i - 1] == sb[j - 1] ? MATCH
									  : -MISMATCH),
					  buff[i - 1][j] - GAP,
					  buff[i][j - 1] - GAP);
		__syncthreads();
	}
}

template <int ANTIDIAG>
__global__ void nw_kernel(const char *a, const char *b, int *out)
{
	__shared__ int base[N1 * N1];
	const long t = blockIdx.x;
	if (ANTIDIAG) {
		W_arr<int> buff{base};
		nw_tile(buff, a + t * B, b + t * B);
		for (int k = threadIdx.x; k < N1 * N1; k += blockDim.x)
			out[t * N1 * N1 + k] = buff[k / N1][k % N1];
	} else {
		int(*buff)[N1] = (int(*)[N1])base;
		nw_tile(buff, a + t * B, b + t * B);
		for (int k = threadIdx.x; k < N1 * N1; k += blockDim.x)
			out[t * N1 * N1 + k] = buff[k / N1][k % N1];
	}
}

static void reference(const char *sa, const char *sb, int *s)
{
	for (int k = 0; k < N1; k++)
		s[k * N1] = s[k] = -GAP * k;
	for (int i = 1; i < N1; i++)
		for (int j = 1; j < N1; j++)
			s[i * N1 + j] = max3(s[(i - 1) * N1 + j - 1] +
						     (sa[i - 1] == sb[j - 1] ? MATCH
									     : -MISMATCH),
					     s[(i - 1) * N1 + j] - GAP,
					     s[i * N1 + j - 1] - GAP);
}

template <int ANTIDIAG>
static int run(const char *name, const char *da, const char *db, int *dout,
	       const int *want, int *got, int ntiles)
{
	cudaMemset(dout, 0, sizeof(int) * ntiles * N1 * N1);
	nw_kernel<ANTIDIAG><<<ntiles, B>>>(da, db, dout);
	cudaMemcpy(got, dout, sizeof(int) * ntiles * N1 * N1,
		   cudaMemcpyDeviceToHost);
	long bad = 0;
	for (long x = 0; x < (long)ntiles * N1 * N1; x++)
		bad += got[x] != want[x];
	cudaEvent_t t0, t1;
	cudaEventCreate(&t0);
	cudaEventCreate(&t1);
	const int reps = 20;
	cudaEventRecord(t0);
	for (int r = 0; r < reps; r++)
		nw_kernel<ANTIDIAG><<<ntiles, B>>>(da, db, dout);
	cudaEventRecord(t1);
	cudaEventSynchronize(t1);
	float ms = 0;
	cudaEventElapsedTime(&ms, t0, t1);
	printf("%-12s %s  %8.4f ms\n", name, bad ? "WRONG" : "ok", ms / reps);
	return bad != 0;
}

int main(void)
{
	const int ntiles = 1 << 16;
	char *a = (char *)malloc((size_t)ntiles * B);
	char *b = (char *)malloc((size_t)ntiles * B);
	int *want = (int *)malloc(sizeof(int) * ntiles * N1 * N1);
	int *got = (int *)malloc(sizeof(int) * ntiles * N1 * N1);
	srand(1);
	for (long x = 0; x < (long)ntiles * B; x++) {
		a[x] = "ACGT"[rand() % 4];
		b[x] = "ACGT"[rand() % 4];
	}
	for (long t = 0; t < ntiles; t++)
		reference(a + t * B, b + t * B, want + t * N1 * N1);
	char *da, *db;
	int *dout;
	cudaMalloc(&da, (size_t)ntiles * B);
	cudaMalloc(&db, (size_t)ntiles * B);
	cudaMalloc(&dout, sizeof(int) * ntiles * N1 * N1);
	cudaMemcpy(da, a, (size_t)ntiles * B, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, (size_t)ntiles * B, cudaMemcpyHostToDevice);
	int bad = run<0>("row-major", da, db, dout, want, got, ntiles);
	bad |= run<1>("anti-diagonal", da, db, dout, want, got, ntiles);
	cudaFree(da);
	cudaFree(db);
	cudaFree(dout);
	free(a);
	free(b);
	free(want);
	free(got);
	return bad;
}

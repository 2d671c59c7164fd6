// probe.cu - where ncu's shared-memory "bank conflicts" of the generated GEMM
// come from.  It includes the kernel that `lego infer --cuda` wrote (gemm.cu)
// and runs its own shared-memory accesses (copy_sA/copy_sB: cp.async 16-byte
// writes; load_a/load_b: ldmatrix.x4 reads) over the same grid, stages and
// k-loop as gemm_tn, without the mma: the copies alone, the ldmatrix alone
// (on tiles copied once), and both interleaved as in the GEMM.  ncu then
// tells whether the extra wavefronts belong to an access (present alone) or
// to the overlap of the two (present only together).
#include "gemm.cu"
#include <stdio.h>
#include <stdlib.h>

template <bool COPY, bool LOAD>
static __device__ void probe_body(const half *A, const half *B, uint32_t *out,
				  int K)
{
	extern __shared__ __align__(128) unsigned char probe_smem[];
	half *sA = (half *)probe_smem, *sB = sA + 4 * 4096;
	const int tid = threadIdx.x, lane = tid % 32;
	const int wm = tid / 32 / 2, wn = tid / 32 % 2;
	const int bm = blockIdx.y, bn = blockIdx.x, KT = K / 32;
	uint32_t ra[32], rb[32], x = 0;
	const half *pa[4], *pb[4];
	copy_sA_from(pa, A, tid, bm, 0, K);
	copy_sB_from(pb, B, tid, bn, 0, K);
	for (int kt = 0; kt < 4; kt++) {
		copy_sA(sA + kt * 4096, pa, tid);
		copy_sB(sB + kt * 4096, pb, tid);
	}
	asm volatile("cp.async.commit_group;\n");
	asm volatile("cp.async.wait_group 0;\n");
	__syncthreads();
	// the loop's copies read steps 0 .. KT - 1 again
	copy_sA_from(pa, A, tid, bm, 0, K);
	copy_sB_from(pb, B, tid, bn, 0, K);
	for (int kt = 0; kt < KT; kt++) {
		const int st = kt % 4, ps = (kt + 3) % 4;
		if (COPY) {
			copy_sA(sA + ps * 4096, pa, tid);
			copy_sB(sB + ps * 4096, pb, tid);
			asm volatile("cp.async.commit_group;\n");
			asm volatile("cp.async.wait_group 2;\n");
		}
		if (LOAD) {
			load_a(ra, sA + st * 4096, lane, wm);
			load_b(rb, sB + st * 4096, lane, wn);
			for (int v = 0; v < 32; v++)
				x ^= ra[v] ^ rb[v];
		}
		__syncthreads();
	}
	out[(blockIdx.y * gridDim.x + blockIdx.x) * 128 + tid] = x;
}

extern "C" __global__ void __launch_bounds__(128)
probe_copy(const half *A, const half *B, uint32_t *out, int K)
{
	probe_body<true, false>(A, B, out, K);
}

extern "C" __global__ void __launch_bounds__(128)
probe_ldsm(const half *A, const half *B, uint32_t *out, int K)
{
	probe_body<false, true>(A, B, out, K);
}

extern "C" __global__ void __launch_bounds__(128)
probe_both(const half *A, const half *B, uint32_t *out, int K)
{
	probe_body<true, true>(A, B, out, K);
}

static __global__ void fill(half *p, size_t n)
{
	for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = __float2half((float)((i * 2654435761u) % 1000) / 500.f - 1.f);
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
	fprintf(stderr, "%s:%d: error: %s\n", __FILE__, __LINE__, \
		cudaGetErrorString(e)); exit(1); } } while (0)

int main(void)
{
	const int S = 4096, bytes = 4 * 2 * 4096 * (int)sizeof(half);
	const size_t n = (size_t)S * S;
	half *A, *B;
	uint32_t *out;
	CK(cudaMalloc(&A, n * sizeof(half)));
	CK(cudaMalloc(&B, n * sizeof(half)));
	CK(cudaMalloc(&out, (size_t)(S / 128) * (S / 128) * 128 * 4));
	fill<<<1024, 256>>>(A, n);
	fill<<<1024, 256>>>(B, n);
	void (*ks[3])(const half *, const half *, uint32_t *, int) =
		{ probe_copy, probe_ldsm, probe_both };
	for (int i = 0; i < 3; i++) {
		CK(cudaFuncSetAttribute(ks[i],
			cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
		ks[i]<<<dim3(S / 128, S / 128), 128, bytes>>>(A, B, out, S);
		CK(cudaGetLastError());
	}
	CK(cudaDeviceSynchronize());
	printf("probe: 3 kernels ran\n");
	return 0;
}

// hand.cu - the baseline of bench/synth/gemm: the same FP16 GEMM as the
// kernel `lego infer --cuda` writes for tests/synth/gemm.tile (C = A B^T,
// A [M, K], B [N, K], C [M, N] f16, f32 accumulation; block 128 x 128 x 32,
// 2 x 2 warps of 64 x 64, 4 stages of 16-byte cp.async, ldmatrix.x4,
// mma.sync m16n8k16), every index written by hand the way CuTe users write
// it: shared tiles of 32 halves a row under Swizzle<2,3,3>.
#include <cuda_fp16.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 32
#define STAGES 4

// Swizzle<2,3,3> on the row-major offset: bits 3-4 ^= bits 6-7.
static __device__ __forceinline__ int swz(int r, int c)
{
	int o = r * BK + c;
	return o ^ ((o >> 3) & 0x18);
}

static __device__ __forceinline__ uint32_t sa(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void copy_tile(half *s, const half *g,
						 int row0, int k0, int K,
						 int tid)
{
#pragma unroll
	for (int it = 0; it < 4; it++) {
		int f = (it * 128 + tid) * 8, r = f / BK, c = f % BK;
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
			     :: "r"(sa(s + swz(r, c))),
			     "l"(g + (size_t)(row0 + r) * K + k0 + c));
	}
}

static __device__ __forceinline__ void ldsm4(uint32_t *r, const half *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(sa(p)));
}

extern "C" __global__ void __launch_bounds__(128)
hand_gemm_tn(const half *A, const half *B, half *C, int M, int N, int K)
{
	extern __shared__ __align__(128) unsigned char smem[];
	half *sA = (half *)smem, *sB = sA + STAGES * BM * BK;
	const int tid = threadIdx.x, lane = tid % 32;
	const int wm = tid / 32 / 2, wn = tid / 32 % 2;
	const int bm = blockIdx.y, bn = blockIdx.x, KT = K / BK;
	float acc[128];
	uint32_t ra[32], rb[32];
#pragma unroll
	for (int v = 0; v < 128; v++)
		acc[v] = 0.f;
	for (int kt = 0; kt < STAGES - 1; kt++) {
		if (kt < KT) {
			copy_tile(sA + kt * BM * BK, A, bm * BM, kt * BK, K, tid);
			copy_tile(sB + kt * BN * BK, B, bn * BN, kt * BK, K, tid);
		}
		asm volatile("cp.async.commit_group;\n");
	}
	for (int kt = 0; kt < KT; kt++) {
		asm volatile("cp.async.wait_group %0;\n" :: "n"(STAGES - 2));
		__syncthreads();
		const int pf = kt + STAGES - 1, ps = pf % STAGES, st = kt % STAGES;
		if (pf < KT) {
			copy_tile(sA + ps * BM * BK, A, bm * BM, pf * BK, K, tid);
			copy_tile(sB + ps * BN * BK, B, bn * BN, pf * BK, K, tid);
		}
		asm volatile("cp.async.commit_group;\n");
		const half *a = sA + st * BM * BK, *b = sB + st * BN * BK;
#pragma unroll
		for (int i = 0; i < 4; i++)
#pragma unroll
			for (int kk = 0; kk < 2; kk++)
				ldsm4(&ra[(i * 2 + kk) * 4],
				      a + swz(wm * 64 + i * 16 + lane % 16,
					      kk * 16 + lane / 16 * 8));
#pragma unroll
		for (int j2 = 0; j2 < 4; j2++)
#pragma unroll
			for (int kk = 0; kk < 2; kk++) {
				uint32_t r[4];
				ldsm4(r, b + swz(wn * 64 + j2 * 16 + lane / 16 * 8 +
						 lane % 8,
						 kk * 16 + lane / 8 % 2 * 8));
				rb[(2 * j2 * 2 + kk) * 2] = r[0];
				rb[(2 * j2 * 2 + kk) * 2 + 1] = r[1];
				rb[((2 * j2 + 1) * 2 + kk) * 2] = r[2];
				rb[((2 * j2 + 1) * 2 + kk) * 2 + 1] = r[3];
			}
#pragma unroll
		for (int kk = 0; kk < 2; kk++)
#pragma unroll
			for (int i = 0; i < 4; i++)
#pragma unroll
				for (int j = 0; j < 8; j++) {
					float *d = &acc[(i * 8 + j) * 4];
					const uint32_t *x = &ra[(i * 2 + kk) * 4];
					asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
						     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
						     : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]),
						       "r"(rb[(j * 2 + kk) * 2]), "r"(rb[(j * 2 + kk) * 2 + 1]));
				}
	}
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 8; j++) {
			int r = bm * BM + wm * 64 + i * 16 + lane / 4;
			int c = bn * BN + wn * 64 + j * 8 + lane % 4 * 2;
			const float *d = &acc[(i * 8 + j) * 4];
			C[(size_t)r * N + c] = __float2half(d[0]);
			C[(size_t)r * N + c + 1] = __float2half(d[1]);
			C[(size_t)(r + 8) * N + c] = __float2half(d[2]);
			C[(size_t)(r + 8) * N + c + 1] = __float2half(d[3]);
		}
}

extern "C" int hand_gemm_tn_launch(const half *A, const half *B, half *C,
				   int M, int N, int K, cudaStream_t s)
{
	if (M % BM || N % BN || K % BK)
		return -1;
	const int bytes = STAGES * (BM + BN) * BK * (int)sizeof(half);
	cudaFuncSetAttribute(hand_gemm_tn,
			     cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
	hand_gemm_tn<<<dim3(N / BN, M / BM), 128, bytes, s>>>(A, B, C, M, N, K);
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

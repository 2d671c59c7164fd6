// wgmma.cu - a first Hopper GEMM on the road to cuBLAS (bench/synth/gemm):
// C = A B^T in f16 with f32 accumulation, block 128 x 256 x 64, two
// warpgroups of 64 x 256, 4 stages, wgmma.m64n128k16 reading A and B from
// shared memory through matrix descriptors in the 128-byte swizzle mode.
// The shared tiles' layout is the one `lego synth` chose for tests/synth/
// gemm64.tile (row-major Swizzle<3,3,3> on 64-half rows), and the copies
// that write it are copy_sA/copy_sB of the kernel `lego infer --cuda`
// wrote (gemm64.cu, included): the descriptors only say "128-byte
// swizzle", so the kernel is right only if that layout is the hardware's
// pattern (tests/unit/test_synth_infer.c checks it, element by element,
// against the pattern written from the PTX ISA).  Hand-written here: the
// descriptors, the wgmma, its accumulator's epilogue and the pipeline.
// Built with -DWG_NAME=x, the kernel and its launcher are named x and
// x_launch (the variants of build.sh).
#include "gemm64.cu"

#ifndef WG_NAME
#define WG_NAME wgmma_tn
#endif
#define WG_CAT(a, b) a##b
#define WG_LAUNCH(n) WG_CAT(n, _launch)

// WG_AHEAD tiles are copied ahead of the one multiplied, and WG_WAIT
// wgmma groups stay in flight across the next barrier; a stage is
// rewritten only once the wgmma that read it is done:
// WG_AHEAD <= WG_STAGES - 1 - WG_WAIT.  Other values are built beside the
// default (build.sh: wgmma_w0, wgmma_p0) to measure what each gave.
#ifndef WG_STAGES
#define WG_STAGES 4
#endif
#ifndef WG_WAIT
#define WG_WAIT 1
#endif
#ifndef WG_COPY_FIRST
#define WG_COPY_FIRST 0 // 1: the copies before the wgmma, as at first
#endif
#ifndef WG_AHEAD
#define WG_AHEAD (WG_STAGES - 1 - WG_WAIT)
#endif
static_assert(WG_AHEAD >= 1 && WG_AHEAD <= WG_STAGES - 1 - WG_WAIT,
	      "a stage would be rewritten while a wgmma reads it");

enum { WG_BM = 128, WG_BN = 256, WG_BK = 64,
       WG_TILE_A = WG_BM * WG_BK, WG_TILE_B = WG_BN * WG_BK };

// The descriptor of a K-major tile of 128-byte rows in the 128-byte
// swizzle mode (PTX ISA, "Matrix Descriptor"): start address >> 4 in bits
// 0-13, leading byte offset (unused by this mode; 1) in 16-29, stride byte
// offset 1024 >> 4 (8 rows of 128 bytes) in 32-45, mode 1 (128B) in 62-63.
static __device__ __forceinline__ uint64_t wg_desc(uint32_t addr)
{
	return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)1 << 16 |
	       (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

static __device__ __forceinline__ void wg_mma(float *d, uint64_t a, uint64_t b)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
		"wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
		: "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
		: "l"(a), "l"(b));
}

extern "C" __global__ void __launch_bounds__(256, 1)
WG_NAME(const half *A, const half *B, half *C, int M, int N, int K)
{
	extern __shared__ __align__(1024) unsigned char wg_smem[];
	// the 128-byte swizzle is of the address's bits 4-6 by 7-9: tiles at
	// multiples of 1024 bytes
	half *sA = (half *)(((uintptr_t)wg_smem + 1023) & ~(uintptr_t)1023);
	half *sB = sA + WG_STAGES * WG_TILE_A;
	const int tid = threadIdx.x, wg = tid / 128, t = tid % 128;
	const int bm = blockIdx.y, bn = blockIdx.x, KT = K / WG_BK;
	float acc[2][64];
	for (int h = 0; h < 2; h++)
		for (int v = 0; v < 64; v++)
			acc[h][v] = 0.f;
	// warpgroup 0 copies A and B's first 128 rows, warpgroup 1 B's
	// others, through the pointers copy_sA/copy_sB move on a step a call
	const half *pa[8], *pb[8];
	if (wg == 0) {
		copy_sA_from(pa, A, t, bm, M, K);
		copy_sB_from(pb, B, t, 2 * bn, N, K);
	} else {
		copy_sB_from(pb, B, t, 2 * bn + 1, N, K);
	}
	auto copy = [&](int stage) {
		if (wg == 0) {
			copy_sA(sA + stage * WG_TILE_A, pa, t);
			copy_sB(sB + stage * WG_TILE_B, pb, t);
		} else {
			copy_sB(sB + stage * WG_TILE_B + WG_TILE_B / 2, pb, t);
		}
	};
	for (int kt = 0; kt < WG_AHEAD; kt++) {
		if (kt < KT)
			copy(kt);
		asm volatile("cp.async.commit_group;\n");
	}
	for (int kt = 0; kt < KT; kt++) {
		// committed: WG_AHEAD + kt groups; tile kt is the (kt+1)-th
		asm volatile("cp.async.wait_group %0;\n" :: "n"(WG_AHEAD - 1));
		// cp.async wrote through the generic proxy, wgmma reads through
		// the async one
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
		__syncthreads();
		const int st = kt % WG_STAGES, pf = kt + WG_AHEAD;
		const uint32_t a0 = lego_sa(sA + st * WG_TILE_A + 64 * WG_BK * wg);
		const uint32_t b0 = lego_sa(sB + st * WG_TILE_B);
		if (WG_COPY_FIRST && pf < KT)
			copy(pf % WG_STAGES);
		asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
		for (int kk = 0; kk < WG_BK / 16; kk++)
			for (int h = 0; h < 2; h++)
				wg_mma(acc[h], wg_desc(a0 + 32 * kk),
				       wg_desc(b0 + h * 128 * 128 + 32 * kk));
		asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
		// the copies are issued while the tensor cores work
		if (!WG_COPY_FIRST && pf < KT)
			copy(pf % WG_STAGES);
		asm volatile("cp.async.commit_group;\n");
		asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(WG_WAIT) : "memory");
	}
	asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
	// the accumulator of m64nN: warp w's lane l holds rows 16 w + l / 4
	// (+8 for registers 2, 3 of each 4) and columns 8 j + 2 (l % 4) (+1)
	const int w = t / 32, l = t % 32;
	const long long row0 = (long long)bm * WG_BM + 64 * wg + 16 * w + l / 4;
	for (int h = 0; h < 2; h++)
		for (int j = 0; j < 16; j++)
			for (int r = 0; r < 2; r++) {
				long long o = (row0 + 8 * r) * N + (long long)bn * WG_BN +
					      128 * h + 8 * j + 2 * (l % 4);
				*(__half2 *)(C + o) = __floats2half2_rn(
					acc[h][4 * j + 2 * r], acc[h][4 * j + 2 * r + 1]);
			}
}

// Launches wgmma_tn on stream s: M % 128, N % 256 and K % 64 must be 0 (else -1).
extern "C" int WG_LAUNCH(WG_NAME)(const half *A, const half *B, half *C, int M, int N, int K, cudaStream_t s)
{
	if (M % WG_BM || N % WG_BN || K % WG_BK)
		return -1;
	const int bytes = WG_STAGES * (WG_TILE_A + WG_TILE_B) * (int)sizeof(half) + 1024;
	cudaFuncSetAttribute(WG_NAME, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
	WG_NAME<<<dim3(N / WG_BN, M / WG_BM), 256, bytes, s>>>(A, B, C, M, N, K);
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

// mixed.cu.tpl - FP16 x INT4 GEMM, C[M, N] = A[M, K] W[K, N] with
// W[k, n] = (q[k, n] - 8) * scale[k / 128, n], q in 4 bits.  Written by
// `lego gen bench/synth/mixed/mixed.lego mixed.cu.tpl --target cuda`: every
// index (which word, which nibble, which scale, which element of A and C)
// is a placeholder on the layouts of mixed.lego.
//
// A block of 8 warps owns NTB column tiles of 8; its warps split K by
// groups of 128 (warp w takes groups w, w + 8, ..), D groups in flight, and
// add their partial sums in shared memory at the end.  A lane loads 16
// bytes of weights a group and column tile (the B fragments of 8 mma.sync
// m16n8k16 steps), makes q - 8 of them in registers (lop3 and one f16x2
// subtract or fma a register, a shift every other word half), multiplies
// them by A (16-byte loads; MT tiles of 16 rows a pass over the weights)
// into an f32 sum of the group, and adds that times the group's scale.
#include <stdint.h>
#ifdef __CUDACC__
#include <cuda_fp16.h>
#define MIXED_FN __host__ __device__ __forceinline__ constexpr
#else // the index functions alone, for a host compiler (tests/synth/mixed.sh)
#define MIXED_FN inline constexpr
#endif

// The word holding W[128 kt + 32 t + 8 w, 8 nt + g] (and the 7 elements after it).
MIXED_FN long long wq_word(long long K, [[maybe_unused]] long long N, int kt, int t, int w,
			   int nt, int g)
{
	return {{ Wq[128*kt + 32*t + 8*w, 8*nt + g] / 8 }};
}

// The nibble of element (s, h, e) of the B fragments in its word; compiling
// it checks that it depends on nothing else.
MIXED_FN int wq_nibble(int s, int h, int e)
{
	return {{ Wq[128*kt + 32*t + 8*w + 4*s + 2*h + e, 8*nt + g] % 8 }};
}

MIXED_FN long long sc_index(long long K, [[maybe_unused]] long long N, int kt, int nt,
						 int g)
{
	return {{ Sc[kt, 8*nt + g] }};
}

// A's elements of register h of mma step (w, s), row r: the same k as Wq's.
MIXED_FN long long a_index([[maybe_unused]] long long M, long long K, int r, int kt, int t,
			   int w, int s, int h)
{
	return {{ A[r, 128*kt + 32*t + 8*w + 4*s + 2*h] }};
}

MIXED_FN long long c_index([[maybe_unused]] long long M, long long N, int r, int n)
{
	return {{ C[r, n] }};
}

// What the kernel takes for granted of the layouts, checked by the compiler
// on a small size: a lane's four words are consecutive and 16-byte aligned,
// element e = 1 of an f16x2 register lies 4 nibbles above e = 0, and a
// lane's A registers of step (w, 0) and (w, 1) are one aligned 16-byte
// vector, register h of step s being its element 2 s + h.
constexpr bool fits_kernel(long long M, long long K, long long N)
{
	for (int r = 0; r < M; r++)
		for (int kt = 0; kt < K / 128; kt++)
			for (int t = 0; t < 4; t++)
				for (int w = 0; w < 4; w++) {
					long long a0 = a_index(M, K, r, kt, t, w, 0, 0);
					if (a0 % 8 != 0)
						return false;
					for (int s = 0; s < 2; s++)
						for (int h = 0; h < 2; h++)
							if (a_index(M, K, r, kt, t, w, s, h) != a0 + 2 * (2 * s + h))
								return false;
				}
	for (int kt = 0; kt < K / 128; kt++)
		for (int nt = 0; nt < N / 8; nt++)
			for (int g = 0; g < 8; g++)
				for (int t = 0; t < 4; t++) {
					long long w0 = wq_word(K, N, kt, t, 0, nt, g);
					if (w0 % 4 != 0)
						return false;
					for (int w = 1; w < 4; w++)
						if (wq_word(K, N, kt, t, w, nt, g) != w0 + w)
							return false;
				}
	for (int s = 0; s < 2; s++)
		for (int h = 0; h < 2; h++)
			if (wq_nibble(s, h, 0) >= 4 || wq_nibble(s, h, 1) != wq_nibble(s, h, 0) + 4)
				return false;
	return true;
}
static_assert(fits_kernel(3, 256, 32), "the layouts do not fit the kernel's loads");

#ifdef __CUDACC__

// Nibbles q and q + 4 of a word as v - 8 in the two halves (exact in f16):
// the lop3 makes 1024 + v (even q) or 1024 + 16 v (odd q, no shift).
__device__ __forceinline__ uint32_t dequant2(uint32_t word, int q)
{
	const uint32_t x = ((word >> (4 * (q & ~1))) & (q & 1 ? 0x00f000f0u : 0x000f000fu)) |
			   0x64006400u;
	const __half2 h = *reinterpret_cast<const __half2 *>(&x);
	const __half2 v = q & 1 ? __hfma2(h, __float2half2_rn(1.0f / 16), __float2half2_rn(-72.0f))
				: __hsub2(h, __float2half2_rn(1032.0f));
	return *reinterpret_cast<const uint32_t *>(&v);
}

__device__ __forceinline__ void mma16816(float *c, const uint32_t *a, uint32_t b0, uint32_t b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ uint32_t u4_at(const uint4 &v, int i)
{
	return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

// Which 4 bytes of a lane's 16 of A (a_index(.., w, 0, 0)) register h of
// step s is: the same at every row and group (fits_kernel).
__device__ __forceinline__ int a_part(int s, int h)
{
	return (int)(a_index(1, 128, 0, 0, 0, 0, s, h) - a_index(1, 128, 0, 0, 0, 0, 0, 0)) / 2;
}

__device__ __forceinline__ uint4 ldg16(const void *p)
{
	return __ldg(reinterpret_cast<const uint4 *>(p));
}

#define WARPS 8

template <int MT, int NTB, int D>
__global__ void __launch_bounds__(32 * WARPS)
w4a16_gemm(const __half *__restrict__ A, const uint32_t *__restrict__ Wq,
	   const __half *__restrict__ Sc, __half *__restrict__ C, int M, int N, int K)
{
	__shared__ float part[16 * MT][8 * NTB];
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const int g = lane / 4, t = lane % 4;
	const int kts = K / 128, nt0 = blockIdx.x * NTB;
	for (int m0 = 0; m0 < M; m0 += 16 * MT) {
		for (int i = threadIdx.x; i < 16 * MT * 8 * NTB; i += 32 * WARPS)
			part[i / (8 * NTB)][i % (8 * NTB)] = 0.0f;
		float acc[MT][NTB][4] = {};
		// A ring of D groups of weights and scales in flight (registers).
		uint4 wv[D][NTB];
		float sv[D][NTB][2]; // the scales of the accumulators' columns 2 t, 2 t + 1
		auto fetch = [&](int d, int kt) {
#pragma unroll
			for (int j = 0; j < NTB; j++) {
				wv[d][j] = ldg16(Wq + wq_word(K, N, kt, t, 0, nt0 + j, g));
#pragma unroll
				for (int i = 0; i < 2; i++)
					sv[d][j][i] = __half2float(Sc[sc_index(K, N, kt, nt0 + j, 2 * t + i)]);
			}
		};
#pragma unroll
		for (int d = 0; d < D; d++)
			if (warp + d * WARPS < kts)
				fetch(d, warp + d * WARPS);
		for (int kt0 = warp; kt0 < kts; kt0 += D * WARPS)
#pragma unroll
			for (int d = 0; d < D; d++) {
				const int kt = kt0 + d * WARPS;
				if (kt >= kts)
					break;
				uint4 av[MT][2][4]; // rows g and g + 8 of each 16-row tile
#pragma unroll
				for (int mt = 0; mt < MT; mt++)
#pragma unroll
					for (int i = 0; i < 2; i++)
#pragma unroll
						for (int w = 0; w < 4; w++) {
							const int r = m0 + 16 * mt + g + 8 * i;
							av[mt][i][w] = r < M ? ldg16(A + a_index(M, K, r, kt, t, w, 0, 0))
									     : make_uint4(0, 0, 0, 0);
						}
#pragma unroll
				for (int j = 0; j < NTB; j++) {
					// This group's sum of (q - 8) a in f32, then times its scale.
					float grp[MT][4] = {};
#pragma unroll
					for (int w = 0; w < 4; w++) {
						const uint32_t word = u4_at(wv[d][j], w);
#pragma unroll
						for (int s = 0; s < 2; s++) {
							const uint32_t b0 = dequant2(word, wq_nibble(s, 0, 0));
							const uint32_t b1 = dequant2(word, wq_nibble(s, 1, 0));
#pragma unroll
							for (int mt = 0; mt < MT; mt++) {
								// a0..a3: rows g, g + 8, then register h = 1
								uint32_t a[4];
#pragma unroll
								for (int i = 0; i < 4; i++)
									a[i] = u4_at(av[mt][i % 2][w], a_part(s, i / 2));
								mma16816(grp[mt], a, b0, b1);
							}
						}
					}
#pragma unroll
					for (int mt = 0; mt < MT; mt++)
#pragma unroll
						for (int i = 0; i < 4; i++) // c0..c3: columns 2 t, 2 t + 1
							acc[mt][j][i] += grp[mt][i] * sv[d][j][i % 2];
				}
				if (kt + D * WARPS < kts)
					fetch(d, kt + D * WARPS);
			}
		__syncthreads();
#pragma unroll
		for (int mt = 0; mt < MT; mt++)
#pragma unroll
			for (int j = 0; j < NTB; j++)
#pragma unroll
				for (int i = 0; i < 4; i++) // c0..c3: row g (g + 8), columns 2 t, 2 t + 1
					atomicAdd(&part[16 * mt + g + 8 * (i / 2)][8 * j + 2 * t + i % 2],
						  acc[mt][j][i]);
		__syncthreads();
		for (int i = threadIdx.x; i < 16 * MT * 8 * NTB; i += 32 * WARPS) {
			const int r = m0 + i / (8 * NTB);
			if (r < M)
				C[c_index(M, N, r, 8 * nt0 + i % (8 * NTB))] =
					__float2half(part[i / (8 * NTB)][i % (8 * NTB)]);
		}
		__syncthreads();
	}
}

template <int MT, int NTB, int D>
static int launch(const void *a, const void *wq, const void *sc, void *c, int m, int n, int k,
		  cudaStream_t stream)
{
	w4a16_gemm<MT, NTB, D><<<n / (8 * NTB), 32 * WARPS, 0, stream>>>(
		(const __half *)a, (const uint32_t *)wq, (const __half *)sc, (__half *)c, m, n, k);
	return (int)cudaGetLastError();
}

// The instances the driver may choose from (bench.py tries each, as
// Triton's autotune would): rows a pass (16 MT), column tiles a block (NTB),
// groups in flight a warp (D).
#define CONFIGS(X) X(1, 1, 2) X(1, 1, 4) X(1, 2, 2) X(1, 2, 4) X(1, 4, 2) \
	X(1, 8, 2) X(2, 2, 2) X(2, 4, 2)

#define NTB_OF(mt, ntb, d) ntb,
static const int config_ntb[] = {CONFIGS(NTB_OF)};
#define NCONFIGS (int)(sizeof config_ntb / sizeof *config_ntb)

// C = A W on `stream` with instance `cfg` of CONFIGS; K a multiple of 128,
// N of 8 NTB.  Returns a cudaError_t.
extern "C" int w4a16_launch_cfg(const void *a, const void *wq, const void *sc, void *c, int m,
				int n, int k, int cfg, void *stream)
{
	if (cfg < 0 || cfg >= NCONFIGS || k % 128 != 0 || n % (8 * config_ntb[cfg]) != 0)
		return (int)cudaErrorInvalidValue;
	int i = 0;
	cudaStream_t s = (cudaStream_t)stream;
#define LAUNCH(mt, ntb, d)                                                       \
	if (cfg == i++)                                                          \
		return launch<mt, ntb, d>(a, wq, sc, c, m, n, k, s);
	CONFIGS(LAUNCH)
	return (int)cudaErrorInvalidValue;
}

// The number of instances, and instance `cfg`'s (MT, NTB, D) in out[0..2].
extern "C" int w4a16_config(int cfg, int *out)
{
	static const int all[][3] = {
#define TRIPLE(mt, ntb, d) {mt, ntb, d},
		CONFIGS(TRIPLE)};
	if (cfg >= 0 && cfg < NCONFIGS)
		for (int i = 0; i < 3; i++)
			out[i] = all[cfg][i];
	return NCONFIGS;
}
#endif

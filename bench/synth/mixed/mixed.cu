// mixed.cu.tpl - FP16 x INT4 GEMM, C[M, N] = A[M, K] W[K, N] with
// W[k, n] = (q[k, n] - 8) * scale[k / 128, n], q in 4 bits.  Written by
// `lego gen bench/synth/mixed/mixed.lego mixed.cu.tpl --target cuda`: every
// index (which word, which nibble, which scale, which element of A and C)
// is a placeholder on the layouts of mixed.lego.
//
// Both kernels multiply with mma.sync m16n8k16, operands swapped (C^T =
// W^T A^T): the dequantised weights of two column tiles are the 16 x 16 A
// operand, 8 rows of A the B operand, so every register a lane loads or
// makes is one the instruction takes as it stands (no moves), and a pass
// over the weights covers 8 rows of A, not 16 (half the mma at M <= 8).
//
// GEMV (M up to 16): a block of 8 warps owns NTB column tiles of 8; its
// warps split K by groups of 128 (warp w takes groups w, w + 8, ..), D
// groups in flight, and add their partial sums in shared memory at the
// end.  A lane loads 16 bytes of weights a group and column tile (8 mma
// steps' worth), makes q - 8 of them in registers (one lop3 and one f16x2
// subtract or fma a register, a shift every other word half), multiplies
// them by A (16-byte loads; MT pieces of 8 rows a pass over the weights)
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
	return (w + 4LL * t + 16LL * g + 128LL * kt + (long long)K * nt);
}

// The nibble of element (s, h, e) of the B fragments in its word; compiling
// it checks that it depends on nothing else.
MIXED_FN int wq_nibble(int s, int h, int e)
{
	return (h + 2 * s + 4 * e);
}

MIXED_FN long long sc_index(long long K, [[maybe_unused]] long long N, int kt, int nt,
						 int g)
{
	return (g + 8LL * kt + 8LL * nt * (K / 128));
}

// A's elements of register h of mma step (w, s), row r: the same k as Wq's.
MIXED_FN long long a_index([[maybe_unused]] long long M, long long K, int r, int kt, int t,
			   int w, int s, int h)
{
	return (2LL * h + 4LL * s + 8LL * w + 32LL * t + 128LL * kt + (long long)K * r);
}

// Where element (r, c) of a staged slice of A (one group of 128 k, up to 64
// rows) lies in shared memory: As, the layout `lego synth` chose for the
// tiled kernel's 16-byte copies and 16-byte fragment loads (mixed_smem.lego).
MIXED_FN int as_index(int ar, int ac)
{
	const int t61_0 = ac + 128 * ar;
	return (t61_0 ^ (24 & (t61_0 >> 3)));
}

// Where lane l's 16 bytes of the block's column tile j lie in a stage's
// staged weights (halves; the tiled kernel with D = 0): Ws, the layout
// `lego synth` chose for their 16-byte copies and reads.
MIXED_FN int ws_index(int j, int l)
{
	return (8 * l + 256 * j);
}

// Where the scale of column g of the block's column tile j lies in a
// stage's staged scales (halves).
MIXED_FN int ss_index(int j, int g)
{
	return (g + 8 * j);
}

MIXED_FN long long c_index([[maybe_unused]] long long M, long long N, int r, int n)
{
	return (n + (long long)N * r);
}

// What the kernel takes for granted of the layouts, checked by the compiler
// on a small size: a lane's four words are consecutive and 16-byte aligned,
// element e = 1 of an f16x2 register lies 4 nibbles above e = 0, a lane's
// A registers of step (w, 0) and (w, 1) are one aligned 16-byte vector,
// register h of step s being its element 2 s + h, in the staged slice of A
// a row lies 8 rows (8 x 128 halves) after the row 8 above it, a lane's
// staged weights are 16-byte aligned, and a column tile's 8 scales of a
// group are 8 consecutive halves, 16-byte aligned (one 16-byte copy), in
// global memory and staged.
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
	for (int r = 0; r < 128; r++)
		for (int c = 0; c < 128; c++) {
			int o = as_index(r, c);
			if (o < 0 || o >= 128 * 128 || o != as_index(r, c & ~7) + c % 8 || o % 8 != c % 8 ||
			    (r >= 8 && o != as_index(r - 8, c) + 8 * 128))
				return false;
		}
	for (int j = 0; j < 64; j++) {
		for (int l = 0; l < 32; l++)
			if (ws_index(j, l) % 8 != 0 || ws_index(j, l) < 0 || ws_index(j, l) >= 64 * 256)
				return false;
		for (int g = 0; g < 8; g++)
			if (ss_index(j, 0) % 8 != 0 || ss_index(j, g) != ss_index(j, 0) + g ||
			    ss_index(j, g) >= 64 * 8)
				return false;
	}
	for (int kt = 0; kt < K / 128; kt++)
		for (int nt = 0; nt < N / 8; nt++)
			for (int g = 0; g < 8; g++)
				if (sc_index(K, N, kt, nt, 0) % 8 != 0 ||
				    sc_index(K, N, kt, nt, g) != sc_index(K, N, kt, nt, 0) + g)
					return false;
	for (int s = 0; s < 2; s++)
		for (int h = 0; h < 2; h++)
			if (wq_nibble(s, h, 0) >= 4 || wq_nibble(s, h, 1) != wq_nibble(s, h, 0) + 4)
				return false;
	return true;
}
static_assert(fits_kernel(3, 256, 32), "the layouts do not fit the kernel's loads");

#ifdef __CUDACC__

// An f16x2 register from its bits: the constants of the dequantisation as
// immediates (__float2half2_rn of a float constant is a cvt in the PTX).
__device__ __forceinline__ __half2 h2_bits(uint32_t bits)
{
	return *reinterpret_cast<const __half2 *>(&bits);
}

// Nibbles q and q + 4 of a word as v - 8 in the two halves (exact in f16):
// the lop3 makes 1024 + v (even q) or 1024 + 16 v (odd q, no shift); then
// - 1032 (0x6408), or * 1/16 (0x2c00) - 72 (0xd480).
__device__ __forceinline__ uint32_t dequant2(uint32_t word, int q)
{
	// (word >> ..) & mask | 0x64006400 as one lop3 (0xea: a & b | c); written
	// in C, ptxas makes it two, each with one of the constants as immediate.
	uint32_t x;
	asm("lop3.b32 %0, %1, %2, %3, 0xea;\n"
	    : "=r"(x)
	    : "r"(word >> (4 * (q & ~1))), "r"(q & 1 ? 0x00f000f0u : 0x000f000fu), "r"(0x64006400u));
	const __half2 v = q & 1 ? __hfma2(h2_bits(x), h2_bits(0x2c002c00u), h2_bits(0xd480d480u))
				: __hsub2(h2_bits(x), h2_bits(0x64086408u));
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

// The weights as the mma's A operand (C^T = W^T A^T, so that every operand
// register is where the hardware wants it, no moves): rows g and g + 8 of
// the 16 x 16 operand are column g of two column tiles (words w0 and w1 of
// the lanes' loads; w1 absent: zeros), registers h = 0 and 1 of step s.
__device__ __forceinline__ void weights_op(uint32_t *wa, uint32_t w0, uint32_t w1, bool has1, int s)
{
#pragma unroll
	for (int h = 0; h < 2; h++) {
		wa[2 * h] = dequant2(w0, wq_nibble(s, h, 0));
		wa[2 * h + 1] = has1 ? dequant2(w1, wq_nibble(s, h, 0)) : 0u;
	}
}

// One mma step s of those weights by 8 rows of A as the B operand: row g's
// registers of step s are two of its 16-byte load `av`.
__device__ __forceinline__ void mma_step(float *c, const uint32_t *wa, const uint4 &av, int s)
{
	mma16816(c, wa, u4_at(av, a_part(s, 0)), u4_at(av, a_part(s, 1)));
}

__device__ __forceinline__ uint4 ldg16(const void *p)
{
	return __ldg(reinterpret_cast<const uint4 *>(p));
}

// A weight load: read once, so kept out of L1.
__device__ __forceinline__ uint4 ldw16(const void *p)
{
	uint4 v;
	asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
		     : "l"(p));
	return v;
}

#define WARPS 8

template <int MT, int NTB, int D, bool AR, int MINB>
__global__ void __launch_bounds__(32 * WARPS, MINB)
w4a16_gemm(const __half *__restrict__ A, const uint32_t *__restrict__ Wq,
	   const __half *__restrict__ Sc, __half *__restrict__ C, int M, int N, int K)
{
	constexpr int NP = (NTB + 1) / 2; // pairs of column tiles: the mma's 16 rows
	__shared__ float part[8 * MT][8 * NTB];
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const int g = lane / 4, t = lane % 4;
	const int kts = K / 128, nt0 = blockIdx.x * NTB;
	for (int m0 = 0; m0 < M; m0 += 8 * MT) {
		for (int i = threadIdx.x; i < 8 * MT * 8 * NTB; i += 32 * WARPS)
			part[i / (8 * NTB)][i % (8 * NTB)] = 0.0f;
		float acc[NP][MT][4] = {};
		// A ring of D groups of weights and scales in flight (registers);
		// with AR, their rows of A too (else loaded when used).
		uint4 wv[D][NTB];
		float sv[D][NTB]; // the scale of column g of each tile
		uint4 ar[AR ? D : 1][AR ? MT : 1][4];
		// Row 8 mt + g of the pass, steps (w, 0) and (w, 1) of group kt.
		auto load_a = [&](int mt, int kt, int w) {
			const int r = m0 + 8 * mt + g;
			return r < M ? ldg16(A + a_index(M, K, r, kt, t, w, 0, 0)) : make_uint4(0, 0, 0, 0);
		};
		auto fetch = [&](int d, int kt) {
			if (AR)
#pragma unroll
				for (int mt = 0; mt < MT; mt++)
#pragma unroll
					for (int w = 0; w < 4; w++)
						ar[AR ? d : 0][AR ? mt : 0][w] = load_a(mt, kt, w);
#pragma unroll
			for (int j = 0; j < NTB; j++) {
				wv[d][j] = ldw16(Wq + wq_word(K, N, kt, t, 0, nt0 + j, g));
				sv[d][j] = __half2float(Sc[sc_index(K, N, kt, nt0 + j, g)]);
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
				// This group's sums of (q - 8) a in f32, then times their scales.
				float grp[NP][MT][4] = {};
#pragma unroll
				for (int w = 0; w < 4; w++) {
					uint4 av[MT]; // without AR, loaded a word of weights at a time
#pragma unroll
					for (int mt = 0; mt < MT; mt++)
						av[mt] = AR ? ar[AR ? d : 0][AR ? mt : 0][w] : load_a(mt, kt, w);
#pragma unroll
					for (int p = 0; p < NP; p++) {
						const bool has1 = 2 * p + 1 < NTB;
						const uint32_t w0 = u4_at(wv[d][2 * p], w);
						const uint32_t w1 = has1 ? u4_at(wv[d][has1 ? 2 * p + 1 : 0], w) : 0u;
#pragma unroll
						for (int s = 0; s < 2; s++) {
							uint32_t wa[4];
							weights_op(wa, w0, w1, has1, s);
#pragma unroll
							for (int mt = 0; mt < MT; mt++)
								mma_step(grp[p][mt], wa, av[mt], s);
						}
					}
				}
#pragma unroll
				for (int p = 0; p < NP; p++)
#pragma unroll
					for (int mt = 0; mt < MT; mt++)
#pragma unroll
						for (int i = 0; i < 4; i++) // c0..c3: tile 2 p (2 p + 1), column g
							if (2 * p + i / 2 < NTB)
								acc[p][mt][i] += grp[p][mt][i] * sv[d][2 * p + i / 2];
				if (kt + D * WARPS < kts)
					fetch(d, kt + D * WARPS);
			}
		__syncthreads();
#pragma unroll
		for (int p = 0; p < NP; p++)
#pragma unroll
			for (int mt = 0; mt < MT; mt++)
#pragma unroll
				for (int i = 0; i < 4; i++) // c0..c3: rows 2 t, 2 t + 1 of the 8
					if (2 * p + i / 2 < NTB)
						atomicAdd(&part[8 * mt + 2 * t + i % 2][8 * (2 * p + i / 2) + g],
							  acc[p][mt][i]);
		__syncthreads();
		for (int i = threadIdx.x; i < 8 * MT * 8 * NTB; i += 32 * WARPS) {
			const int r = m0 + i / (8 * NTB);
			if (r < M)
				C[c_index(M, N, r, 8 * nt0 + i % (8 * NTB))] =
					__float2half(part[i / (8 * NTB)][i % (8 * NTB)]);
		}
		__syncthreads();
	}
}

// The weights' operand times their columns' scales: the f16 weights of
// the reference, (q - 8) * scale rounded once as it rounds them.
__device__ __forceinline__ void scale_op(uint32_t *wa, __half2 sc0, __half2 sc1)
{
#pragma unroll
	for (int i = 0; i < 4; i++) {
		const __half2 v = __hmul2(h2_bits(wa[i]), i % 2 ? sc1 : sc0);
		wa[i] = *reinterpret_cast<const uint32_t *>(&v);
	}
}

// A 16-byte copy to shared memory; zeros where `valid` is false.
__device__ __forceinline__ void cp_async16(void *smem, const void *gmem, bool valid)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
			     (uint32_t)__cvta_generic_to_shared(smem)),
		     "l"(gmem), "r"(valid ? 16 : 0));
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// A stage of the tiled kernel's shared memory, in 16-byte units: A's slice
// of a group (16 MT rows of 128 halves, As) and, with D = 0, the group's
// weights and scales of the block's WN NTW column tiles (Ws, Ss).
template <int MT, int WN, int NTW, int D>
__host__ __device__ constexpr int stage_u4()
{
	return 16 * MT * 128 / 8 + (D == 0 ? WN * NTW * (32 + 1) : 0);
}

// The tiled kernel (M above 16): a tile of C is 16 MT rows by WN NTW column
// tiles of 8 (warp w the NTW from w NTW), and a block (WN warps) takes a
// share of the (tile, group of 128 k) steps: whole tiles in full rounds of
// the grid (about as many blocks as fit on the SMs at once), then the
// steps of the tiles left in order, tile by tile, cut evenly over the grid
// (stream-K), so no SM idles for a last partial wave whatever the count of
// tiles.  On each tile it meets, A's slice of a group is copied to
// shared memory (cp.async, STAGES in flight, layout As) and read back 16
// bytes a lane (a lane's A registers of two mma steps, the k order of Wq).
// The weights go to registers: straight from global memory, D groups in
// flight, or (D = 0) through the same stages as A (Ws, Ss), so that their
// latency hides behind STAGES - 1 groups of mma rather than D register
// buffers; a warp dequantises and scales (one f16x2 multiply a register)
// its 16 x 16 operands of a word once, then multiplies them by all of the
// tile's rows, 8 at a time.  A block with all of a tile's
// groups writes C; one with a part adds its f32 sums into `ws` (zero
// between calls) and counts its groups in `cnt`: the block that completes
// the count writes C from `ws` and leaves both at zero for the next call.
template <int MT, int WN, int NTW, int D, int STAGES, int B>
__global__ void __launch_bounds__(32 * WN, B)
w4a16_tiled(const __half *__restrict__ A, const uint32_t *__restrict__ Wq,
	    const __half *__restrict__ Sc, __half *__restrict__ C, float *__restrict__ ws,
	    int *__restrict__ cnt, int M, int N, int K)
{
	static_assert(MT <= 8 && NTW % 2 == 0, "As holds 128 rows; column tiles go in pairs");
	constexpr int DR = D == 0 ? 1 : D; // weight buffers in registers
	constexpr int SU = stage_u4<MT, WN, NTW, D>(), AU = 16 * MT * 128 / 8;
	extern __shared__ uint4 smem[];
	__shared__ int last;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const int g = lane / 4, t = lane % 4;
	const int mblocks = (M + 16 * MT - 1) / (16 * MT), tiles = mblocks * (N / (8 * NTW * WN));
	const int kts = K / 128;
	// A thread copies chunk a_j (8 halves) of rows a_r0 + 2 WN i of A's slice,
	// 8 rows apart or a multiple: row a_r0's place in As plus 2 WN i x 128
	// halves (fits_kernel), so the swizzle is worked out once.
	static_assert(2 * WN % 8 == 0, "a thread's rows of the slice lie 8 rows apart or a multiple");
	const int a_j = threadIdx.x % 16, a_r0 = threadIdx.x / 16, a_d0 = as_index(a_r0, 8 * a_j);
	int a_at[4]; // where row g's 8 halves of steps (w, 0), (w, 1) lie in As; row
	for (int w = 0; w < 4; w++) // g + 8 i lies 8 i rows further (fits_kernel)
		a_at[w] = as_index(g, 32 * t + 8 * w);
	// A stage's parts: A's slice, the staged weights and scales (D = 0).
	auto as_of = [&](int st) { return reinterpret_cast<__half *>(smem + st * SU); };
	auto ws_of = [&](int st) { return reinterpret_cast<__half *>(smem + st * SU + AU); };
	auto ss_of = [&](int st) { return reinterpret_cast<__half *>(smem + st * SU + AU + WN * NTW * 32); };
	// Whole tiles first, round robin (tile b, b + G, ..: no workspace), as
	// many as make full rounds of the grid; then the steps of the tiles left
	// cut evenly (stream-K), so only those go through the workspace.
	const int G = gridDim.x, whole = tiles / G * G;
	const long long rest = (long long)(tiles - whole) * kts, base = (long long)whole * kts;
	for (int seg = blockIdx.x;; seg += G) {
		const long long end = seg < whole ? (long long)(seg + 1) * kts
						  : base + (blockIdx.x + 1) * rest / G;
		for (long long at = seg < whole ? (long long)seg * kts : base + blockIdx.x * rest / G;
		     at < end;) {
			// m fastest: the blocks at work at once share their weights in L2
			const int tile = (int)(at / kts), kt0 = (int)(at % kts);
			const int nk = (int)(end - at < kts - kt0 ? end - at : kts - kt0);
			at += nk;
			const int m0 = tile % mblocks * 16 * MT, ntb = tile / mblocks * WN * NTW;
			const int nt0 = ntb + warp * NTW;
			auto fetch_a = [&](int stage, int kt) {
#pragma unroll
				for (int i = 0; i < 16 * MT * 16 / (32 * WN); i++) {
					const int r = a_r0 + 2 * WN * i, valid = m0 + r < M;
					cp_async16(as_of(stage) + a_d0 + 2 * WN * i * 128,
						   A + a_index(M, K, valid ? m0 + r : 0, kt, a_j / 4, a_j % 4, 0, 0),
						   valid);
				}
				if (D == 0) { // its lane's 16 bytes of tiles warp + WN i (a warp a tile); scales
#pragma unroll
					for (int i = 0; i < NTW; i++)
						cp_async16(ws_of(stage) + ws_index(warp + WN * i, lane),
							   Wq + wq_word(K, N, kt, t, 0, ntb + warp + WN * i, g), true);
					for (int j = threadIdx.x; j < WN * NTW; j += 32 * WN)
						cp_async16(ss_of(stage) + ss_index(j, 0),
							   Sc + sc_index(K, N, kt, ntb + j, 0), true);
				}
			};
			uint4 wv[DR][NTW];
			__half2 sv[DR][NTW];
			auto fetch_w = [&](int d, int kt) {
#pragma unroll
				for (int j = 0; j < NTW; j++) {
					wv[d][j] = ldw16(Wq + wq_word(K, N, kt, t, 0, nt0 + j, g));
					sv[d][j] = __half2half2(Sc[sc_index(K, N, kt, nt0 + j, g)]);
				}
			};
			auto read_w = [&](int d, int stage) { // the warp's staged weights of a group
#pragma unroll
				for (int j = 0; j < NTW; j++) {
					wv[d][j] = *reinterpret_cast<const uint4 *>(ws_of(stage) +
										 ws_index(warp * NTW + j, lane));
					sv[d][j] = __half2half2(ss_of(stage)[ss_index(warp * NTW + j, g)]);
				}
			};
#pragma unroll
			for (int s = 0; s < STAGES - 1; s++) {
				if (s < nk)
					fetch_a(s, kt0 + s);
				asm volatile("cp.async.commit_group;\n");
			}
#pragma unroll
			for (int d = 0; d < D; d++)
				if (d < nk)
					fetch_w(d, kt0 + d);
			float acc[NTW / 2][2 * MT][4] = {};
			for (int i0 = 0; i0 < nk; i0 += DR)
#pragma unroll
				for (int d = 0; d < DR; d++) {
					const int i = i0 + d;
					if (i >= nk)
						break;
					cp_async_wait<STAGES - 2>();
					__syncthreads(); // group i is in; every warp is done with group i - 1's stage
					if (i + STAGES - 1 < nk)
						fetch_a((i + STAGES - 1) % STAGES, kt0 + i + STAGES - 1);
					asm volatile("cp.async.commit_group;\n");
					if (D == 0)
						read_w(d, i % STAGES);
					const __half *a_s = as_of(i % STAGES);
#pragma unroll
					for (int w = 0; w < 4; w++) {
						uint32_t wa[NTW / 2][2][4]; // the operands of word w, made once
#pragma unroll
						for (int p = 0; p < NTW / 2; p++)
#pragma unroll
							for (int s = 0; s < 2; s++) {
								weights_op(wa[p][s], u4_at(wv[d][2 * p], w),
									   u4_at(wv[d][2 * p + 1], w), true, s);
								scale_op(wa[p][s], sv[d][2 * p], sv[d][2 * p + 1]);
							}
#pragma unroll
						for (int mi = 0; mi < 2 * MT; mi++) {
							// row 8 mi + g of the tile, steps (w, 0) and (w, 1)
							const uint4 av = *reinterpret_cast<const uint4 *>(a_s + a_at[w] +
													 mi * 8 * 128);
#pragma unroll
							for (int p = 0; p < NTW / 2; p++)
#pragma unroll
								for (int s = 0; s < 2; s++)
									mma_step(acc[p][mi], wa[p][s], av, s);
						}
					}
					if (D > 0 && i + D < nk)
						fetch_w(d, kt0 + i + D);
				}
			// c0..c3 of (p, mi): column g of tile 2 p (2 p + 1), rows 8 mi + 2 t (+ 1)
			auto each_c = [&](auto &&f) {
#pragma unroll
				for (int p = 0; p < NTW / 2; p++)
#pragma unroll
					for (int mi = 0; mi < 2 * MT; mi++)
#pragma unroll
						for (int c = 0; c < 4; c++) {
							const int r = m0 + 8 * mi + 2 * t + c % 2;
							if (r < M)
								f(acc[p][mi][c],
								  c_index(M, N, r, 8 * (nt0 + 2 * p + c / 2) + g));
						}
			};
			if (nk == kts) {
				each_c([&](float v, long long c) { C[c] = __float2half(v); });
			} else {
				each_c([&](float v, long long c) { atomicAdd(ws + c, v); });
				__threadfence();
				__syncthreads();
				if (threadIdx.x == 0) {
					last = atomicAdd(&cnt[tile], nk) + nk == kts;
					if (last)
						cnt[tile] = 0; // ready for the next call
				}
				__syncthreads();
				if (last) {
					__threadfence();
					each_c([&](float, long long c) {
						C[c] = __float2half(__ldcg(ws + c));
						__stcg(ws + c, 0.0f);
					});
				}
			}
			__syncthreads(); // the stages and `last` are free for the next tile
		}
		if (seg >= whole)
			break;
	}
}

// One call's operands; ws and cnt only for the tiled kernel's tiles shared
// by blocks (w4a16_workspace says how much; both zeroed once, the kernel
// leaves them so).
struct w4a16_call {
	const __half *a;
	const uint32_t *wq;
	const __half *sc;
	__half *c;
	float *ws;
	int *cnt;
	int m, n, k;
	cudaStream_t stream;
};

template <int MT, int NTB, int D, bool AR, int MINB>
static int launch_gemv(const w4a16_call &p)
{
	if (p.n % (8 * NTB) != 0)
		return (int)cudaErrorInvalidValue;
	w4a16_gemm<MT, NTB, D, AR, MINB><<<p.n / (8 * NTB), 32 * WARPS, 0, p.stream>>>(
		p.a, p.wq, p.sc, p.c, p.m, p.n, p.k);
	return (int)cudaGetLastError();
}

// The tiled kernel's grid: B blocks an SM (as many as fit, if fewer), and
// no more blocks than half its steps (2 groups a block at least).
template <int MT, int WN, int NTW, int D, int STAGES, int B>
static int tiled_grid(int m, int n, int k, int *tiles)
{
	int dev = 0, sms = 132, fit = 1;
	cudaGetDevice(&dev);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	const int smem = STAGES * stage_u4<MT, WN, NTW, D>() * 16;
	auto kernel = w4a16_tiled<MT, WN, NTW, D, STAGES, B>;
	cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, 32 * WN, smem);
	*tiles = (m + 16 * MT - 1) / (16 * MT) * (n / (8 * NTW * WN));
	const long long half = (long long)*tiles * (k / 128) / 2;
	const long long want = (long long)(B < fit ? B : fit) * sms;
	return (int)(want < half ? want : half < 1 ? 1 : half);
}

template <int MT, int WN, int NTW, int D, int STAGES, int B>
static int launch_tiled(const w4a16_call &p)
{
	if (p.n % (8 * NTW * WN) != 0)
		return (int)cudaErrorInvalidValue;
	int tiles;
	const int blocks = tiled_grid<MT, WN, NTW, D, STAGES, B>(p.m, p.n, p.k, &tiles);
	w4a16_tiled<MT, WN, NTW, D, STAGES, B><<<blocks, 32 * WN, STAGES * stage_u4<MT, WN, NTW, D>() * 16,
									 p.stream>>>(
		p.a, p.wq, p.sc, p.c, p.ws, p.cnt, p.m, p.n, p.k);
	return (int)cudaGetLastError();
}

// The instances the driver may choose from (bench.py tries each, as
// Triton's autotune would).  GEMV: rows a pass (8 MT), column tiles a
// block (NTB), groups in flight a warp (D), A loaded with them (AR), blocks
// an SM its registers must allow (MINB).  TILED: rows a tile (16 MT), warps (WN), column tiles a
// warp (NTW), groups of weights in flight in registers (D; 0: staged with A),
// stages of A (STAGES), blocks
// an SM its registers must allow and its grid has (B, or as many as fit).
#define CONFIGS(GEMV, TILED)                                                    \
	GEMV(1, 1, 2, 0, 4) GEMV(1, 1, 4, 0, 4) GEMV(1, 2, 2, 0, 4)             \
	GEMV(1, 2, 4, 0, 3) GEMV(1, 4, 2, 0, 3) GEMV(1, 8, 2, 0, 2)             \
	GEMV(2, 1, 4, 0, 4) GEMV(2, 2, 2, 0, 3) GEMV(2, 4, 2, 0, 2)             \
	GEMV(4, 2, 2, 0, 2) GEMV(8, 1, 2, 0, 2) GEMV(1, 1, 2, 1, 4)             \
	GEMV(1, 1, 4, 1, 2) GEMV(1, 2, 2, 1, 3) GEMV(1, 4, 2, 1, 2)             \
	GEMV(2, 1, 2, 1, 2) GEMV(2, 2, 2, 1, 2) GEMV(1, 4, 4, 0, 2)             \
	GEMV(1, 2, 3, 0, 4) GEMV(2, 2, 2, 0, 4) GEMV(2, 1, 2, 0, 4)             \
	GEMV(2, 2, 3, 0, 3) GEMV(2, 1, 3, 0, 4)                                 \
	TILED(4, 4, 4, 2, 4, 2) TILED(4, 8, 2, 1, 4, 2) TILED(4, 8, 2, 2, 4, 2) \
	TILED(4, 4, 4, 1, 4, 3) TILED(4, 4, 4, 1, 3, 3) TILED(2, 4, 4, 1, 4, 4) \
	TILED(2, 4, 2, 2, 4, 4) TILED(4, 8, 4, 1, 3, 1) TILED(4, 8, 4, 0, 3, 1) \
	TILED(4, 8, 2, 0, 4, 2) TILED(2, 4, 4, 0, 4, 4) TILED(8, 8, 2, 0, 3, 1) \
	TILED(2, 4, 2, 2, 4, 2) TILED(2, 4, 2, 2, 4, 3) TILED(4, 4, 2, 2, 4, 4) \
	TILED(4, 4, 2, 1, 4, 4) TILED(2, 8, 2, 2, 4, 2) TILED(4, 8, 4, 1, 4, 1) \
	TILED(4, 8, 4, 0, 4, 1) TILED(2, 4, 2, 0, 3, 4) TILED(2, 8, 2, 2, 4, 3) \
	TILED(2, 8, 2, 1, 4, 3) TILED(2, 8, 4, 1, 4, 2) TILED(4, 8, 4, 0, 5, 1) \
	TILED(4, 8, 4, 1, 5, 1) TILED(1, 8, 2, 2, 4, 2) TILED(1, 4, 4, 1, 4, 4) \
	TILED(1, 8, 4, 1, 4, 2) TILED(1, 4, 2, 2, 4, 4) TILED(1, 8, 4, 0, 4, 2)

#define GEMV_NAME(mt, ntb, d, ar, minb) "gemv " #mt "x" #ntb "x" #d "x" #ar "x" #minb,
#define TILED_NAME(mt, wn, ntw, d, st, b) "tiled " #mt "x" #wn "x" #ntw "x" #d "x" #st "x" #b,
static const char *const config_names[] = {CONFIGS(GEMV_NAME, TILED_NAME)};
#define NCONFIGS (int)(sizeof config_names / sizeof *config_names)

// C = A W on `stream` with instance `cfg` of CONFIGS; K a multiple of 128,
// N of the instance's columns a block.  Returns a cudaError_t.
extern "C" int w4a16_launch_cfg(const void *a, const void *wq, const void *sc, void *c, void *ws,
				void *cnt, int m, int n, int k, int cfg, void *stream)
{
	if (cfg < 0 || cfg >= NCONFIGS || k % 128 != 0)
		return (int)cudaErrorInvalidValue;
	const w4a16_call p = {(const __half *)a, (const uint32_t *)wq, (const __half *)sc,
			      (__half *)c, (float *)ws, (int *)cnt, m, n, k, (cudaStream_t)stream};
	int i = 0;
#define LAUNCH_GEMV(mt, ntb, d, ar, minb)                                        \
	if (cfg == i++)                                                          \
		return launch_gemv<mt, ntb, d, ar, minb>(p);
#define LAUNCH_TILED(mt, wn, ntw, d, st, b)                                      \
	if (cfg == i++)                                                          \
		return launch_tiled<mt, wn, ntw, d, st, b>(p);
	CONFIGS(LAUNCH_GEMV, LAUNCH_TILED)
	return (int)cudaErrorInvalidValue;
}

// The workspace instance `cfg` needs at (m, n, k): out[0] floats of ws,
// out[1] ints of cnt (0 for the GEMV kernel), both to be zeroed once.
extern "C" void w4a16_workspace(int m, int n, int k, int cfg, long long *out)
{
	out[0] = out[1] = 0;
	int i = 0, tiles;
#define WS_GEMV(mt, ntb, d, ar, minb) i++;
#define WS_TILED(mt, wn, ntw, d, st, b)                                          \
	if (cfg == i++) {                                                        \
		tiled_grid<mt, wn, ntw, d, st, b>(m, n, k, &tiles);              \
		out[0] = (long long)m * n;                                       \
		out[1] = tiles;                                                  \
	}
	CONFIGS(WS_GEMV, WS_TILED)
}

// The number of instances, and instance `cfg`'s name ("gemv MTxNTBxDxARxMINB" or
// "tiled MTxWNxNTWxDxSTAGESxB").
extern "C" int w4a16_config(int cfg, const char **name)
{
	if (cfg >= 0 && cfg < NCONFIGS)
		*name = config_names[cfg];
	return NCONFIGS;
}
#endif

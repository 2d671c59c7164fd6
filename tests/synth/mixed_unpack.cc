// mixed_unpack.cc - tests/synth/mixed.sh: the index functions that `lego gen`
// writes into the FP16 x INT4 kernel (bench/synth/mixed/mixed.cu, included
// here with a host compiler) against a plain packing written in this file.
//
//   mixed_unpack table K N    the nibble of W[k, n] for k, n row-major, by
//                             the plain packer (to compare with lego table)
//   mixed_unpack check M K N  packs random 4-bit values and scales plainly,
//                             then reads them back as the kernel does: for
//                             every lane 4 g + t, mma step (w, s) and
//                             register h of its 16 bytes of a column tile,
//                             the word and nibbles it takes, the f16x2
//                             halves its shift and 0x000f000f mask give and
//                             its scale must be W[k, n], W[k + 1, n] and the
//                             scale of column n = 8 nt + g, k = 128 kt + 32 t
//                             + 8 w + 4 s + 2 h; the A elements of the same
//                             lane, step and register must be A[r, k],
//                             A[r, k + 1]; C[r, n] row-major; the kernels'
//                             mma (operands swapped: two column tiles' weights
//                             the A operand, 8 rows of A the B operand), run
//                             here from the PTX ISA's m16n8k16 fragment
//                             tables on the registers the kernels make,
//                             must give A W where the epilogue puts it; and
//                             the tiled kernel's staged slice of A: its
//                             16-byte copies (row r, chunk j) put every
//                             element of the slice in a place of its own,
//                             and the 16 bytes lane 4 g + t loads for step
//                             (w, s) of row 8 mi + g (at row g's place plus
//                             8 mi rows) hold A[r, k], A[r, k + 1] at
//                             register h; the places its copies of
//                             that slice work out per thread; and its
//                             staged weights and
//                             scales (D = 0 instances): each copy to a
//                             place of its own, and what a lane reads
//                             back the nibbles and scale of its columns.
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "mixed.cu"

// The format as described in mixed.lego, in plain mixed radix: the parts
// of k (kt, t, w, s, h, e) and n (nt, g), nibbles ordered nt, kt, g, t, w,
// e, s, h from the outermost.
static long long plain_nibble(long long K, long long k, long long n)
{
	long long kt = k / 128, t = k / 32 % 4, w = k / 8 % 4, s = k / 4 % 2;
	long long h = k / 2 % 2, e = k % 2, nt = n / 8, g = n % 8;
	return ((((((nt * (K / 128) + kt) * 8 + g) * 4 + t) * 4 + w) * 2 + e) * 2 + s) * 2 + h;
}

static int fails;

static void expect(bool ok, const char *what, long long a, long long b, long long c)
{
	if (!ok && fails++ < 10)
		std::printf("FAIL %s at %lld %lld %lld\n", what, a, b, c);
}

// The kernels' mma steps simulated on small integers: for each group,
// pair of column tiles (2 p, 2 p + 1; the second absent past N), 8 rows of
// A (8 mi ..) and step (w, s), lane 4 g + t makes weight register 2 h +
// tile from its word of that tile (nibbles wq_nibble(s, h, e)) and A
// register h from row 8 mi + g (a_index); the PTX ISA's m16n8k16 tables
// say where each register's halves sit in the operands (A: a_i is row g +
// 8 (i % 2), column 2 t + 8 (i / 2) + e; B: b_h is row 2 t + 8 h + e,
// column g; D: c_i is row g + 8 (i / 2), column 2 t + i % 2), and the
// kernels' epilogue puts c_i at row 8 mi + 2 t + i % 2, column 8 (2 p +
// i / 2) + g of C.  The sums must be A W.
static void mma_check(long long M, long long K, long long N, const std::vector<int> &q,
		      const std::vector<unsigned> &words)
{
	std::vector<long long> a(M * K), c(M * N, 0);
	unsigned x = 777;
	for (auto &v : a) {
		x = x * 1103515245u + 12345u;
		v = (long long)((x >> 16) % 7) - 3;
	}
	for (int kt = 0; kt < K / 128; kt++)
		for (int p = 0; 2 * p < N / 8; p++)
			for (int mi = 0; 8 * mi < M; mi++)
				for (int w = 0; w < 4; w++)
					for (int s = 0; s < 2; s++) {
						long long wop[16][16] = {}, aop[16][8] = {};
						for (int lane = 0; lane < 32; lane++) {
							int g = lane / 4, t = lane % 4;
							for (int h = 0; h < 2; h++)
								for (int e = 0; e < 2; e++) {
									for (int tile = 0; tile < 2; tile++) {
										int nt = 2 * p + tile;
										if (nt >= N / 8)
											continue;
										unsigned word = words[wq_word(K, N, kt, t, w, nt, g)];
										int i = 2 * h + tile;
										wop[g + 8 * (i % 2)][2 * t + 8 * (i / 2) + e] =
											(int)(word >> (4 * wq_nibble(s, h, e)) & 15) - 8;
									}
									long long r = 8 * mi + g;
									aop[2 * t + 8 * h + e][g] =
										r < M ? a[a_index(M, K, (int)r, kt, t, w, s, h) + e] : 0;
								}
						}
						for (int lane = 0; lane < 32; lane++) {
							int g = lane / 4, t = lane % 4;
							for (int i = 0; i < 4; i++) {
								long long d = 0;
								for (int kk = 0; kk < 16; kk++)
									d += wop[g + 8 * (i / 2)][kk] * aop[kk][2 * t + i % 2];
								long long r = 8 * mi + 2 * t + i % 2, nt = 2 * p + i / 2;
								if (r < M && nt < N / 8)
									c[c_index(M, N, (int)r, (int)(8 * nt + g))] += d;
							}
						}
					}
	for (long long r = 0; r < M; r++)
		for (long long n = 0; n < N; n++) {
			long long want = 0;
			for (long long k = 0; k < K; k++)
				want += a[r * K + k] * (q[k * N + n] - 8);
			expect(c[r * N + n] == want, "mma C", r, n, want);
		}
}

// The tiled kernel's staged weights and scales (D = 0): a block of up to
// 64 column tiles from tile nb copies lane l's 16 bytes of tile j (wq_word
// at t = l % 4, g = l / 4) to ws_index(j, l) and tile j's 8 scales
// (sc_index at g = 0) to ss_index(j, 0) of a stage; each place is written
// once, and what lane 4 g + t of the warp owning tile j reads back there (16
// bytes at ws_index(j, 4 g + t), its scale at ss_index(j, g)) must be its
// words of the plain packing, the nibble of W[k, n] at word w, nibble
// wq_nibble(s, h, e), and the scale of (kt, n), n = 8 (nb + j) + g.
static void staged_check(long long K, long long N, const std::vector<int> &q,
			 const std::vector<unsigned> &words)
{
	const int tiles = N / 8 < 64 ? (int)(N / 8) : 64;
	for (int kt = 0; kt < K / 128; kt++)
		for (int nb = 0; nb + tiles <= N / 8; nb += tiles) {
			std::vector<long long> wsm(64 * 256, -1), ssm(64 * 8, -1);
			for (int j = 0; j < tiles; j++) {
				for (int l = 0; l < 32; l++)
					for (int i = 0; i < 8; i++) { // halves: word i / 2, half i % 2
						int o = ws_index(j, l) + i;
						expect(o >= 0 && o < 64 * 256 && wsm[o] < 0, "Ws place", j, l, i);
						if (o >= 0 && o < 64 * 256)
							wsm[o] = 2 * wq_word(K, N, kt, l % 4, 0, nb + j, l / 4) + i;
					}
				for (int i = 0; i < 8; i++) {
					int o = ss_index(j, 0) + i;
					expect(o >= 0 && o < 64 * 8 && ssm[o] < 0, "Ss place", j, i, 0);
					if (o >= 0 && o < 64 * 8)
						ssm[o] = sc_index(K, N, kt, nb + j, 0) + i;
				}
			}
			for (int j = 0; j < tiles; j++)
				for (int lane = 0; lane < 32; lane++) {
					int g = lane / 4, t = lane % 4;
					long long n = 8 * (nb + j) + g;
					int at = ws_index(j, lane), sat = ss_index(j, g);
					expect(at % 8 == 0 && sat >= 0 && sat < 64 * 8 &&
						       ssm[sat] == sc_index(K, N, kt, nb + j, g),
					       "staged scale", kt, n, sat);
					for (int w = 0; w < 4; w++) {
						long long h0 = at >= 0 && at + 2 * w < 64 * 256 ? wsm[at + 2 * w] : -1;
						expect(h0 >= 0 && h0 % 2 == 0, "staged word", kt, n, w);
						if (h0 < 0 || h0 % 2 != 0)
							continue;
						unsigned word = words[h0 / 2];
						for (int s = 0; s < 2; s++)
							for (int h = 0; h < 2; h++)
								for (int e = 0; e < 2; e++) {
									long long k = 128 * kt + 32 * t + 8 * w + 4 * s + 2 * h + e;
									int v = word >> (4 * wq_nibble(s, h, e)) & 15;
									expect(v == q[k * N + n], "staged weight", k, n, v);
								}
					}
				}
		}
}

// The tiled kernel's copies of A's slice as it makes them: thread tid of a
// block of WN warps copies chunk a_j = tid % 16 of rows a_r0 + 2 WN i (a_r0
// = tid / 16) to row a_r0's place plus 2 WN i x 128 halves.  For every
// block shape, each (row, chunk) of a 16 MT-row slice must be copied once,
// to where As puts it.
static void copy_place_check()
{
	for (int wn = 4; wn <= 8; wn *= 2)
		for (int mt = 1; mt <= 8; mt *= 2) {
			std::vector<int> hit(16 * mt * 16, 0);
			for (int tid = 0; tid < 32 * wn; tid++)
				for (int i = 0; i < 16 * mt * 16 / (32 * wn); i++) {
					int r = tid / 16 + 2 * wn * i, j = tid % 16;
					int at = as_index(tid / 16, 8 * j) + 2 * wn * i * 128;
					expect(r < 16 * mt && at == as_index(r, 8 * j), "A copy place", wn, mt, tid);
					if (r < 16 * mt)
						hit[r * 16 + j]++;
				}
			for (int c = 0; c < 16 * mt * 16; c++)
				expect(hit[c] == 1, "A copy once", wn, mt, c);
		}
}

static int check(long long M, long long K, long long N)
{
	std::vector<int> q(K * N), seen(K * N, 0);
	std::vector<unsigned> words(K * N / 8, 0);
	std::vector<int> scales(K / 128 * N), plain_sc(K / 128 * N);
	unsigned x = 12345;
	for (long long k = 0; k < K; k++)
		for (long long n = 0; n < N; n++) {
			x = x * 1103515245u + 12345u;
			int v = (x >> 16) & 15;
			q[k * N + n] = v;
			long long p = plain_nibble(K, k, n);
			words[p / 8] |= (unsigned)v << (4 * (p % 8));
		}
	// Scales stand for themselves: (kt, n) packed as nt, kt, g.
	for (long long kt = 0; kt < K / 128; kt++)
		for (long long n = 0; n < N; n++) {
			long long p = ((n / 8) * (K / 128) + kt) * 8 + n % 8;
			plain_sc[p] = (int)(kt * N + n);
		}
	for (int kt = 0; kt < K / 128; kt++)
		for (int nt = 0; nt < N / 8; nt++)
			for (int lane = 0; lane < 32; lane++) {
				int g = lane / 4, t = lane % 4;
				long long n = 8 * nt + g;
				long long si = sc_index(K, N, kt, nt, g);
				expect(si >= 0 && si < K / 128 * N && plain_sc[si] == kt * N + n,
				       "scale", kt, n, si);
				for (int w = 0; w < 4; w++)
					for (int s = 0; s < 2; s++)
						for (int h = 0; h < 2; h++) { // b0, b1
							long long wi = wq_word(K, N, kt, t, w, nt, g);
							expect(wi >= 0 && wi < K * N / 8, "word range", kt, nt, lane);
							if (wi < 0 || wi >= K * N / 8)
								continue;
							unsigned pair = (words[wi] >> (4 * wq_nibble(s, h, 0))) & 0x000f000fu;
							long long k = 128 * kt + 32 * t + 8 * w + 4 * s + 2 * h;
							expect((int)(pair & 15) == q[k * N + n], "low half", k, n, wi);
							expect((int)(pair >> 16) == q[(k + 1) * N + n], "high half", k + 1, n, wi);
							seen[k * N + n]++;
							seen[(k + 1) * N + n]++;
							for (long long r = 0; r < M; r++)
								expect(a_index(M, K, (int)r, kt, t, w, s, h) == r * K + k,
								       "A", r, k, 0);
						}
			}
	for (long long i = 0; i < K * N; i++)
		expect(seen[i] == 1, "each element read once", i / N, i % N, seen[i]);
	for (long long r = 0; r < M; r++)
		for (long long n = 0; n < N; n++)
			expect(c_index(M, N, (int)r, (int)n) == r * N + n, "C", r, n, 0);
	// The staged slice (128 rows, one group): each cell says which element
	// of A the kernel's copy put there, as the kernel computes both ends.
	for (int kt = 0; kt < K / 128; kt++) {
		std::vector<long long> slice(128 * 128, -1);
		for (int r = 0; r < 128 && r < M; r++)
			for (int j = 0; j < 16; j++)
				for (int i = 0; i < 8; i++) {
					int o = as_index(r, 8 * j) + i;
					expect(o >= 0 && o < 128 * 128 && slice[o] < 0, "As place", r, j, i);
					if (o >= 0 && o < 128 * 128)
						slice[o] = a_index(M, K, r, kt, j / 4, j % 4, 0, 0) + i;
				}
		for (int lane = 0; lane < 32; lane++) {
			int g = lane / 4, t = lane % 4;
			for (int mi = 0; mi < 16; mi++) {
				int r = 8 * mi + g;
				if (r >= M)
					continue;
				for (int w = 0; w < 4; w++) {
					int at = as_index(g, 32 * t + 8 * w) + 8 * 128 * mi;
						expect(at % 8 == 0, "As 16-byte load", r, t, w);
						long long base = a_index(M, K, r, kt, t, w, 0, 0);
					for (int s = 0; s < 2; s++)
						for (int h = 0; h < 2; h++)
							for (int e = 0; e < 2; e++) {
								// the kernel's a_part: register h of step s
								long long part = a_index(M, K, r, kt, t, w, s, h) - base;
								long long k = 128 * kt + 32 * t + 8 * w + 4 * s + 2 * h + e;
								expect(slice[at + part + e] == r * K + k, "A staged", r, k, at);
							}
				}
			}
		}
	}
	copy_place_check();
	staged_check(K, N, q, words);
	mma_check(M, K, N, q, words);
	std::printf("%s M=%lld K=%lld N=%lld\n", fails ? "bad" : "ok", M, K, N);
	return fails != 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && std::string_view(argv[1]) == "table") {
		long long K = atoll(argv[2]), N = atoll(argv[3]);
		for (long long k = 0; k < K; k++)
			for (long long n = 0; n < N; n++)
				std::printf("%s%lld", k + n ? " " : "", plain_nibble(K, k, n));
		std::printf("\n");
		return 0;
	}
	if (argc == 5 && std::string_view(argv[1]) == "check")
		return check(atoll(argv[2]), atoll(argv[3]), atoll(argv[4]));
	std::fprintf(stderr, "usage: mixed_unpack table K N | check M K N\n");
	return 2;
}

/* test_synth.c - thread-value layouts, the cost of their accesses and the
 * synthesis of shared-memory layouts.  The fragment tables are transcribed
 * here from the PTX ISA's descriptions (row and column per lane and
 * register), the wavefronts are counted here by a reference written
 * from the hardware's rules, and the synthesised layouts are compared
 * with the best of spaces enumerated here by brute force. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

/* --------------------------------------- PTX ISA fragment tables */

typedef void (*frag_fn)(int lane, int i, int arg, int *row, int *col);

static int group_id(int lane) { return lane >> 2; }
static int thread_in_group(int lane) { return lane % 4; }

/* mma.m16n8k16 .f16/.bf16, ISA 9.7.13.5.8 (fragments for mma.m16n8k16
 * with floating point type). */
static void mma16_a(int lane, int i, int arg, int *row, int *col)
{
	(void)arg;
	int g = group_id(lane), q = thread_in_group(lane);
	*row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
	*col = i < 4 ? q * 2 + (i & 1) : q * 2 + (i & 1) + 8;
}

static void mma16_b(int lane, int i, int arg, int *row, int *col)
{
	(void)arg;
	int q = thread_in_group(lane);
	*row = i < 2 ? q * 2 + (i & 1) : q * 2 + (i & 1) + 8;
	*col = group_id(lane);
}

/* C/D of both m16n8k16 and m16n8k32. */
static void mma_c(int lane, int i, int arg, int *row, int *col)
{
	(void)arg;
	*row = i < 2 ? group_id(lane) : group_id(lane) + 8;
	*col = thread_in_group(lane) * 2 + (i & 1);
}

/* mma.m16n8k32 .s8/.u8/.e4m3/.e5m2, ISA 9.7.13.5.9. */
static void mma32_a(int lane, int i, int arg, int *row, int *col)
{
	(void)arg;
	int g = group_id(lane), q = thread_in_group(lane);
	*row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
	*col = i < 8 ? q * 4 + (i & 3) : q * 4 + (i & 3) + 16;
}

static void mma32_b(int lane, int i, int arg, int *row, int *col)
{
	(void)arg;
	int q = thread_in_group(lane);
	*row = i < 4 ? q * 4 + (i & 3) : q * 4 + (i & 3) + 16;
	*col = group_id(lane);
}

/* ldmatrix (ISA 9.7.14.5.15): of each 8x8 matrix, lane l gets row l/4,
 * elements 2 (l % 4) and 2 (l % 4) + 1; .trans gives the transpose.
 * Matrix j lands in register j; our footprints place it at (8 (j % 2),
 * 8 (j / 2)) for x4 and (0, 8 j) for x2. */
static void ldm(int lane, int i, int arg, int *row, int *col)
{
	int j = i / 2, n = arg & 7, trans = arg >> 3;
	int r = lane / 4, c = 2 * (lane % 4) + i % 2;
	int r0 = n == 4 ? 8 * (j % 2) : 0, c0 = n == 4 ? 8 * (j / 2) : 8 * j;
	*row = r0 + (trans ? c : r);
	*col = c0 + (trans ? r : c);
}

/* wgmma .m64nNk16 D (ISA 9.7.15.5.1, figure "WGMMA .m64nNk16 register
 * fragment layout for accumulator matrix D"): warp w of the warpgroup
 * holds rows 16 w + groupID (+ 8), columns 8 (i / 4) + 2 tid + i % 2. */
static void wgmma_d(int thread, int i, int arg, int *row, int *col)
{
	(void)arg;
	int w = thread / 32, lane = thread % 32;
	*row = 16 * w + group_id(lane) + 8 * ((i % 4) / 2);
	*col = 8 * (i / 4) + thread_in_group(lane) * 2 + (i % 2);
}

/* wgmma .m64nNk16 A from registers, .f16/.bf16 (ISA 9.7.15.5.1, figure
 * "WGMMA .m64nNk16 register fragment layout for matrix A"): warp w holds
 * rows 16 w + groupID (a2 a3 a6 a7: + 8), columns 2 tid + i % 2 (a4-a7:
 * + 8). */
static void wgmma_a(int thread, int i, int arg, int *row, int *col)
{
	(void)arg;
	int w = thread / 32, lane = thread % 32;
	*row = 16 * w + group_id(lane) + ((i == 2 || i == 3 || i == 6 ||
					   i == 7) ? 8 : 0);
	*col = thread_in_group(lane) * 2 + (i & 1) + (i >= 4 ? 8 : 0);
}

static void copy_v(int thread, int i, int arg, int *row, int *col)
{
	*row = 0;
	*col = thread * arg + i;
}

/* Every (thread, value) of tv against the table, exhaustively, and the
 * layout's numeric and simplified symbolic apply against it too. */
static void check_frag(lego_test *t, lego_ctx *ctx, const lego_tv *tv,
		       frag_fn fn, int arg, int64_t threads, int64_t values,
		       int64_t rows, int64_t cols, int64_t vec)
{
	CHECK(t, tv != NULL);
	if (!tv)
		return;
	CHECK_EQ(t, tv->threads, threads);
	CHECK_EQ(t, tv->values, values);
	CHECK_EQ(t, tv->rows, rows);
	CHECK_EQ(t, tv->cols, cols);
	CHECK_EQ(t, tv->vec, vec);
	lego_expr *ti = lego_index_fresh(ctx, "ft", NULL,
					 lego_const(ctx, threads));
	lego_expr *vi = lego_index_fresh(ctx, "fv", NULL,
					 lego_const(ctx, values));
	lego_expr *idx[2] = {ti, vi};
	lego_expr *sym = lego_simplify(ctx, lego_layout_apply(ctx, tv->layout,
							      idx));
	CHECK(t, sym != NULL);
	lego_env *env = lego_env_new(ctx);
	int bad = 0;
	for (int th = 0; th < threads; th++)
		for (int i = 0; i < values; i++) {
			int row, col;
			int64_t r, c, flat, e, in[2] = {th, i};
			fn(th, i, arg, &row, &col);
			lego_tv_coord(ctx, tv, th, i, &r, &c);
			lego_layout_apply_num(ctx, tv->layout, NULL, in, &flat);
			lego_env_bind(env, ti, th);
			lego_env_bind(env, vi, i);
			if (lego_expr_eval(ctx, sym, env, &e) != LEGO_OK)
				e = -1;
			if ((r != row || c != col || flat != row * cols + col ||
			     e != flat) && bad++ < 3)
				CHECKF(t, 0, "%s: thread %d value %d: (%lld, "
				       "%lld), layout %lld, simplified %lld; "
				       "ISA (%d, %d)", tv->name, th, i,
				       (long long)r, (long long)c,
				       (long long)flat, (long long)e, row, col);
		}
	lego_env_free(env);
	lego_check_report rep;
	CHECK_EQ(t, lego_layout_check(ctx, tv->layout, NULL, &rep), LEGO_OK);
}

static void tv_fragments(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	test_case(t, "mma_m16n8k16_fragments_match_the_isa");
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_MMA_A, 16, 2),
		   mma16_a, 0, 32, 8, 16, 16, 2);
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_MMA_B, 16, 2),
		   mma16_b, 0, 32, 4, 16, 8, 1);
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_MMA_C, 16, 4),
		   mma_c, 0, 32, 4, 16, 8, 2);
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_MMA_C, 16, 2),
		   mma_c, 0, 32, 4, 16, 8, 2);

	test_case(t, "mma_m16n8k32_fragments_match_the_isa");
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_MMA_A, 32, 1),
		   mma32_a, 0, 32, 16, 16, 32, 4);
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_MMA_B, 32, 1),
		   mma32_b, 0, 32, 8, 32, 8, 1);
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_MMA_C, 32, 4),
		   mma_c, 0, 32, 4, 16, 8, 2);

	test_case(t, "ldmatrix_fragments_match_the_isa");
	static const int fp[5][2] = {{0, 0}, {8, 8}, {8, 16}, {0, 0},
				     {16, 16}};
	for (int n = 1; n <= 4; n *= 2)
		for (int tr = 0; tr < 2; tr++)
			check_frag(t, ctx, lego_tv_builtin(ctx,
				   tr ? LEGO_TV_LDMATRIX_TRANS
				      : LEGO_TV_LDMATRIX, n, 2),
				   ldm, n | tr << 3, 32, 2 * n, fp[n][0],
				   fp[n][1], tr ? 1 : 2);

	test_case(t, "wgmma_m64nNk16_accumulators_match_the_isa");
	for (int n = 8; n <= 256; n += n < 64 ? 8 : 64)
		check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_WGMMA_C, n, 4),
			   wgmma_d, 0, 128, n / 2, 64, n, 2);

	test_case(t, "wgmma_m64nNk16_register_a_matches_the_isa");
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_WGMMA_A, 16, 2),
		   wgmma_a, 0, 128, 8, 64, 16, 2);
	CHECK(t, !lego_tv_builtin(ctx, LEGO_TV_WGMMA_A, 16, 4));

	test_case(t, "vector_copies");
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_COPY, 16, 2), copy_v,
		   8, 32, 8, 1, 256, 8);
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_COPY, 8, 4), copy_v,
		   2, 32, 2, 1, 64, 2);
	check_frag(t, ctx, lego_tv_builtin(ctx, LEGO_TV_COPY, 4, 1), copy_v,
		   4, 32, 4, 1, 128, 4);

	test_case(t, "tv_errors");
	CHECK(t, !lego_tv_builtin(ctx, LEGO_TV_MMA_A, 16, 1));
	CHECK(t, strstr(lego_ctx_error(ctx), "2-byte") != NULL);
	CHECK(t, !lego_tv_builtin(ctx, LEGO_TV_LDMATRIX, 3, 2));
	CHECK(t, !lego_tv_builtin(ctx, LEGO_TV_WGMMA_C, 12, 4));
	CHECK(t, !lego_tv_builtin(ctx, LEGO_TV_COPY, 2, 4));
	CHECK(t, !lego_tv_builtin(ctx, LEGO_TV_COPY, 16, 3));
	CHECK(t, !lego_tv_builtin(ctx, (lego_tv_kind)99, 16, 2));
	lego_expr *d[2] = {lego_const(ctx, 32), lego_const(ctx, 4)};
	lego_layout *rw = lego_row(ctx, 2, d);
	CHECK(t, !lego_tv_new(ctx, "x", rw, 16, 16, 2)); /* 128 != 256 */
	int64_t r, c;
	const lego_tv *cp = lego_tv_new(ctx, "x", rw, 8, 16, 2);
	CHECK(t, cp && cp->vec == 4);
	CHECK_EQ(t, lego_tv_coord(ctx, cp, 32, 0, &r, &c), LEGO_ERANGE);
	lego_ctx_free(ctx);
}

/* ------------------------------------------- reference wavefronts */

/* An access as the test sees it: the TV's table and how it moves. */
typedef struct ref_access {
	const lego_tv *tv;
	int64_t *fp;               /* footprint index of (t, v) */
} ref_access;

static void ref_init(lego_ctx *ctx, ref_access *a, const lego_tv *tv)
{
	a->tv = tv;
	a->fp = malloc((size_t)(tv->threads * tv->values) * sizeof *a->fp);
	for (int64_t th = 0; th < tv->threads; th++)
		for (int64_t v = 0; v < tv->values; v++) {
			int64_t r = 0, c = 0;
			lego_tv_coord(ctx, tv, th, v, &r, &c);
			a->fp[th * tv->values + v] = r * tv->cols + c;
		}
}

/* Distinct 4-byte words per bank in one phase: the phase's cost. */
static int64_t phase_words(const int64_t *addr, int n, int64_t bytes)
{
	int64_t words[32 * 4];
	int nw = 0;
	for (int k = 0; k < n; k++)
		for (int64_t w = addr[k] / 4; w <= (addr[k] + bytes - 1) / 4;
		     w++) {
			int seen = 0;
			for (int j = 0; j < nw; j++)
				seen |= words[j] == w;
			if (!seen)
				words[nw++] = w;
		}
	int64_t worst = 0;
	for (int b = 0; b < 32; b++) {
		int64_t in = 0;
		for (int j = 0; j < nw; j++)
			in += words[j] % 32 == b;
		worst = in > worst ? in : worst;
	}
	return worst;
}

/* The wavefronts of one access to a tile whose element (r, c) is at
 * off[r * cols + c]; -1 when a vector is not contiguous.  The footprint
 * is placed at every multiple of its size (flat: along the row-major
 * tile), elements outside the tile left out. */
static int64_t ref_wavefronts(const ref_access *a, const int64_t *off,
			      int64_t rows, int64_t cols, int64_t eb)
{
	const lego_tv *tv = a->tv;
	int64_t vec = tv->ldmatrix ? 8 : tv->vec, total = 0;
	int64_t across = (cols + tv->cols - 1) / tv->cols;
	int64_t np = tv->flat ? (rows * cols + tv->cols - 1) / tv->cols
			      : (rows + tv->rows - 1) / tv->rows * across;
	for (int64_t p = 0; p < np; p++) {
		/* element of footprint index f, -1 outside */
		#define ELEM(f) (tv->flat ? (p * tv->cols + (f) < rows * cols \
			? p * tv->cols + (f) : -1) : \
			(p / across * tv->rows + (f) / tv->cols < rows && \
			 p % across * tv->cols + (f) % tv->cols < cols ? \
			 (p / across * tv->rows + (f) / tv->cols) * cols + \
			 p % across * tv->cols + (f) % tv->cols : -1))
		if (tv->ldmatrix) {
			/* The memory rows of matrix j are the rows of its
			 * 8 x 8 block of the footprint, at (8 (j % 2),
			 * 8 (j / 2)) in the x4 and (0, 8 j) otherwise. */
			for (int j = 0; j < tv->ldmatrix; j++) {
				int64_t addr[8];
				int64_t r0 = tv->ldmatrix == 4 ? 8 * (j % 2) : 0;
				int64_t c0 = tv->ldmatrix == 4 ? 8 * (j / 2)
							      : 8 * j;
				for (int r = 0; r < 8; r++) {
					int64_t e = ELEM((r0 + r) * tv->cols +
							 c0);
					for (int k = 1; k < 8; k++)
						if (off[e + k] != off[e] + k)
							return -1;
					addr[r] = off[e] * eb;
				}
				total += phase_words(addr, 8, 16);
			}
			continue;
		}
		int per_phase = (int)(128 / (vec * eb < 4 ? 4 : vec * eb));
		per_phase = per_phase > 32 ? 32 : per_phase;
		for (int64_t w0 = 0; w0 < tv->threads; w0 += 32)
			for (int64_t v = 0; v < tv->values; v += vec)
				for (int64_t l0 = 0; l0 < 32; l0 += per_phase) {
					int64_t addr[32];
					int n = 0;
					for (int64_t l = l0; l < l0 + per_phase;
					     l++) {
						int64_t e = ELEM(a->fp[(w0 + l) *
							tv->values + v]);
						if (e < 0)
							continue;
						for (int k = 1; k < vec; k++)
							if (off[e + k] !=
							    off[e] + k)
								return -1;
						if (off[e] % vec)
							return -1;
						addr[n++] = off[e] * eb;
					}
					total += phase_words(addr, n, vec * eb);
				}
		#undef ELEM
	}
	return total;
}

/* ---------------------------------------------- cost: hand counts */

static void row_offsets(int64_t *off, int64_t rows, int64_t cols,
			int64_t stride)
{
	for (int64_t r = 0; r < rows; r++)
		for (int64_t c = 0; c < cols; c++)
			off[r * cols + c] = r * stride + c;
}

static void expect_cost(lego_test *t, lego_ctx *ctx, const lego_tv *tv,
			int64_t rows, int64_t cols, int64_t stride,
			int64_t wavefronts, int64_t ideal, int64_t ways)
{
	int64_t *off = malloc((size_t)(rows * cols) * sizeof *off);
	row_offsets(off, rows, cols, stride);
	lego_smem s = {rows, cols, rows * stride, off};
	lego_access_cost c;
	CHECK_EQ(t, lego_tv_access_cost(ctx, tv, &s, &c), LEGO_OK);
	CHECKF(t, c.feasible && c.wavefronts == wavefronts &&
	       c.ideal == ideal && c.worst_ways == ways,
	       "%s on %lld x %lld (stride %lld): %lld wavefronts (ideal "
	       "%lld, %lld-way), expected %lld (ideal %lld, %lld-way)",
	       tv->name, (long long)rows, (long long)cols, (long long)stride,
	       (long long)c.wavefronts, (long long)c.ideal,
	       (long long)c.worst_ways, (long long)wavefronts,
	       (long long)ideal, (long long)ways);
	ref_access a;
	ref_init(ctx, &a, tv);
	CHECK_EQ(t, ref_wavefronts(&a, off, rows, cols, tv->elem_bytes),
		 wavefronts);
	free(a.fp);
	free(off);
}

/* The sectors of tv over a row-major rows x cols tile of that stride. */
static void expect_sectors(lego_test *t, lego_ctx *ctx, const lego_tv *tv,
			   int64_t rows, int64_t cols, int64_t stride,
			   int64_t sectors, int64_t ideal)
{
	int64_t *off = malloc((size_t)(rows * cols) * sizeof *off);
	row_offsets(off, rows, cols, stride);
	lego_smem s = {rows, cols, rows * stride, off};
	lego_access_cost c;
	CHECK_EQ(t, lego_tv_access_cost(ctx, tv, &s, &c), LEGO_OK);
	CHECKF(t, c.sectors == sectors && c.ideal_sectors == ideal,
	       "%s on %lld x %lld: %lld sectors (ideal %lld), expected %lld "
	       "(%lld)", tv->name, (long long)rows, (long long)cols,
	       (long long)c.sectors, (long long)c.ideal_sectors,
	       (long long)sectors, (long long)ideal);
	free(off);
}

static void cost_hand_counts(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	const lego_tv *cp = lego_tv_builtin(ctx, LEGO_TV_COPY, 16, 2);
	const lego_tv *ldm4 = lego_tv_builtin(ctx, LEGO_TV_LDMATRIX, 4, 2);
	const lego_tv *ldm1 = lego_tv_builtin(ctx, LEGO_TV_LDMATRIX, 1, 2);
	const lego_tv *c32 = lego_tv_builtin(ctx, LEGO_TV_MMA_C, 16, 4);
	const lego_tv *a16 = lego_tv_builtin(ctx, LEGO_TV_MMA_A, 16, 2);

	test_case(t, "cost_16_byte_copy_of_a_row_major_tile");
	/* 4096 f16 = 16 warp copies of 512 contiguous bytes: 4 phases of 8
	 * threads, 128 bytes each, conflict-free. */
	expect_cost(t, ctx, cp, 64, 64, 64, 64, 64, 1);

	test_case(t, "cost_ldmatrix_x4_down_128_byte_rows_is_8_way");
	/* The 8 rows of a matrix are 128 bytes apart: the same 4 banks,
	 * 8 wavefronts a matrix, 4 matrices, 16 placements. */
	expect_cost(t, ctx, ldm4, 64, 64, 64, 512, 64, 8);
	/* 32-byte rows: rows r and r + 4 share banks, 2-way. */
	expect_cost(t, ctx, ldm4, 16, 16, 16, 8, 4, 2);
	/* 80-byte rows (96 x 40 f16): words 20 r mod 32 = 0 20 8 28 16 4 24
	 * 12, eight disjoint groups of 4 banks. */
	expect_cost(t, ctx, ldm1, 96, 40, 40, 60, 60, 1);
	/* padded to 72 elements (144 bytes): 36 r mod 32 = 4 r, disjoint. */
	expect_cost(t, ctx, ldm4, 64, 64, 72, 64, 64, 1);

	test_case(t, "cost_mma_accumulator_store");
	/* 8-byte stores, 16-thread phases: rows g = 0..3 of 32 bytes are one
	 * contiguous 128 bytes. */
	expect_cost(t, ctx, c32, 16, 8, 8, 4, 4, 1);
	/* Rows of 256 bytes: the 4 rows of a phase share 8 banks, 4-way;
	 * 2 instructions of 2 phases, 8 placements. */
	expect_cost(t, ctx, c32, 16, 64, 64, 128, 32, 4);

	test_case(t, "cost_mma_a_fragment_read_with_32_bit_loads");
	/* a0a1 of lane (g, q): row g, bytes 4q of a 32-byte row: rows g and
	 * g + 4 collide, 2-way, for each of 4 registers. */
	expect_cost(t, ctx, a16, 16, 16, 16, 8, 4, 2);

	test_case(t, "cost_global_sectors");
	/* the offsets read as global memory: a 16-byte copy of 64 x 64 f16
	 * moves 512 contiguous bytes an instruction, 16 sectors, 16 times */
	expect_sectors(t, ctx, cp, 64, 64, 64, 256, 256);
	/* ldmatrix x4 down 128-byte rows: matrices 0 and 2 lie side by side,
	 * so the 16 rows of the footprint are 16 sectors of 32 bytes, the
	 * ideal; x1: 8 rows of 16 bytes, 8 sectors for 4 */
	expect_sectors(t, ctx, ldm4, 64, 64, 64, 256, 256);
	expect_sectors(t, ctx, ldm1, 64, 64, 64, 512, 256);
	/* 8-byte accumulator stores into rows of 256 bytes: an instruction's
	 * 8 rows of 32 contiguous bytes are 8 sectors, the ideal 8 */
	expect_sectors(t, ctx, c32, 16, 64, 64, 128, 128);
	lego_expr *d[2] = {lego_const(ctx, 32), lego_const(ctx, 1)};
	const lego_tv *col = lego_tv_new(ctx, "col", lego_row(ctx, 2, d), 32,
					 1, 4);
	/* a warp down a column of 32 f32 rows of 128 bytes: 32 sectors for
	 * 128 bytes (4), 32 columns */
	expect_sectors(t, ctx, col, 32, 32, 32, 1024, 128);

	test_case(t, "cost_infeasible_vectors");
	/* Swizzle<3,0,3> moves single elements: no 16-byte vector stays. */
	static int64_t off[65 * 65];
	for (int64_t o = 0; o < 64 * 64; o++)
		off[o] = o ^ ((o >> 3) & 7);
	lego_smem s = {64, 64, 64 * 64, off};
	lego_access_cost c;
	CHECK_EQ(t, lego_tv_access_cost(ctx, cp, &s, &c), LEGO_OK);
	CHECK(t, !c.feasible);
	CHECK_EQ(t, lego_tv_access_cost(ctx, ldm4, &s, &c), LEGO_OK);
	CHECK(t, !c.feasible);
	off[5] = 64 * 64;   /* outside the space */
	CHECK_EQ(t, lego_tv_access_cost(ctx, cp, &s, &c), LEGO_ERANGE);
	lego_smem odd = {65, 65, 65 * 65, off};
	row_offsets(off, 65, 65, 65);
	CHECK_EQ(t, lego_tv_access_cost(ctx, cp, &odd, &c), LEGO_ERR);
	lego_ctx_free(ctx);
}

/* -------------------------------------- synthesis against brute force */

/* A layout of the test's own space: row stride `stride`, then an XOR of
 * bits (Swizzle<B,M,S>: b > 0) on the flat offset, or of `unit`-element
 * chunks by row (xmod > 0). */
typedef struct ref_layout {
	int64_t stride;
	int b, m, s;
	int64_t unit, xdiv, xmod;
} ref_layout;

static int64_t ref_offset(const ref_layout *l, int64_t r, int64_t c,
			  int64_t cols)
{
	if (l->b) {
		int64_t o = r * cols + c;
		return o ^ ((o >> l->s) & (((1 << l->b) - 1) << l->m));
	}
	if (l->xmod)
		return r * l->stride + ((c / l->unit) ^ (r / l->xdiv %
							l->xmod)) *
		       l->unit + c % l->unit;
	return r * l->stride + c;
}

typedef struct best {
	int64_t excess, pad;
} best;

static void keep(best *b, int64_t excess, int64_t pad)
{
	if (excess >= 0 && (b->excess < 0 || excess < b->excess ||
			    (excess == b->excess && pad < b->pad))) {
		b->excess = excess;
		b->pad = pad;
	}
}

/* Excess wavefronts of every access on the offsets; -1 infeasible. */
static int64_t ref_excess(ref_access *acc, size_t n, const int64_t *off,
			  int64_t rows, int64_t cols, int64_t eb,
			  const int64_t *ideal)
{
	int64_t ex = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t w = ref_wavefronts(&acc[k], off, rows, cols, eb);
		if (w < 0)
			return -1;
		ex += w - ideal[k];
	}
	return ex;
}

static void synth_case(lego_test *t, const char *what, int64_t rows,
		       int64_t cols, size_t n, const lego_tv **tvs,
		       lego_ctx *ctx)
{
	int64_t eb = tvs[0]->elem_bytes;
	ref_access acc[4];
	int64_t ideal[4];
	int64_t *off = malloc((size_t)(rows * cols) * sizeof *off);
	for (size_t k = 0; k < n; k++)
		ref_init(ctx, &acc[k], tvs[k]);
	/* The ideal of an access (its phases with an active thread) is the
	 * same on every layout keeping its vectors: a constant subtracted
	 * from both sides of every comparison below, taken from the
	 * library on the row-major tile. */
	row_offsets(off, rows, cols, cols);
	lego_smem s = {rows, cols, rows * cols, off};
	for (size_t k = 0; k < n; k++) {
		lego_access_cost c;
		lego_tv_access_cost(ctx, tvs[k], &s, &c);
		ideal[k] = c.ideal;
	}
	best pad = {-1, 0}, cute = {-1, 0}, all = {-1, 0};
	/* padding: every stride from cols to cols + 128 bytes */
	for (int64_t st = cols; (st - cols) * eb < 128; st++) {
		ref_layout l = {st, 0, 0, 0, 1, 1, 0};
		for (int64_t r = 0; r < rows; r++)
			for (int64_t c = 0; c < cols; c++)
				off[r * cols + c] = ref_offset(&l, r, c, cols);
		int64_t ex = ref_excess(acc, n, off, rows, cols, eb, ideal);
		keep(&pad, ex, (st - cols) * rows * eb);
	}
	/* CuTe Swizzle<B,M,S>: every one whose block divides the tile */
	for (int b = 1; b <= 3; b++)
		for (int m = 0; m <= 4; m++)
			for (int sh = b; sh <= 7; sh++) {
				if ((rows * cols) % (1 << (m + b)))
					continue;
				ref_layout l = {cols, b, m, sh, 1, 1, 0};
				for (int64_t r = 0; r < rows; r++)
					for (int64_t c = 0; c < cols; c++)
						off[r * cols + c] =
							ref_offset(&l, r, c,
								   cols);
				keep(&cute, ref_excess(acc, n, off, rows, cols,
						       eb, ideal), 0);
			}
	/* XOR of chunks by row, chunks of 1..16 elements, rows padded to a
	 * power of two of chunks */
	for (int64_t unit = 1; unit <= 16; unit *= 2) {
		int64_t nch = (cols + unit - 1) / unit, p2 = 1;
		while (p2 < nch)
			p2 *= 2;
		if ((p2 * unit - cols) * eb > 128)
			continue;
		for (int64_t xd = 1; xd <= 8; xd *= 2)
			for (int64_t xm = 2; xm <= p2; xm *= 2) {
				ref_layout l = {p2 * unit, 0, 0, 0, unit, xd,
						xm};
				for (int64_t r = 0; r < rows; r++)
					for (int64_t c = 0; c < cols; c++)
						off[r * cols + c] =
							ref_offset(&l, r, c,
								   cols);
				keep(&all, ref_excess(acc, n, off, rows, cols,
						      eb, ideal),
				     (p2 * unit - cols) * rows * eb);
			}
	}
	keep(&all, pad.excess, pad.pad);
	keep(&all, cute.excess, cute.pad);

	lego_synth_result res;
	test_case(t, what);
	CHECK_EQ(t, lego_synth(ctx, "S", rows, cols, eb, n, tvs, 0, &res),
		 LEGO_OK);
	/* The result's own layout, evaluated through the API */
	int64_t sz = 0;
	lego_expr_is_const(lego_layout_size(ctx, res.layout), &sz);
	for (int64_t r = 0; r < rows; r++)
		for (int64_t c = 0; c < cols; c++) {
			int64_t idx[2] = {r, c};
			lego_layout_apply_num(ctx, res.layout, NULL, idx,
					      &off[r * cols + c]);
		}
	int64_t ex = ref_excess(acc, n, off, rows, cols, eb, ideal);
	lego_check_report rep;
	CHECK_EQ(t, lego_layout_check(ctx, res.layout, NULL, &rep), LEGO_OK);
	CHECK(t, res.bijective);
	CHECK_EQ(t, (sz - rows * cols) * eb, res.pad_bytes);
	CHECKF(t, ex >= 0 && ex <= all.excess && (ex < all.excess ||
						   res.pad_bytes <= all.pad),
	       "%s: synthesised %s: excess %lld, padding %lld bytes; the "
	       "brute-force best: excess %lld, padding %lld", what, res.desc,
	       (long long)ex, (long long)res.pad_bytes, (long long)all.excess,
	       (long long)all.pad);
	CHECK(t, pad.excess < 0 || ex <= pad.excess);
	CHECK(t, cute.excess < 0 || ex <= cute.excess);
	/* conflict-free whenever one of the space is; no padding when a
	 * swizzle suffices */
	CHECK(t, all.excess != 0 || ex == 0);
	CHECK(t, cute.excess != 0 || res.pad_bytes == 0);
	CHECK_EQ(t, res.wavefronts - res.ideal, ex);
	if (t->verbose)
		printf("  %s: %s, %lld wavefronts (ideal %lld), padding %lld "
		       "bytes\n", what, res.desc, (long long)res.wavefronts,
		       (long long)res.ideal, (long long)res.pad_bytes);
	for (size_t k = 0; k < n; k++)
		free(acc[k].fp);
	free(off);
}

static void synth_vs_brute_force(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	const lego_tv *cp16 = lego_tv_builtin(ctx, LEGO_TV_COPY, 16, 2);
	const lego_tv *ldm4 = lego_tv_builtin(ctx, LEGO_TV_LDMATRIX, 4, 2);
	const lego_tv *ldm1 = lego_tv_builtin(ctx, LEGO_TV_LDMATRIX, 1, 2);
	const lego_tv *ldt = lego_tv_builtin(ctx, LEGO_TV_LDMATRIX_TRANS, 2,
					     2);
	const lego_tv *cpf = lego_tv_builtin(ctx, LEGO_TV_COPY, 16, 4);
	const lego_tv *cp4 = lego_tv_builtin(ctx, LEGO_TV_COPY, 4, 4);
	const lego_tv *acc = lego_tv_builtin(ctx, LEGO_TV_MMA_C, 16, 4);
	/* a warp reading a column: thread t row t */
	lego_expr *d[2] = {lego_const(ctx, 32), lego_const(ctx, 1)};
	const lego_tv *colf = lego_tv_new(ctx, "col", lego_row(ctx, 2, d), 32,
					  1, 4);

	const lego_tv *g1[] = {cp16, ldm4};
	synth_case(t, "synth_64x64_f16_copy_and_ldmatrix_x4", 64, 64, 2, g1,
		   ctx);
	synth_case(t, "synth_32x64_f16_copy_and_ldmatrix_x4", 32, 64, 2, g1,
		   ctx);
	const lego_tv *g2[] = {cp16, ldm1};
	synth_case(t, "synth_96x40_f16_copy_and_ldmatrix_x1", 96, 40, 2, g2,
		   ctx);
	const lego_tv *g3[] = {cp16, ldt};
	synth_case(t, "synth_32x32_f16_copy_and_ldmatrix_x2_trans", 32, 32, 2,
		   g3, ctx);
	const lego_tv *g4[] = {cpf, colf};
	synth_case(t, "synth_48x80_f32_copy_and_column_reads", 48, 80, 2, g4,
		   ctx);
	const lego_tv *g5[] = {cp4, colf};
	synth_case(t, "synth_32x32_f32_scalar_copy_and_column_reads", 32, 32,
		   2, g5, ctx);
	const lego_tv *g6[] = {acc, cpf};
	synth_case(t, "synth_64x128_f32_mma_accumulators_and_copy", 64, 128,
		   2, g6, ctx);
	lego_expr *di[2] = {lego_const(ctx, 32), lego_const(ctx, 1)};
	const lego_tv *coli = lego_tv_new(ctx, "coli", lego_row(ctx, 2, di),
					  32, 1, 4);
	const lego_tv *g7[] = {cp4, coli};
	synth_case(t, "synth_65x65_s32_row_and_column_reads", 65, 65, 2, g7,
		   ctx);

	test_case(t, "synth_errors");
	lego_synth_result r;
	CHECK_EQ(t, lego_synth(ctx, "S", 64, 64, 4, 2, g1, 0, &r), LEGO_ERR);
	CHECK(t, strstr(lego_ctx_error(ctx), "2-byte") != NULL);
	CHECK_EQ(t, lego_synth(ctx, "S", 0, 64, 2, 2, g1, 0, &r), LEGO_ERR);
	CHECK_EQ(t, lego_synth(ctx, "S", 64, 64, 2, 0, g1, 0, &r), LEGO_ERR);
	CHECK_EQ(t, lego_synth(ctx, "S", 64, 64, 2, 2, NULL, 0, &r), LEGO_ERR);
	/* 16-byte vectors of f16 cannot tile rows of 65 */
	CHECK_EQ(t, lego_synth(ctx, "S", 64, 65, 2, 2, g1, 0, &r), LEGO_ERR);
	lego_ctx_free(ctx);
}

/* NULL arguments: the documented failure with a message, never a crash
 * (as test_null.c does for the rest of lego.h). */
static void synth_null(lego_test *t)
{
	test_case(t, "synth_null_arguments");
	lego_ctx *ctx = lego_ctx_new();
	const lego_tv *tv = lego_tv_builtin(ctx, LEGO_TV_COPY, 4, 4);
	int64_t r, c, off[1] = {0};
	lego_smem sm = {1, 1, 1, off};
	lego_access_cost cost;
	lego_synth_result res;
	CHECK(t, !lego_tv_builtin(NULL, LEGO_TV_COPY, 4, 4));
	CHECK(t, !lego_tv_new(NULL, "x", tv->layout, 1, 128, 4));
	CHECK(t, lego_tv_coord(NULL, tv, 0, 0, &r, &c) == LEGO_ERR);
	CHECK(t, lego_tv_access_cost(NULL, tv, &sm, &cost) == LEGO_ERR);
	CHECK(t, lego_synth(NULL, "S", 1, 1, 4, 1, &tv, 0, &res) == LEGO_ERR);
	CHECK(t, !lego_spec_tv(NULL, "x"));
	CHECK(t, !*lego_ctx_error(ctx));
#define FAILS(call)                                                        \
	do {                                                               \
		lego_ctx *c2 = lego_ctx_new();                             \
		CHECKF(t, (call), "%s accepted NULL", #call);              \
		CHECKF(t, *lego_ctx_error(c2), "%s: no message", #call);   \
		lego_ctx_free(c2);                                         \
	} while (0)
	FAILS(!lego_tv_new(c2, NULL, tv->layout, 1, 128, 4));
	FAILS(!lego_tv_new(c2, "x", NULL, 1, 128, 4));
	FAILS(lego_tv_coord(c2, NULL, 0, 0, &r, &c) == LEGO_ERR);
	FAILS(lego_tv_coord(c2, tv, 0, 0, NULL, &c) == LEGO_ERR);
	FAILS(lego_tv_coord(c2, tv, 0, 0, &r, NULL) == LEGO_ERR);
	FAILS(lego_tv_access_cost(c2, NULL, &sm, &cost) == LEGO_ERR);
	FAILS(lego_tv_access_cost(c2, tv, NULL, &cost) == LEGO_ERR);
	FAILS(lego_tv_access_cost(c2, tv, &sm, NULL) == LEGO_ERR);
	FAILS(lego_synth(c2, NULL, 1, 1, 4, 1, &tv, 0, &res) == LEGO_ERR);
	FAILS(lego_synth(c2, "S", 1, 1, 4, 1, NULL, 0, &res) == LEGO_ERR);
	FAILS(lego_synth(c2, "S", 1, 1, 4, 1, &tv, 0, NULL) == LEGO_ERR);
#undef FAILS
	lego_spec *spec = lego_spec_parse(ctx, "s", "tv a = copy(4, f32)\n",
					  20, NULL, 0);
	CHECK(t, spec && lego_spec_tv(spec, "a") && !lego_spec_tv(spec, NULL)
	      && !lego_spec_tv(spec, "b"));
	lego_ctx_free(ctx);
}

void suite_synth(lego_test *t)
{
	synth_null(t);
	tv_fragments(t);
	cost_hand_counts(t);
	synth_vs_brute_force(t);
}

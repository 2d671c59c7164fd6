/* test_synth_infer.c - layout inference for tile programs.  The expected
 * layouts are written here from the PTX ISA's fragment descriptions (row
 * and column of each lane's register i of mma.m16n8k16, and of ldmatrix's
 * lane l and matrix j), tiled over each warp's slice by hand, and every
 * register a load instruction writes is checked against them; conflicts
 * must be reported at their places. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "lego.h"
#include "synth/prog.h"

/* The GEMM of tests/synth/gemm.tile with sizes of the caller. */
static synth_prog *gemm_k(lego_ctx *ctx, int bm, int bn, int bk, int wm,
			  int wn, const char *mma_args)
{
	char text[1024];
	snprintf(text, sizeof text,
		 "kernel g\nblock [%d, %d, %d]\nwarps [%d, %d]\nstages 3\n"
		 "global A : f16 [M, K]\nglobal B : f16 [N, K]\n"
		 "global C : f16 [M, N]\n"
		 "shared sA : f16 [%d, %d] = copy(A, 16)\n"
		 "shared sB : f16 [%d, %d] = copy(B, 16)\n"
		 "reg a = load(sA)\nreg b = load(sB)\n"
		 "reg c = mma(m16n8k16, %s)\nreg h : f16 = cast(c)\n"
		 "store(C, h)\n", bm, bn, bk, wm, wn, bm, bk, bn, bk,
		 mma_args);
	return synth_prog_parse(ctx, "g.tile", text, strlen(text));
}

static synth_prog *gemm(lego_ctx *ctx, int bm, int bn, int wm, int wn,
			const char *mma_args)
{
	return gemm_k(ctx, bm, bn, 32, wm, wn, mma_args);
}

static const prog_tensor *named(const synth_prog *p, const char *name)
{
	for (size_t k = 0; k < p->n; k++)
		if (!strcmp(p->t[k].name, name))
			return &p->t[k];
	return NULL;
}

/* ISA: A register i of lane l: row g + 8 ((i / 2) % 2), column
 * 2 q + i % 2 + 8 (i / 4); B (K x N): row 2 q + i % 2 + 8 (i / 2),
 * column g; C: row g + 8 (i / 2), column 2 q + i % 2 (g = l / 4,
 * q = l % 4). */
static void isa_frag(char role, int l, int i, int *r, int *c)
{
	int g = l / 4, q = l % 4;
	if (role == 'a') {
		*r = g + 8 * (i / 2 % 2);
		*c = 2 * q + i % 2 + 8 * (i / 4);
	} else if (role == 'b') {      /* read as N x K: transposed */
		*r = g;
		*c = 2 * q + i % 2 + 8 * (i / 2);
	} else {
		*r = g + 8 * (i / 2);
		*c = 2 * q + i % 2;
	}
}

/* Register v of the tiled layout: fragment register v % n of the
 * fragment at repetition v / n, repetitions row-major over the slice. */
static void expect_tiled(lego_test *t, const prog_tensor *x, char role,
			 int fr, int fc, int n, int wrows, int wcols)
{
	CHECK_EQ(t, x->wrows, wrows);
	CHECK_EQ(t, x->wcols, wcols);
	CHECK_EQ(t, x->values, wrows * wcols / 32);
	int bad = 0;
	for (int l = 0; l < 32; l++)
		for (int v = 0; v < x->values; v++) {
			int r, c, rep = v / n;
			isa_frag(role, l, v % n, &r, &c);
			r += rep / (wcols / fc) * fr;
			c += rep % (wcols / fc) * fc;
			bad += x->table[l * x->values + v] != r * wcols + c;
		}
	CHECKF(t, !bad, "%s: %d registers off the ISA's tiled fragment",
	       x->name, bad);
}

/* ldmatrix (ISA 9.7.9.25): lane l receives elements 2 (l % 4) and +1 of
 * row l / 4 of matrix j into register j; the lanes' addresses place the
 * matrices: in an x4 by columns 0 1 go down the left half of the 16 x 16
 * footprint, 2 3 down the right; by rows 0 1 across the top half.  Each
 * pair of matrices 2q, 2q+1 must fill an aligned pair of 32-bit registers
 * (the unit the mma reads), or the compiler moves them. */
static void expect_loads(lego_test *t, const prog_tensor *x, int mats,
			 int by_rows)
{
	CHECKF(t, x->instr && x->instr->ldmatrix == mats && x->by_rows ==
	       by_rows, "%s: ldmatrix x%d%s expected", x->name, mats,
	       by_rows ? " by rows" : "");
	if (!x->instr || x->instr->ldmatrix != mats || x->by_rows != by_rows)
		return;
	int fr = mats == 4 ? 16 : 8, fc = mats == 1 ? 8 : 16;
	int bc = (int)x->wcols / fc, nb = (int)x->wrows / fr * bc, bad = 0;
	for (int b = 0; b < nb; b++)
		for (int j = 0; j < 2 * mats; j++)
			for (int l = 0; l < 32; l++) {
				int m = j / 2, r = l / 4, c = 2 * (l % 4) + j % 2;
				int mr = mats < 4 ? 0 : by_rows ? m / 2 : m % 2;
				int mc = mats < 4 ? m : by_rows ? m % 2 : m / 2;
				r += mr * 8 + b / bc * fr;
				c += mc * 8 + b % bc * fc;
				int64_t reg = x->reg[b * 2 * mats + j];
				bad += x->table[l * x->values + reg] !=
				       r * x->wcols + c;
				if (j % 4 == 2 && !l)
					bad += x->reg[b * 2 * mats + j - 2] % 4 ||
					       reg != x->reg[b * 2 * mats + j - 2] + 2;
			}
	CHECKF(t, !bad, "%s: %d loaded registers hold other elements",
	       x->name, bad);
}

static void infers_gemm(lego_test *t)
{
	static const int cfg[][4] = {{128, 128, 2, 2}, {64, 128, 1, 4},
				     {128, 64, 4, 1}};
	for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
		const int *g = cfg[k];
		char name[64];
		snprintf(name, sizeof name, "gemm %dx%d warps %dx%d", g[0],
			 g[1], g[2], g[3]);
		test_case(t, name);
		lego_ctx *ctx = lego_ctx_new();
		synth_prog *p = gemm(ctx, g[0], g[1], g[2], g[3], "a, b");
		CHECK(t, p && !synth_prog_infer(ctx, p));
		if (!p || *lego_ctx_error(ctx)) {
			lego_ctx_free(ctx);
			continue;
		}
		int wm = g[0] / g[2], wn = g[1] / g[3];
		expect_tiled(t, named(p, "a"), 'a', 16, 16, 8, wm, 32);
		expect_tiled(t, named(p, "b"), 'b', 8, 16, 4, wn, 32);
		expect_tiled(t, named(p, "c"), 'c', 16, 8, 4, wm, wn);
		expect_tiled(t, named(p, "h"), 'c', 16, 8, 4, wm, wn);
		/* A 16 x 16 block is one x4 whichever slice, matrices down
		 * the columns (a0a1 a2a3 | a4a5 a6a7); B's 8-row fragments
		 * pair into x4s by rows (b0b1 b2b3 of one, then the next) */
		expect_loads(t, named(p, "a"), 4, 0);
		expect_loads(t, named(p, "b"), 4, 1);
		for (int s = 0; s < 2; s++) {
			const prog_tensor *x = named(p, s ? "sB" : "sA");
			CHECK(t, x->synth.bijective);
			CHECK_EQ(t, x->synth.cost[1].wavefronts,
				 x->synth.cost[1].ideal);
			CHECK_EQ(t, x->synth.pad_bytes, 0);
		}
		lego_ctx_free(ctx);
	}
}

/* The cp.async copy's wavefronts, counted here as ncu counts an LDGSTS
 * (bench/synth/gemm/README.md): a phase of 8 lanes of 16 bytes takes one
 * wavefront per global 128-byte line it reads.  Thread i of the copy's
 * instruction j moves the 8 halves from element 8 (j T + i) of the
 * row-major tile (T threads); the tile's rows (64 or 128 bytes) each lie
 * in their own line. */
static int64_t copy_lines(int rows, int bk, int threads)
{
	int64_t total = 0;
	for (int j = 0; j < rows * bk / 8 / threads; j++)
		for (int ph = 0; ph < threads / 8; ph++) {
			int first = -1, lines = 0;
			for (int i = 8 * ph; i < 8 * ph + 8; i++) {
				int row = 8 * (j * threads + i) / bk;
				lines += row != first;
				first = row;
			}
			total += lines;
		}
	return total;
}

/* The 128-byte swizzle of wgmma's matrix descriptors (PTX ISA, "Shared
 * Memory Matrix Layout"): in a K-major tile of 128-byte rows at a
 * 1024-byte aligned address, byte address bits 4-6 (the 16-byte chunk of
 * a row) are XORed with bits 7-9 (the row within 8 rows). */
static int64_t hw_swizzle128(int64_t row, int64_t col, int64_t elem)
{
	int64_t a = 128 * row + elem * col;
	return (a ^ (a >> 7 & 7) << 4) / elem;
}

/* A tile of 128-byte rows: the layout synthesis chooses for the copy and
 * the ldmatrix is the hardware's 128-byte swizzle, element by element, so
 * that wgmma can read it through a descriptor (bench/synth/gemm/wgmma.cu
 * does, on the H100). */
static void swizzle_is_wgmma(lego_test *t, lego_ctx *ctx,
			     const synth_prog *p)
{
	for (int s = 0; s < 2; s++) {
		const prog_tensor *x = named(p, s ? "sB" : "sA");
		int bad = 0;
		for (int64_t r = 0; r < x->rows; r++)
			for (int64_t c = 0; c < x->cols; c++) {
				int64_t idx[2] = {r, c}, o = -1;
				lego_layout_apply_num(ctx, x->synth.layout,
						      NULL, idx, &o);
				bad += o != hw_swizzle128(r, c, x->elem);
			}
		CHECKF(t, !bad, "%s: %d elements off the 128-byte swizzle",
		       x->name, bad);
	}
}

static void copy_by_lines(lego_test *t)
{
	static const int cfg[][5] = {{128, 128, 32, 2, 2}, {128, 128, 64, 2, 2},
				     {64, 128, 32, 1, 4}, {128, 64, 64, 4, 1}};
	for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
		const int *g = cfg[k];
		char name[64];
		snprintf(name, sizeof name, "cp.async %dx%d k %d", g[0], g[1],
			 g[2]);
		test_case(t, name);
		lego_ctx *ctx = lego_ctx_new();
		synth_prog *p = gemm_k(ctx, g[0], g[1], g[2], g[3], g[4],
				       "a, b");
		CHECK(t, p && !synth_prog_infer(ctx, p));
		if (!p || *lego_ctx_error(ctx)) {
			lego_ctx_free(ctx);
			continue;
		}
		for (int s = 0; s < 2; s++) {
			const prog_tensor *x = named(p, s ? "sB" : "sA");
			int rows = s ? g[1] : g[0];
			CHECK_EQ(t, x->synth.cost[0].ideal,
				 rows * g[2] * 2 / 128);
			CHECK_EQ(t, x->synth.cost[0].wavefronts,
				 copy_lines(rows, g[2], 32 * g[3] * g[4]));
		}
		if (g[2] == 64)
			swizzle_is_wgmma(t, ctx, p);
		lego_ctx_free(ctx);
	}
}

/* A program whose error is expected: its message starts with where. */
static void expect_error(lego_test *t, const char *text, const char *where,
			 const char *what)
{
	lego_ctx *ctx = lego_ctx_new();
	synth_prog *p = synth_prog_parse(ctx, "e.tile", text, strlen(text));
	int rc = p ? synth_prog_infer(ctx, p) : -1;
	const char *msg = lego_ctx_error(ctx);
	CHECK(t, rc != 0);
	CHECKF(t, msg && !strncmp(msg, where, strlen(where)) &&
	       strstr(msg, what), "expected '%s ... %s', got '%s'", where,
	       what, msg ? msg : "(none)");
	lego_ctx_free(ctx);
}

#define HEAD "kernel g\nblock [64, 64, 32]\nwarps [2, 2]\n" \
	"global A : f16 [M, K]\nglobal B : f16 [N, K]\n" \
	"global C : f16 [M, N]\n" \
	"shared sA : f16 [64, 32] = copy(A, 16)\n" \
	"shared sB : f16 [64, 32] = copy(B, 16)\n"

static void reports_conflicts(lego_test *t)
{
	test_case(t, "conflicts");
	/* one tile as both operands: A and B fragments differ */
	expect_error(t, HEAD "reg a = load(sA)\nreg c = mma(m16n8k16, a, a)\n"
		     "reg h : f16 = cast(c)\nstore(C, h)\n", "e.tile:10:9: "
		     "error: conflicting layouts for 'a'", "A operand fixed "
		     "another at 10:9");
	/* nothing anchors a tile */
	expect_error(t, HEAD "reg a = load(sA)\nreg b = load(sB)\n"
		     "reg c = mma(m16n8k16, a, b)\nreg h : f16 = cast(c)\n"
		     "reg u = load(sA)\nstore(C, h)\n", "e.tile:13:5: error: "
		     "cannot infer the layout of 'u'", "no mma fixes it");
	expect_error(t, HEAD "reg a = load(sA)\nreg b = load(sB)\n"
		     "reg c = mma(m16n8k16, a, b)\nreg h : f16 = cast(c)\n"
		     "store(C, c)\n", "e.tile:13:1: error: store of f32 'c'",
		     "cast it");
	expect_error(t, HEAD "reg a = load(sA)\nreg b = load(sB)\n"
		     "reg c = mma(m16n8k16, a, b)\nreg h : f16 = cast(c)\n"
		     "store(C, q)\n", "e.tile:13:10: error: no tensor named "
		     "'q'", "");
	expect_error(t, "kernel g\nblock [64, 64, 32]\nwarps [2, 2]\n"
		     "global A : f16 [M, K]\nglobal B : f16 [N, J]\n"
		     "global C : f16 [M, N]\n"
		     "shared sA : f16 [64, 32] = copy(A, 16)\n"
		     "shared sB : f16 [64, 32] = copy(B, 16)\n"
		     "reg a = load(sA)\nreg b = load(sB)\n"
		     "reg c = mma(m16n8k16, a, b)\nreg h : f16 = cast(c)\n"
		     "store(C, h)\n", "e.tile:5:8: error: 'B' [N, J]", "");
	/* the pipeline and a block's limits, at their statements */
	static const char *const body = "reg a = load(sA)\nreg b = load(sB)\n"
		"reg c = mma(m16n8k16, a, b)\nreg h : f16 = cast(c)\n"
		"store(C, h)\n";
	char text[1024];
	snprintf(text, sizeof text, "stages 1\n%s%s", HEAD, body);
	expect_error(t, text, "e.tile:1:1: error: stages 1", "2 or more");
	/* 16 stages of two 64 x 32 f16 tiles: 16 x 8 KiB = 128 KiB fit,
	 * 32 (256 KiB) do not */
	snprintf(text, sizeof text, "stages 32\n%s%s", HEAD, body);
	expect_error(t, text, "e.tile:1:1: error: 32 stages", "262144 bytes");
	snprintf(text, sizeof text, "stages 16\n%s%s", HEAD, body);
	lego_ctx *ctx = lego_ctx_new();
	synth_prog *p = synth_prog_parse(ctx, "e.tile", text, strlen(text));
	CHECK(t, p && !synth_prog_infer(ctx, p));
	lego_ctx_free(ctx);
}

void suite_synth_infer(lego_test *t)
{
	infers_gemm(t);
	copy_by_lines(t);
	reports_conflicts(t);
}

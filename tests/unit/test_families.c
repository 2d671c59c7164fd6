/*
 * test_families.c - the simplifier on random instances of the corpus's
 * layout families (bench/simplify/corpus.txt), none of which it has seen:
 * matrix-multiply tiles in row- and column-major, grouped-GEMM program
 * ids, row-wise kernels and transposes, layer normalisation's blocks, LU
 * register tiles, the Needleman-Wunsch
 * anti-diagonal, brick stencil neighbours, XOR swizzles and Morton, at
 * random sizes, with symbolic and with concrete sizes.  For each:
 *   - exact: the simplified expression equals the layout's meaning,
 *     computed here from the family's definition (or by enumerating it),
 *     at every point of the instance's index ranges (small sizes), or at
 *     random points where there are too many;
 *   - no dearer than a hand-written form, which the test writes from the
 *     family's formula (never from liblego's output);
 *   - with concrete sizes, no dearer than with symbolic ones.
 * LEGO_FAMILIES_COUNT (instances, default 120) and LEGO_FAMILIES_SEED
 * change the run; a failure prints the spec and the forms.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

enum { MAX_VARS = 16, MAX_SIZES = 8, MAX_POINTS = 20000, SAMPLES = 3000 };

typedef struct rng {
	uint64_t s;
} rng;

static uint64_t next(rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ULL;
}

static int64_t pick(rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(next(r) % (uint64_t)(hi - lo + 1));
}

/* One instance: the spec, what is derived, the hand-written form, the
 * index variables with their ranges and the sizes. */
typedef struct inst {
	const char *family;
	char spec[2048];
	char layout[8];
	char args[6][96];   /* apply: the index expressions */
	size_t nargs;
	char flat[32];      /* inv: the flat index; comp: the component */
	int inv, comp;
	char hand[2][1024]; /* [0] symbolic sizes, [1] concrete */
	const char *var[MAX_VARS];
	int64_t lo[MAX_VARS], hi[MAX_VARS]; /* hi excluded */
	size_t nv;
	const char *size[MAX_SIZES];
	int64_t sval[MAX_SIZES];
	size_t ns;
	int64_t p[8];       /* the family's parameters */
	int64_t (*truth)(const struct inst *in, const int64_t *v);
} inst;

static void put(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(char *buf, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
}

/* An index variable over [lo, hi), declared in the spec over
 * [lo, hi_text) (the range in the sizes' names, when there are some). */
static void var_in(inst *in, const char *name, int64_t lo, int64_t hi,
		   const char *hi_text)
{
	in->var[in->nv] = name;
	in->lo[in->nv] = lo;
	in->hi[in->nv++] = hi;
	if (hi_text)
		put(in->spec, sizeof in->spec, "index %s in [%lld, %s)\n",
		    name, (long long)lo, hi_text);
	else
		put(in->spec, sizeof in->spec, "index %s in [%lld, %lld)\n",
		    name, (long long)lo, (long long)hi);
}

static void var(inst *in, const char *name, int64_t lo, int64_t hi)
{
	var_in(in, name, lo, hi, NULL);
}

static void size(inst *in, const char *name, int64_t v)
{
	in->size[in->ns] = name;
	in->sval[in->ns++] = v;
}

/* A size as the hand-written form names it: its name (symbolic) or its
 * value (concrete). */
static const char *sz(const inst *in, int concrete, const char *name,
		      char *buf)
{
	for (size_t i = 0; concrete && i < in->ns; i++)
		if (!strcmp(in->size[i], name)) {
			snprintf(buf, 24, "%lld", (long long)in->sval[i]);
			return buf;
		}
	return name;
}

static int log2i(int64_t v)
{
	return __builtin_ctzll((unsigned long long)v);
}

static int64_t floordiv(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

static int64_t floormod(int64_t a, int64_t b)
{
	return a - b * floordiv(a, b);
}

/* ------------------------------------------------- matrix-multiply tiles */

/* p: BM, BK, col-major; v: tm, tk, r, c; sizes M, K, BM, BK. */
static int64_t tile_truth(const inst *in, const int64_t *v)
{
	int64_t M = in->sval[0], K = in->sval[1], BM = in->p[0], BK = in->p[1];
	int64_t row = v[0] * BM + v[2], col = v[1] * BK + v[3];
	return in->p[2] ? col * M + row : row * K + col;
}

static void gen_tile(inst *in, rng *r)
{
	static const int64_t blocks[] = {1, 2, 3, 4, 8, 16};
	int64_t BM = blocks[pick(r, 0, 5)], BK = blocks[pick(r, 0, 5)];
	int64_t a = pick(r, 1, 4), b = pick(r, 1, 4);
	int col = (int)pick(r, 0, 1);
	in->family = col ? "matmul tile, column-major" : "matmul tile, row-major";
	in->p[0] = BM;
	in->p[1] = BK;
	in->p[2] = col;
	size(in, "M", BM * a);
	size(in, "K", BK * b);
	size(in, "BM", BM);
	size(in, "BK", BK);
	put(in->spec, sizeof in->spec,
	    "sym M, K, BM, BK\nassume M %% BM == 0 && K %% BK == 0\n");
	var_in(in, "tm", 0, a, "M/BM");
	var_in(in, "tk", 0, b, "K/BK");
	var_in(in, "r", 0, BM, "BM");
	var_in(in, "c", 0, BK, "BK");
	put(in->spec, sizeof in->spec,
	    "layout A = OrderBy(%s(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n",
	    col ? "Col" : "Row");
	strcpy(in->layout, "A");
	in->nargs = 4;
	strcpy(in->args[0], "tm");
	strcpy(in->args[1], "tk");
	strcpy(in->args[2], "r");
	strcpy(in->args[3], "c");
	for (int m = 0; m < 2; m++) {
		char b1[24], b2[24], b3[24];
		const char *sM = sz(in, m, "M", b1), *sK = sz(in, m, "K", b2);
		const char *sBM = sz(in, m, "BM", b3);
		char b4[24];
		const char *sBK = sz(in, m, "BK", b4);
		if (col)
			put(in->hand[m], sizeof in->hand[m],
			    "(tk*%s + c)*%s + tm*%s + r", sBK, sM, sBM);
		else
			put(in->hand[m], sizeof in->hand[m],
			    "(tm*%s + r)*%s + tk*%s + c", sBM, sK, sBK);
	}
	in->truth = tile_truth;
}

/* ------------------------------------------------ grouped program ids */

/* The Triton tutorial's grouped ordering; p: GM, component; v: pid. */
static int64_t pid_truth(const inst *in, const int64_t *v)
{
	int64_t npm = in->sval[0], npn = in->sval[1], GM = in->p[0];
	int64_t pid = v[0], group = pid / (GM * npn), first = group * GM;
	int64_t gsz = npm - first < GM ? npm - first : GM;
	return in->p[1] == 0 ? first + pid % gsz : pid % (GM * npn) / gsz;
}

static void gen_pid(inst *in, rng *r)
{
	static const int64_t gms[] = {1, 2, 3, 4, 8};
	int64_t GM = gms[pick(r, 0, 4)], npm = GM * pick(r, 1, 4);
	int64_t npn = pick(r, 1, 7);
	in->family = "grouped program ids";
	in->p[0] = GM;
	in->p[1] = pick(r, 0, 1);
	size(in, "npm", npm);
	size(in, "npn", npn);
	size(in, "GM", GM);
	put(in->spec, sizeof in->spec,
	    "sym npm, npn, GM\nassume npm %% GM == 0\n");
	var_in(in, "pid", 0, npm * npn, "npm * npn");
	put(in->spec, sizeof in->spec,
	    "layout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), "
	    "npn)).TileBy([npm, npn])\n");
	strcpy(in->layout, "P");
	in->inv = 1;
	in->comp = (int)in->p[1];
	strcpy(in->flat, "pid");
	for (int m = 0; m < 2; m++) {
		char b1[24], b2[24];
		const char *g = sz(in, m, "GM", b1), *n = sz(in, m, "npn", b2);
		if (in->comp == 0)
			put(in->hand[m], sizeof in->hand[m],
			    "%s*(pid/(%s*%s)) + pid%%%s", g, g, n, g);
		else
			put(in->hand[m], sizeof in->hand[m],
			    "pid%%(%s*%s)/%s", g, n, g);
	}
	in->truth = pid_truth;
}

/* ------------------------------------------- row-wise kernels, transposes */

/* p: variant (0 softmax row-major M x S, 1 transpose Row(N, M) at
 * (col, row), 2 Col(N, M) at (col, row)); v: row, col. */
static int64_t rows_truth(const inst *in, const int64_t *v)
{
	int64_t M = in->sval[0], N = in->sval[1], S = in->sval[2];
	int64_t row = v[0], col = v[1];
	return in->p[0] == 0 ? row * S + col
	       : in->p[0] == 1 ? col * M + row
			       : row * N + col;
}

static void gen_rows(inst *in, rng *r)
{
	int64_t M = pick(r, 1, 9), N = pick(r, 1, 9), S = N + pick(r, 0, 3);
	static const char *const names[] = {"softmax row", "transpose Row",
					    "transpose Col"};
	in->p[0] = pick(r, 0, 2);
	in->family = names[in->p[0]];
	size(in, "M", M);
	size(in, "N", N);
	size(in, "S", S);
	put(in->spec, sizeof in->spec, "sym M, N, S\nassume N <= S\n");
	var_in(in, "row", 0, M, "M");
	var_in(in, "col", 0, N, "N");
	put(in->spec, sizeof in->spec, "%s",
	    in->p[0] == 0   ? "layout L = Row(M, S)\n"
	    : in->p[0] == 1 ? "layout L = Row(N, M)\n"
			    : "layout L = Col(N, M)\n");
	strcpy(in->layout, "L");
	in->nargs = 2;
	strcpy(in->args[0], in->p[0] == 0 ? "row" : "col");
	strcpy(in->args[1], in->p[0] == 0 ? "col" : "row");
	for (int m = 0; m < 2; m++) {
		char b[24];
		put(in->hand[m], sizeof in->hand[m], "%s",
		    in->p[0] == 0   ? "row*" : in->p[0] == 1 ? "col*" : "row*");
		put(in->hand[m], sizeof in->hand[m], "%s + %s",
		    sz(in, m, in->p[0] == 0 ? "S" : in->p[0] == 1 ? "M" : "N", b),
		    in->p[0] == 1 ? "row" : "col");
	}
	in->truth = rows_truth;
}

/* Layer normalisation: row r of an M x N row-major matrix in blocks of
 * BLOCK columns; v: row, b, k. */
static int64_t norm_truth(const inst *in, const int64_t *v)
{
	return v[0] * in->sval[1] + v[1] * in->sval[2] + v[2];
}

static void gen_norm(inst *in, rng *r)
{
	int64_t BLOCK = pick(r, 1, 8), nb = pick(r, 1, 4), M = pick(r, 1, 6);
	in->family = "layernorm block";
	size(in, "M", M);
	size(in, "N", BLOCK * nb);
	size(in, "BLOCK", BLOCK);
	put(in->spec, sizeof in->spec,
	    "sym M, N, BLOCK\nassume N %% BLOCK == 0\n");
	var_in(in, "row", 0, M, "M");
	var_in(in, "b", 0, nb, "N/BLOCK");
	var_in(in, "k", 0, BLOCK, "BLOCK");
	put(in->spec, sizeof in->spec, "layout Y = Row(M, N)\n");
	strcpy(in->layout, "Y");
	in->nargs = 2;
	strcpy(in->args[0], "row");
	strcpy(in->args[1], "b*BLOCK + k");
	for (int m = 0; m < 2; m++) {
		char b1[24], b2[24];
		put(in->hand[m], sizeof in->hand[m], "row*%s + b*%s + k",
		    sz(in, m, "N", b1), sz(in, m, "BLOCK", b2));
	}
	in->truth = norm_truth;
}

/* LU register tiles: R x R registers of T x T threads, RegP([R, T, R,
 * T], [1, 3, 2, 4]) (physical order R, R, T, T), at the flat thread
 * (ii*R + jj)*T*T + tid; p: component; v: ii, jj, tid. */
static int64_t lud_truth(const inst *in, const int64_t *v)
{
	int64_t T = in->sval[1];
	int64_t logical[4] = {v[0], v[2] / T, v[1], v[2] % T};
	return logical[in->comp];
}

static void gen_lud(inst *in, rng *r)
{
	int64_t R = pick(r, 1, 4), T = pick(r, 1, 8);
	in->family = "LU register tiles";
	size(in, "R", R);
	size(in, "T", T);
	put(in->spec, sizeof in->spec, "sym R, T\n");
	var_in(in, "ii", 0, R, "R");
	var_in(in, "jj", 0, R, "R");
	var_in(in, "tid", 0, T * T, "T * T");
	put(in->spec, sizeof in->spec,
	    "layout L = OrderBy(RegP([R, T, R, T], [1, 3, 2, 4]))\n");
	strcpy(in->layout, "L");
	in->inv = 1;
	in->comp = (int)pick(r, 0, 3);
	strcpy(in->flat, "(ii*R + jj)*T*T + tid");
	for (int m = 0; m < 2; m++) {
		char b[24];
		const char *t = sz(in, m, "T", b);
		if (in->comp == 0 || in->comp == 2)
			put(in->hand[m], sizeof in->hand[m], "%s",
			    in->comp ? "jj" : "ii");
		else
			put(in->hand[m], sizeof in->hand[m], "tid %s %s",
			    in->comp == 1 ? "/" : "%", t);
	}
	in->truth = lud_truth;
}

/* ---------------------------------------------- Needleman-Wunsch buffer */

/* The rank of (i, j) in the n x n square walked anti-diagonal by
 * anti-diagonal (i + j ascending), each by ascending i: counted. */
static int64_t nw_truth(const inst *in, const int64_t *v)
{
	int64_t n = in->sval[0], rank = 0;
	for (int64_t d = 0; d < v[0] + v[1]; d++)
		for (int64_t i = 0; i < n; i++)
			rank += d - i >= 0 && d - i < n;
	for (int64_t i = 0; i < v[0]; i++)
		rank += v[0] + v[1] - i < n;
	return rank;
}

static void gen_nw(inst *in, rng *r)
{
	int64_t n = pick(r, 1, 12);
	in->family = "Needleman-Wunsch anti-diagonal";
	size(in, "n", n);
	put(in->spec, sizeof in->spec, "sym n\n");
	var_in(in, "i", 0, n, "n");
	var_in(in, "j", 0, n, "n");
	put(in->spec, sizeof in->spec, "layout W = GenP([n, n], antidiag)\n");
	strcpy(in->layout, "W");
	in->nargs = 2;
	strcpy(in->args[0], "i");
	strcpy(in->args[1], "j");
	/* diagonal s = i + j: before it s*(s+1)/2 cells while s < n; after
	 * the middle, n*n minus the cells of the diagonals from s on. */
	put(in->hand[0], sizeof in->hand[0],
	    "i + j < n ? i + (i + j)*(i + j + 1)/2 : n*n - n + i - "
	    "(2*n - 2 - (i + j))*(2*n - 1 - (i + j))/2");
	put(in->hand[1], sizeof in->hand[1],
	    "i + j < %lld ? i + (i + j)*(i + j + 1)/2 : %lld + i - "
	    "(%lld - (i + j))*(%lld - (i + j))/2", (long long)n,
	    (long long)(n * n - n), (long long)(2 * n - 2),
	    (long long)(2 * n - 1));
	in->truth = nw_truth;
}

/* ------------------------------------------------ brick stencil neighbours */

/* p: b (brick side), which axes move (bit 0: x, 1: y, 2: z); v: bx, by,
 * bz, i, j, k, di, dj, dk. */
static int64_t brick_truth(const inst *in, const int64_t *v)
{
	int64_t N = in->sval[0], b = in->p[0], nb = N / b, c[3];
	for (int a = 0; a < 3; a++)
		c[a] = b * v[a] + v[3 + a] + v[6 + a];
	int64_t brick = (floordiv(c[0], b) * nb + floordiv(c[1], b)) * nb +
			floordiv(c[2], b);
	return b * b * b * brick + b * b * floormod(c[0], b) +
	       b * floormod(c[1], b) + floormod(c[2], b);
}

static void gen_brick(inst *in, rng *r)
{
	static const int64_t sides[] = {2, 4, 8};
	static const char *const ax[3][4] = {{"bx", "i", "di", "X"},
					     {"by", "j", "dj", "Y"},
					     {"bz", "k", "dk", "Z"}};
	int64_t b = sides[pick(r, 0, 2)], nb = pick(r, 3, 5), N = b * nb;
	int64_t rad = pick(r, 1, b - 1);
	int moves = (int)pick(r, 0, 7), k = log2i(b);
	in->family = "brick neighbour";
	in->p[0] = b;
	in->p[1] = moves;
	size(in, "N", N);
	put(in->spec, sizeof in->spec, "sym N\nassume N %% %lld == 0\n",
	    (long long)b);
	char top[24];
	snprintf(top, sizeof top, "N/%lld - 1", (long long)b);
	for (int a = 0; a < 3; a++)
		var_in(in, ax[a][0], 1, nb - 1, top);
	for (int a = 0; a < 3; a++)
		var(in, ax[a][1], 0, b);
	for (int a = 0; a < 3; a++)
		var(in, ax[a][2], (moves >> a) & 1 ? -rad : 0,
		    (moves >> a) & 1 ? rad + 1 : 1);
	for (int a = 0; a < 3; a++)
		put(in->spec, sizeof in->spec, "let %s = %lld * %s + %s + %s\n",
		    ax[a][3], (long long)b, ax[a][0], ax[a][1], ax[a][2]);
	put(in->spec, sizeof in->spec,
	    "layout B = OrderBy(Row(N/%lld, N/%lld, N/%lld), Row(%lld, %lld, "
	    "%lld)).TileBy([N/%lld, N/%lld, N/%lld], [%lld, %lld, %lld])\n",
	    (long long)b, (long long)b, (long long)b, (long long)b,
	    (long long)b, (long long)b, (long long)b, (long long)b,
	    (long long)b, (long long)b, (long long)b, (long long)b);
	strcpy(in->layout, "B");
	in->nargs = 6;
	for (int a = 0; a < 3; a++) {
		int mv = (moves >> a) & 1;
		snprintf(in->args[a], sizeof in->args[a], mv ? "%s/%lld" : "%s",
			 mv ? ax[a][3] : ax[a][0], (long long)b);
		snprintf(in->args[3 + a], sizeof in->args[3 + a],
			 mv ? "%s%%%lld" : "%s", mv ? ax[a][3] : ax[a][1],
			 (long long)b);
	}
	/* per axis the brick coordinate (plus the carry of the neighbour's
	 * shift) and the cell (its low bits) */
	for (int m = 0; m < 2; m++) {
		char brick[3][96], cell[3][96], nbs[24];
		if (m)
			snprintf(nbs, sizeof nbs, "%lld", (long long)nb);
		else
			snprintf(nbs, sizeof nbs, "(N/%lld)", (long long)b);
		for (int a = 0; a < 3; a++) {
			int mv = (moves >> a) & 1;
			if (mv) {
				snprintf(brick[a], sizeof brick[a],
					 "(%s + ((%s + %s) >> %d))", ax[a][0],
					 ax[a][1], ax[a][2], k);
				snprintf(cell[a], sizeof cell[a],
					 "((%s + %s) & %lld)", ax[a][1],
					 ax[a][2], (long long)(b - 1));
			} else {
				snprintf(brick[a], sizeof brick[a], "%s",
					 ax[a][0]);
				snprintf(cell[a], sizeof cell[a], "%s",
					 ax[a][1]);
			}
		}
		put(in->hand[m], sizeof in->hand[m],
		    "%lld*((%s*%s + %s)*%s + %s) + %lld*%s + %lld*%s + %s",
		    (long long)(b * b * b), brick[0], nbs, brick[1], nbs,
		    brick[2], (long long)(b * b), cell[0], (long long)b,
		    cell[1], cell[2]);
	}
	in->truth = brick_truth;
}

/* ------------------------------------------------ swizzles and Morton */

/* CuTe's Swizzle<B, M, S> on the flat offset: o ^ ((o >> S) & mask). */
static int64_t swizzle(const inst *in, int64_t o)
{
	return o ^ ((o >> in->p[2]) & in->p[3]);
}

static int64_t morton(int64_t i, int64_t j, int bits)
{
	int64_t z = 0;
	for (int b = 0; b < bits; b++)
		z |= ((j >> b) & 1) << (2 * b) | ((i >> b) & 1) << (2 * b + 1);
	return z;
}

/* p: R, C (powers of two), S, mask, morton bits (0: a swizzle); apply at
 * (r, c), or component comp of the inverse at f: found by enumeration. */
static int64_t bits_truth(const inst *in, const int64_t *v)
{
	int64_t R = in->p[0], C = in->p[1];
	if (!in->inv)
		return in->p[4] ? morton(v[0], v[1], (int)in->p[4])
				: swizzle(in, C * v[0] + v[1]);
	for (int64_t r = 0; r < R; r++)
		for (int64_t c = 0; c < C; c++)
			if ((in->p[4] ? morton(r, c, (int)in->p[4])
				      : swizzle(in, C * r + c)) == v[0])
				return in->comp ? c : r;
	return -1;
}

static void gen_swizzle(inst *in, rng *r)
{
	int B = (int)pick(r, 1, 3), M = (int)pick(r, 0, 3);
	int S = (int)pick(r, B, 4), cb = (int)pick(r, 2, 6);
	int rb = M + S + B - cb > 1 ? M + S + B - cb : 1;
	int64_t R = (int64_t)1 << rb, C = (int64_t)1 << cb;
	int64_t mask = (((int64_t)1 << B) - 1) << M;
	in->family = "swizzle";
	in->p[0] = R;
	in->p[1] = C;
	in->p[2] = S;
	in->p[3] = mask;
	in->inv = (int)pick(r, 0, 1);
	var(in, "r", 0, R);
	var(in, "c", 0, C);
	if (in->inv) {
		in->nv = 0; /* the inverse enumerates f only */
		var(in, "f", 0, R * C);
	}
	put(in->spec, sizeof in->spec, "layout S = GenP([%lld, %lld], "
	    "swizzle(%d, %d, %d))\n", (long long)R, (long long)C, B, M, S);
	strcpy(in->layout, "S");
	for (int m = 0; m < 2; m++) {
		if (!in->inv) {
			put(in->hand[m], sizeof in->hand[m],
			    "(%lld*r + c) ^ (((%lld*r + c) >> %d) & %lld)",
			    (long long)C, (long long)C, S, (long long)mask);
			continue;
		}
		/* the inverse is the swizzle again (S >= B); the row is
		 * untouched when the mask lies below the column bits */
		if (in->comp == 0 && mask < C)
			put(in->hand[m], sizeof in->hand[m], "f >> %d", cb);
		else
			put(in->hand[m], sizeof in->hand[m],
			    in->comp ? "(f ^ ((f >> %d) & %lld)) & %lld"
				     : "(f ^ ((f >> %d) & %lld)) >> %lld",
			    S, (long long)mask,
			    in->comp ? (long long)(C - 1) : (long long)cb);
	}
	in->nargs = 2;
	strcpy(in->args[0], "r");
	strcpy(in->args[1], "c");
	strcpy(in->flat, "f");
	in->truth = bits_truth;
}

static void gen_morton(inst *in, rng *r)
{
	int bits = (int)pick(r, 1, 4);
	int64_t n = (int64_t)1 << bits;
	in->family = "morton";
	in->p[0] = n;
	in->p[1] = n;
	in->p[4] = bits;
	in->inv = (int)pick(r, 0, 1);
	in->comp = (int)pick(r, 0, 1);
	if (in->inv)
		var(in, "m", 0, n * n);
	else {
		var(in, "i", 0, n);
		var(in, "j", 0, n);
	}
	put(in->spec, sizeof in->spec, "layout Z = GenP([%lld, %lld], morton)\n",
	    (long long)n, (long long)n);
	strcpy(in->layout, "Z");
	strcpy(in->flat, "m");
	in->nargs = 2;
	strcpy(in->args[0], "i");
	strcpy(in->args[1], "j");
	for (int m = 0; m < 2; m++)
		for (int b = 0; b < bits; b++) {
			const char *or = b ? " | " : "";
			if (!in->inv && !b)
				put(in->hand[m], sizeof in->hand[m],
				    "(j & 1) | ((i & 1) << 1)");
			else if (!in->inv)
				put(in->hand[m], sizeof in->hand[m],
				    "%s((j & %lld) << %d) | ((i & %lld) << %d)",
				    or, (long long)1 << b, b, (long long)1 << b,
				    b + 1);
			else if (!b && in->comp)
				put(in->hand[m], sizeof in->hand[m], "(m & 1)");
			else
				put(in->hand[m], sizeof in->hand[m],
				    "%s((m >> %d) & %lld)", or,
				    b + (in->comp == 0 ? 1 : 0), (long long)1 << b);
		}
	in->truth = bits_truth;
}

/* --------------------------------------------------------------- checks */

/* The derived expression, simplified, in a fresh ctx (concrete: the sizes
 * given as -D values); *hand the hand-written form parsed there. */
static lego_expr *derive(lego_ctx *ctx, const inst *in, int concrete,
			 lego_expr **hand)
{
	lego_define defs[MAX_SIZES];
	for (size_t i = 0; i < in->ns; i++)
		defs[i] = (lego_define){in->size[i], in->sval[i]};
	lego_spec *spec = lego_spec_parse(ctx, "family.lego", in->spec,
					  strlen(in->spec), defs,
					  concrete ? in->ns : 0);
	lego_layout *l = spec ? lego_spec_layout(spec, in->layout) : NULL;
	lego_expr *idx[6], *e = NULL;
	if (!l)
		return NULL;
	*hand = lego_spec_parse_expr(spec, in->hand[concrete], NULL);
	if (in->inv) {
		lego_expr *f = lego_spec_parse_expr(spec, in->flat, NULL);
		if (f && lego_layout_inv(ctx, l, f, idx) == LEGO_OK)
			e = idx[in->comp];
	} else {
		for (size_t i = 0; i < in->nargs; i++)
			if (!(idx[i] = lego_spec_parse_expr(spec, in->args[i],
							    NULL)))
				return NULL;
		e = lego_layout_apply(ctx, l, idx);
	}
	return e ? lego_simplify(ctx, e) : NULL;
}

/* e and the hand form equal the truth at every point (or SAMPLES random
 * points when there are more than MAX_POINTS); sizes bound too. */
static int exact(lego_ctx *ctx, const inst *in, lego_expr *e, lego_expr *hand,
		 rng *r, char *why, size_t cap)
{
	lego_env *env = lego_env_new(ctx);
	lego_expr *syms[MAX_VARS];
	int64_t v[MAX_VARS], total = 1;
	int ok = env != NULL;
	for (size_t i = 0; ok && i < in->ns; i++) {
		lego_expr *s = lego_sym_find(ctx, in->size[i]);
		ok = !s || lego_env_bind(env, s, in->sval[i]) == LEGO_OK;
	}
	for (size_t i = 0; ok && i < in->nv; i++) {
		ok = (syms[i] = lego_sym_find(ctx, in->var[i])) != NULL;
		total *= in->hi[i] - in->lo[i];
	}
	int all = total <= MAX_POINTS;
	for (int64_t n = 0; ok && n < (all ? total : SAMPLES); n++) {
		int64_t rest = n;
		for (size_t i = 0; i < in->nv; i++) {
			int64_t w = in->hi[i] - in->lo[i];
			v[i] = in->lo[i] + (all ? rest % w : pick(r, 0, w - 1));
			rest /= w;
			ok = lego_env_bind(env, syms[i], v[i]) == LEGO_OK;
		}
		int64_t want = in->truth(in, v), got = 0, h = 0;
		ok = ok && lego_expr_eval(ctx, e, env, &got) == LEGO_OK &&
		     lego_expr_eval(ctx, hand, env, &h) == LEGO_OK;
		if (ok && (got != want || h != want)) {
			snprintf(why, cap, "at point %lld: liblego %lld, hand "
				 "%lld, meaning %lld", (long long)n,
				 (long long)got, (long long)h, (long long)want);
			ok = 0;
		} else if (!ok) {
			snprintf(why, cap, "evaluation failed");
		}
	}
	lego_env_free(env);
	return ok;
}

static void report(lego_test *t, const inst *in, lego_ctx *ctx, lego_expr *e,
		   const char *what)
{
	char *s = e ? lego_expr_print(ctx, e, LEGO_LANG_C) : NULL;
	test_fail_at(t, __FILE__, __LINE__, "%s: %s\n--- spec\n%s--- %s %s\n"
		     "--- liblego: %s\n--- hand: %s / %s", in->family, what,
		     in->spec, in->inv ? "inv" : "apply", in->layout,
		     s ? s : "(none)", in->hand[0], in->hand[1]);
	free(s);
}

/* Both modes when the family has sizes; returns the ops of each. */
static void check_instance(lego_test *t, const inst *in, rng *r)
{
	size_t ops[2] = {0, 0};
	int modes = in->ns ? 2 : 1;
	for (int m = 0; m < modes; m++) {
		lego_ctx *ctx = lego_ctx_new();
		lego_expr *hand = NULL, *e = derive(ctx, in, m, &hand);
		char why[160] = "";
		if (!e || !hand) {
			report(t, in, ctx, e, m ? "concrete: no expression"
						: "symbolic: no expression");
		} else if (!exact(ctx, in, e, hand, r, why, sizeof why)) {
			report(t, in, ctx, e, why);
		} else if ((ops[m] = lego_expr_ops(&e, 1)) >
			   lego_expr_ops(&hand, 1)) {
			snprintf(why, sizeof why, "%s: %zu operations, hand %zu",
				 m ? "concrete" : "symbolic", ops[m],
				 lego_expr_ops(&hand, 1));
			report(t, in, ctx, e, why);
		}
		lego_ctx_free(ctx);
	}
	if (modes == 2 && ops[1] > ops[0]) {
		char why[96];
		snprintf(why, sizeof why, "concrete %zu operations, symbolic %zu",
			 ops[1], ops[0]);
		report(t, in, NULL, NULL, why);
	}
}

void suite_families(lego_test *t)
{
	static void (*const gens[])(inst *, rng *) = {
		gen_tile, gen_pid, gen_rows, gen_norm, gen_lud, gen_nw,
		gen_brick, gen_swizzle, gen_morton};
	const char *cs = getenv("LEGO_FAMILIES_COUNT");
	const char *ss = getenv("LEGO_FAMILIES_SEED");
	long count = cs ? atol(cs) : 120;
	rng r = {ss ? strtoull(ss, NULL, 0) : 0x5eed2111ULL};
	test_case(t, "hidden instances of the corpus families");
	for (long n = 0; n < count; n++) {
		inst in;
		memset(&in, 0, sizeof in);
		gens[n % (long)(sizeof gens / sizeof gens[0])](&in, &r);
		check_instance(t, &in, &r);
	}
}

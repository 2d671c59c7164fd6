/*
 * test_props.c - property tests on thousands of random layouts built
 * through the public API (RegP, GenPs, OrderBy, GroupBy chains, TileBy,
 * TileOrderBy):
 *   (a) bijectivity, by counting the hits of lego_layout_apply_num here;
 *   (b) inv(apply(i)) == i for every i;
 *   (c) symbolic == numeric: lego_layout_apply / lego_layout_inv on index
 *       symbols, raw and simplified, evaluated under each binding;
 *   (d) lego_layout_table agrees with apply_num;
 * and the logical dims equal the ones the construction implies.
 * LEGO_PROPS_COUNT (layouts, default 2000) and LEGO_PROPS_SEED change the
 * run; a failure prints the seed, the layout number and its description;
 * LEGO_PROPS_TRACE=1 prints every layout before checking it (for crashes).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

#define MAX_RANK 16
#define MAX_SIZE 1200       /* elements of one layout */
#define SYM_SAMPLES 200     /* indices evaluated symbolically per layout */
#define MIN_SAMPLES 16      /* ... at least, for the simplified forms */
#define EVAL_BUDGET 400000  /* tree nodes evaluated per form and layout */

/* ------------------------------------------------------------ randomness */

typedef struct rng {
	uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
	/* xorshift64* */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ULL;
}

/* Uniform in [lo, hi]. */
static int64_t rng_int(rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static void rng_perm(rng *r, size_t d, int *perm)
{
	for (size_t k = 0; k < d; k++)
		perm[k] = (int)k + 1;
	for (size_t k = d; k > 1; k--) {
		size_t j = (size_t)rng_int(r, 0, (int64_t)k - 1);
		int tmp = perm[k - 1];
		perm[k - 1] = perm[j];
		perm[j] = tmp;
	}
}

/* A random divisor of n, mostly a proper one. */
static int64_t rng_divisor(rng *r, int64_t n)
{
	int64_t ds[64];
	size_t nd = 0, proper = 0;
	for (int64_t k = 1; k <= n && nd < 64; k++)
		if (n % k == 0)
			ds[nd++] = k;
	if (nd > 2 && rng_int(r, 0, 4) > 0) {
		proper = (size_t)rng_int(r, 1, (int64_t)nd - 2);
		return ds[proper];
	}
	return ds[rng_int(r, 0, (int64_t)nd - 1)];
}

/* k factors of n, product n. */
static void split(rng *r, int64_t n, size_t k, int64_t *out)
{
	for (size_t h = 0; h + 1 < k; h++) {
		out[h] = rng_divisor(r, n);
		n /= out[h];
	}
	out[k - 1] = n;
}

static int64_t product(size_t n, const int64_t *xs)
{
	int64_t p = 1;
	for (size_t k = 0; k < n; k++)
		p *= xs[k];
	return p;
}

static int is_pow2(int64_t n)
{
	return n >= 1 && (n & (n - 1)) == 0;
}

/* ------------------------------------------------------ descriptions */

typedef struct text {
	char s[8192];
	size_t n;
} text;

static void put(text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
	va_list ap;
	if (t->n >= sizeof t->s - 1)
		return;
	va_start(ap, fmt);
	int w = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		t->n += (size_t)w;
	if (t->n > sizeof t->s - 1)
		t->n = sizeof t->s - 1;
}

static void put_list(text *t, size_t n, const int64_t *xs)
{
	put(t, "[");
	for (size_t k = 0; k < n; k++)
		put(t, "%s%lld", k ? ", " : "", (long long)xs[k]);
	put(t, "]");
}

/* "Name(a, b, c)" */
static void put_call(text *t, const char *name, size_t n, const int64_t *xs)
{
	put(t, "%s(", name);
	for (size_t k = 0; k < n; k++)
		put(t, "%s%lld", k ? ", " : "", (long long)xs[k]);
	put(t, ")");
}

/* ------------------------------------------------- a user GenP in C */

/* Reverses the row-major order: size-1-B_n(i).  Any dims. */
static int rev_apply(void *user, size_t d, const int64_t *dims,
		     const int64_t *idx, int64_t *flat)
{
	int64_t f = 0;
	for (size_t k = 0; k < d; k++)
		f = f * dims[k] + idx[k];
	*flat = product(d, dims) - 1 - f;
	return LEGO_OK;
}

static int rev_inv(void *user, size_t d, const int64_t *dims, int64_t flat,
		   int64_t *idx)
{
	int64_t f = product(d, dims) - 1 - flat;
	for (size_t k = d; k-- > 1;) {
		idx[k] = f % dims[k];
		f /= dims[k];
	}
	idx[0] = f;
	return LEGO_OK;
}

static lego_expr *rev_apply_sym(lego_ctx *ctx, void *user, size_t d,
				lego_expr *const *dims, lego_expr *const *idx)
{
	lego_expr *f = lego_const(ctx, 0), *size = lego_const(ctx, 1);
	for (size_t k = 0; k < d; k++) {
		f = lego_add(ctx, lego_mul(ctx, f, dims[k]), idx[k]);
		size = lego_mul(ctx, size, dims[k]);
	}
	return lego_sub(ctx, lego_sub(ctx, size, lego_const(ctx, 1)), f);
}

static int rev_inv_sym(lego_ctx *ctx, void *user, size_t d,
		       lego_expr *const *dims, lego_expr *flat,
		       lego_expr **idx)
{
	lego_expr *size = lego_const(ctx, 1);
	for (size_t k = 0; k < d; k++)
		size = lego_mul(ctx, size, dims[k]);
	lego_expr *f = lego_sub(ctx, lego_sub(ctx, size, lego_const(ctx, 1)),
				flat);
	for (size_t k = d; k-- > 1;) {
		idx[k] = lego_mod(ctx, f, dims[k]);
		f = lego_div(ctx, f, dims[k]);
	}
	idx[0] = f;
	return LEGO_OK;
}

static const lego_genp_fn rev_fn = {
	"rev", NULL, rev_apply, rev_inv, rev_apply_sym, rev_inv_sym,
};

/* Not a bijection: B_n(i) with its lowest bit cleared. */
static int half_apply(void *user, size_t d, const int64_t *dims,
		      const int64_t *idx, int64_t *flat)
{
	int64_t f = 0;
	for (size_t k = 0; k < d; k++)
		f = f * dims[k] + idx[k];
	*flat = f & ~(int64_t)1;
	return LEGO_OK;
}

static const lego_genp_fn half_fn = {
	"half", NULL, half_apply, rev_inv, NULL, NULL,
};

/* ---------------------------------------------------------- generator */

/* A layout and the logical dims its construction implies. */
typedef struct built {
	lego_layout *l;
	size_t rank;
	int64_t dims[MAX_RANK];
} built;

typedef struct gen {
	lego_ctx *ctx;
	rng *r;
	text *t;
	int nsyms;  /* names handed out for genp_exprs symbols */
	struct built *acc;  /* when set, piece() appends its dims to it */
} gen;

static lego_expr **consts(gen *g, size_t n, const int64_t *xs,
			  lego_expr **out)
{
	for (size_t k = 0; k < n; k++)
		out[k] = lego_const(g->ctx, xs[k]);
	return out;
}

/* The rotation i*b + (j+i)%b of rows, through lego_genp_exprs. */
static lego_layout *rot_genp(gen *g, const int64_t *dims)
{
	lego_ctx *ctx = g->ctx;
	lego_expr *e[2];
	char name[32];
	consts(g, 2, dims, e);
	snprintf(name, sizeof name, "gi%d", g->nsyms++);
	lego_expr *i = lego_index(ctx, name, lego_const(ctx, 0), e[0]);
	snprintf(name, sizeof name, "gj%d", g->nsyms++);
	lego_expr *j = lego_index(ctx, name, lego_const(ctx, 0), e[1]);
	snprintf(name, sizeof name, "gx%d", g->nsyms++);
	lego_expr *x = lego_index(ctx, name, lego_const(ctx, 0),
				  lego_const(ctx, dims[0] * dims[1]));
	lego_expr *b = e[1];
	lego_expr *params[2] = {i, j};
	lego_expr *apply = lego_add(ctx, lego_mul(ctx, i, b),
				    lego_mod(ctx, lego_add(ctx, j, i), b));
	lego_expr *row = lego_div(ctx, x, b);
	lego_expr *inv[2] = {
		row, lego_mod(ctx, lego_sub(ctx, lego_mod(ctx, x, b), row), b)};
	return lego_genp_exprs(ctx, "rot", 2, e, params, apply, x, inv);
}

/* A random RegP or GenP over dims, described into g->t. */
static lego_layout *piece(gen *g, size_t d, const int64_t *dims)
{
	lego_ctx *ctx = g->ctx;
	lego_expr *e[MAX_RANK];
	int perm[MAX_RANK];
	int64_t size = product(d, dims);
	int v2 = 0;
	while (size % ((int64_t)2 << v2) == 0)
		v2++;
	consts(g, d, dims, e);
	if (g->acc && g->acc->rank + d <= MAX_RANK) {
		memcpy(g->acc->dims + g->acc->rank, dims, d * sizeof *dims);
		g->acc->rank += d;
	}
	for (int tries = 0;; tries++) {
		switch (rng_int(g->r, 0, 9)) {
		case 0:
			put_call(g->t, "Row", d, dims);
			return lego_row(ctx, d, e);
		case 1:
			put_call(g->t, "Col", d, dims);
			return lego_col(ctx, d, e);
		case 2:
			if (d != 2 || dims[0] != dims[1])
				continue;
			put(g->t, "GenP([%lld, %lld], antidiag)",
			    (long long)dims[0], (long long)dims[1]);
			return lego_genp_antidiag(ctx, e[0]);
		case 3:
			if (d != 2 || !is_pow2(dims[0]) || !is_pow2(dims[1]))
				continue;
			put(g->t, "GenP([%lld, %lld], morton)",
			    (long long)dims[0], (long long)dims[1]);
			return lego_genp_morton(ctx, e[0], e[1]);
		case 4:
			if (v2 == 0)
				continue;
			{
				int b = (int)rng_int(g->r, 1, v2 < 3 ? v2 : 3);
				int m = (int)rng_int(g->r, 0, v2 - b);
				int s = (int)rng_int(g->r, b, b + 3);
				put(g->t, "GenP(");
				put_list(g->t, d, dims);
				put(g->t, ", swizzle(%d, %d, %d))", b, m, s);
				return lego_genp_swizzle(ctx, b, m, s, d, e);
			}
		case 5:
			if (d != 2)
				continue;
			put(g->t, "GenP([%lld, %lld], rot)", (long long)dims[0],
			    (long long)dims[1]);
			return rot_genp(g, dims);
		case 6:
			put(g->t, "GenP(");
			put_list(g->t, d, dims);
			put(g->t, ", rev)");
			return lego_genp(ctx, d, e, &rev_fn);
		default:
			rng_perm(g->r, d, perm);
			put(g->t, "RegP(");
			put_list(g->t, d, dims);
			put(g->t, ", [");
			for (size_t k = 0; k < d; k++)
				put(g->t, "%s%d", k ? ", " : "", perm[k]);
			put(g->t, "])");
			return lego_regp(ctx, d, e, perm);
		}
	}
}

/* A level of `size` elements: 1..3 dims, sometimes a square. */
static lego_layout *level_of_size(gen *g, int64_t size)
{
	int64_t dims[3];
	size_t d = (size_t)rng_int(g->r, 1, 3);
	int64_t root = 1;
	while ((root + 1) * (root + 1) <= size)
		root++;
	if (root * root == size && rng_int(g->r, 0, 2) == 0) {
		dims[0] = dims[1] = root;
		return piece(g, 2, dims);
	}
	split(g->r, size, d, dims);
	return piece(g, d, dims);
}

static lego_layout *orderby_of_size(gen *g, int64_t size)
{
	lego_layout *levels[3];
	int64_t sizes[3];
	size_t q = (size_t)rng_int(g->r, 1, 3);
	split(g->r, size, q, sizes);
	put(g->t, "OrderBy(");
	for (size_t h = 0; h < q; h++) {
		if (h)
			put(g->t, ", ");
		levels[h] = level_of_size(g, sizes[h]);
		if (!levels[h])
			return NULL;
	}
	put(g->t, ")");
	return lego_orderby(g->ctx, q, levels);
}


static int64_t small_size(rng *r)
{
	for (;;) {
		int64_t s = 1;
		int64_t n = rng_int(r, 1, 5);
		for (int64_t k = 0; k < n; k++)
			s *= rng_int(r, 1, 6);
		if (s <= MAX_SIZE)
			return s;
	}
}

static void gen_orderby(gen *g, built *b)
{
	b->rank = 0;
	g->acc = b;
	b->l = orderby_of_size(g, small_size(g->r));
	g->acc = NULL;
}

static void gen_groupby(gen *g, built *b)
{
	lego_layout *chain[3];
	int64_t size = small_size(g->r), gsizes[3];
	size_t v = (size_t)rng_int(g->r, 1, 3);
	size_t ng = (size_t)rng_int(g->r, 1, 3), glen[3];
	for (size_t j = 0; j < v; j++) {
		if (j)
			put(g->t, ".");
		chain[j] = orderby_of_size(g, size);
		if (!chain[j]) {
			b->l = NULL;
			return;
		}
	}
	split(g->r, size, ng, gsizes);
	b->rank = 0;
	put(g->t, ".GroupBy(");
	for (size_t k = 0; k < ng; k++) {
		glen[k] = (size_t)rng_int(g->r, 1, 3);
		split(g->r, gsizes[k], glen[k], b->dims + b->rank);
		put(g->t, k ? ", " : "");
		put_list(g->t, glen[k], b->dims + b->rank);
		b->rank += glen[k];
	}
	put(g->t, ")");
	lego_expr *dims[MAX_RANK];
	consts(g, b->rank, b->dims, dims);
	b->l = lego_groupby(g->ctx, ng, glen, dims, v, chain);
}

static void gen_tileby(gen *g, built *b)
{
	size_t d = (size_t)rng_int(g->r, 1, 3), q = (size_t)rng_int(g->r, 1, 3);
	int64_t tiles[9], untiled[3];
	lego_layout *chain[3];
	do {
		for (size_t k = 0; k < d * q; k++)
			tiles[k] = rng_int(g->r, 1, 4);
	} while (product(d * q, tiles) > MAX_SIZE);
	for (size_t k = 0; k < d; k++) {
		untiled[k] = 1;
		for (size_t h = 0; h < q; h++)
			untiled[k] *= tiles[h * d + k];
	}
	size_t v = (size_t)rng_int(g->r, 1, 3);
	for (size_t j = 0; j < v; j++) {
		/* Each OrderBy splits every untiled coordinate into its levels. */
		size_t qo = (size_t)rng_int(g->r, 1, 3);
		int64_t parts[3][3], dims[3];
		lego_layout *levels[3];
		for (size_t k = 0; k < d; k++)
			split(g->r, untiled[k], qo, parts[k]);
		put(g->t, "%sOrderBy(", j ? "." : "");
		for (size_t h = 0; h < qo; h++) {
			for (size_t k = 0; k < d; k++)
				dims[k] = parts[k][h];
			put(g->t, h ? ", " : "");
			levels[h] = piece(g, d, dims);
			if (!levels[h]) {
				b->l = NULL;
				return;
			}
		}
		put(g->t, ")");
		chain[j] = lego_orderby(g->ctx, qo, levels);
		if (!chain[j]) {
			b->l = NULL;
			return;
		}
	}
	put(g->t, ".TileBy(");
	for (size_t h = 0; h < q; h++) {
		put(g->t, h ? ", " : "");
		put_list(g->t, d, tiles + h * d);
	}
	put(g->t, ")");
	b->rank = d * q;
	memcpy(b->dims, tiles, d * q * sizeof *tiles);
	lego_expr *sizes[9];
	consts(g, d * q, tiles, sizes);
	b->l = lego_tileby(g->ctx, v, chain, q, d, sizes);
}

static void gen_tile_orderby(gen *g, built *b)
{
	size_t d = (size_t)rng_int(g->r, 1, 3), q = (size_t)rng_int(g->r, 1, 3);
	int64_t dims[9];
	lego_layout *levels[3];
	do {
		for (size_t k = 0; k < d * q; k++)
			dims[k] = rng_int(g->r, 1, 4);
	} while (product(d * q, dims) > MAX_SIZE);
	put(g->t, "TileOrderBy(");
	for (size_t h = 0; h < q; h++) {
		put(g->t, h ? ", " : "");
		levels[h] = piece(g, d, dims + h * d);
		if (!levels[h]) {
			b->l = NULL;
			return;
		}
	}
	put(g->t, ")");
	/* Logical dims: those of its last OrderBy, sigma_{d x q}(dims). */
	b->rank = d * q;
	for (size_t k = 0; k < d; k++)
		for (size_t h = 0; h < q; h++)
			b->dims[k * q + h] = dims[h * d + k];
	b->l = lego_tile_orderby(g->ctx, q, levels);
}

static void gen_layout(gen *g, built *b)
{
	switch (rng_int(g->r, 0, 9)) {
	case 0: {
		size_t d = (size_t)rng_int(g->r, 1, 3);
		for (size_t k = 0; k < d; k++)
			b->dims[k] = rng_int(g->r, 1, 8);
		if (d == 2 && rng_int(g->r, 0, 1))
			b->dims[1] = b->dims[0];
		b->rank = d;
		b->l = piece(g, d, b->dims);
		return;
	}
	case 1:
	case 2:
		gen_orderby(g, b);
		return;
	case 3:
	case 4:
	case 5:
		gen_groupby(g, b);
		return;
	case 6:
	case 7:
	case 8:
		gen_tileby(g, b);
		return;
	default:
		gen_tile_orderby(g, b);
	}
}

/* ------------------------------------------------------------- checks */

typedef struct prop_run {
	lego_test *t;
	uint64_t seed;
	int num;
	const char *desc;
	int failed;
	int raw_skipped;  /* layouts whose raw forms were sampled less */
} prop_run;

#define PFAIL(p, ...)                                                        \
	do {                                                                 \
		if (!(p)->failed++)                                          \
			test_fail_at((p)->t, __FILE__, __LINE__,             \
				     "seed %llu layout %d: %s",              \
				     (unsigned long long)(p)->seed, (p)->num, \
				     (p)->desc);                             \
		test_fail_at((p)->t, __FILE__, __LINE__, __VA_ARGS__);       \
	} while (0)

static void unflatten(size_t rank, const int64_t *dims, int64_t f,
		      int64_t *idx)
{
	for (size_t k = rank; k-- > 1;) {
		idx[k] = f % dims[k];
		f /= dims[k];
	}
	idx[0] = f;
}

static int64_t flatten(size_t rank, const int64_t *dims, const int64_t *idx)
{
	int64_t f = 0;
	for (size_t k = 0; k < rank; k++)
		f = f * dims[k] + idx[k];
	return f;
}

/* The dims the library reports are the ones the construction implies. */
static int check_dims(prop_run *p, lego_ctx *ctx, const built *b,
		      lego_env *env)
{
	if (lego_layout_rank(b->l) != b->rank) {
		PFAIL(p, "rank %zu, expected %zu", lego_layout_rank(b->l),
		      b->rank);
		return 0;
	}
	for (size_t k = 0; k < b->rank; k++) {
		int64_t v = -1;
		int rc = lego_expr_eval(ctx, lego_layout_dim(b->l, k), env, &v);
		if (rc != LEGO_OK || v != b->dims[k]) {
			PFAIL(p, "dim %zu is %lld (rc %d), expected %lld", k,
			      (long long)v, rc, (long long)b->dims[k]);
			return 0;
		}
	}
	return 1;
}

/* (a) (b) (d): enumeration.  Fills img[f] = apply(unflatten(f)). */
static int check_numeric(prop_run *p, lego_ctx *ctx, const built *b,
			 lego_env *env, int64_t size, int64_t *img)
{
	int64_t idx[MAX_RANK], back[MAX_RANK];
	unsigned char *hit = calloc((size_t)size, 1);
	int64_t *table = calloc((size_t)size, sizeof *table);
	int ok = hit && table;
	for (int64_t f = 0; ok && f < size; f++) {
		unflatten(b->rank, b->dims, f, idx);
		int rc = lego_layout_apply_num(ctx, b->l, env, idx, &img[f]);
		if (rc != LEGO_OK || img[f] < 0 || img[f] >= size) {
			PFAIL(p, "apply_num(row-major %lld) = %lld, rc %d: %s",
			      (long long)f, (long long)img[f], rc,
			      lego_ctx_error(ctx));
			ok = 0;
		} else if (hit[img[f]]++) {
			PFAIL(p, "not a bijection: %lld hit twice (row-major "
			      "%lld)", (long long)img[f], (long long)f);
			ok = 0;
		} else if ((rc = lego_layout_inv_num(ctx, b->l, env, img[f],
						     back)) != LEGO_OK ||
			   flatten(b->rank, b->dims, back) != f) {
			PFAIL(p, "inv_num(%lld) = row-major %lld (rc %d), "
			      "expected %lld", (long long)img[f],
			      (long long)flatten(b->rank, b->dims, back), rc,
			      (long long)f);
			ok = 0;
		}
	}
	size_t got = 0;
	if (ok && (lego_layout_table(ctx, b->l, env, table, (size_t)size,
				     &got) != LEGO_OK ||
		   got != (size_t)size)) {
		PFAIL(p, "lego_layout_table failed (size %zu): %s", got,
		      lego_ctx_error(ctx));
		ok = 0;
	}
	for (int64_t f = 0; ok && f < size; f++)
		if (table[f] != img[f]) {
			PFAIL(p, "table[%lld] = %lld, apply_num gives %lld",
			      (long long)f, (long long)table[f],
			      (long long)img[f]);
			ok = 0;
		}
	free(hit);
	free(table);
	return ok;
}

/* Evaluates es[0..n) with the symbols syms[k] bound to vals[k]. */
static int eval_all(lego_ctx *ctx, lego_env *env, size_t nsym,
		    lego_expr *const *syms, const int64_t *vals, size_t n,
		    lego_expr *const *es, int64_t *out)
{
	for (size_t k = 0; k < nsym; k++)
		if (lego_env_bind(env, syms[k], vals[k]) != LEGO_OK)
			return LEGO_ERR;
	for (size_t k = 0; k < n; k++) {
		int rc = lego_expr_eval(ctx, es[k], env, &out[k]);
		if (rc != LEGO_OK)
			return rc;
	}
	return LEGO_OK;
}

/* The row-major positions checked symbolically: all, or a sample. */
static int64_t sample_at(rng *r, int64_t size, int64_t k)
{
	if (size <= SYM_SAMPLES || k == 0)
		return k == 0 ? 0 : k;
	return k == 1 ? size - 1 : rng_int(r, 0, size - 1);
}

/* Nodes of e as a tree (shared subexpressions counted each time they
 * occur), up to cap: what a tree-walking evaluation visits. */
static int64_t tree_size(const lego_expr *e, int64_t cap)
{
	int64_t n = 1;
	for (size_t k = 0; k < lego_expr_nargs(e) && n < cap; k++)
		n += tree_size(lego_expr_arg(e, k), cap - n);
	return n < cap ? n : cap;
}

/* How many samples the evaluation budget allows for these trees: all of
 * them for small trees, at least a few unless they are huge. */
static int64_t affordable(size_t n, lego_expr *const *es, int64_t samples)
{
	int64_t nodes = 0;
	for (size_t k = 0; k < n; k++)
		nodes += tree_size(es[k], EVAL_BUDGET);
	if (nodes >= EVAL_BUDGET)
		return 0;
	int64_t m = EVAL_BUDGET / (nodes + 1);
	return m < samples ? m : samples;
}

typedef struct sym_forms {
	lego_expr *idx[MAX_RANK], *x;
	lego_expr *ap[2], *inv[2][MAX_RANK];  /* [0] raw, [1] simplified */
	int64_t nsamples[2];
} sym_forms;

static int build_forms(lego_ctx *ctx, const built *b, int64_t size,
		       sym_forms *sf)
{
	char name[32];
	for (size_t k = 0; k < b->rank; k++) {
		snprintf(name, sizeof name, "i%zu", k);
		sf->idx[k] = lego_index(ctx, name, lego_const(ctx, 0),
					lego_const(ctx, b->dims[k]));
	}
	sf->x = lego_index(ctx, "x", lego_const(ctx, 0),
			   lego_const(ctx, size));
	sf->ap[0] = lego_layout_apply(ctx, b->l, sf->idx);
	sf->ap[1] = sf->ap[0] ? lego_simplify(ctx, sf->ap[0]) : NULL;
	int rc = lego_layout_inv(ctx, b->l, sf->x, sf->inv[0]);
	for (size_t k = 0; rc == LEGO_OK && k < b->rank; k++)
		if (!(sf->inv[1][k] = lego_simplify(ctx, sf->inv[0][k])))
			rc = LEGO_ERR;
	return sf->ap[1] && rc == LEGO_OK;
}

/* (c): symbolic apply and inv, raw and simplified, against img.  The raw
 * forms can be huge trees (evaluation walks them as trees), so they get
 * the samples the budget allows; the simplified ones at least MIN_SAMPLES. */
static void check_symbolic(prop_run *p, lego_ctx *ctx, const built *b,
			   lego_env *env, int64_t size, const int64_t *img,
			   rng *r)
{
	sym_forms sf;
	if (!build_forms(ctx, b, size, &sf)) {
		PFAIL(p, "symbolic apply/inv/simplify failed: %s",
		      lego_ctx_error(ctx));
		return;
	}
	int64_t n = size <= SYM_SAMPLES ? size : SYM_SAMPLES;
	for (int s = 0; s < 2; s++) {
		int64_t a = affordable(1, &sf.ap[s], n);
		int64_t i = affordable(b->rank, sf.inv[s], n);
		sf.nsamples[s] = a < i ? a : i;
	}
	if (sf.nsamples[1] < MIN_SAMPLES)
		sf.nsamples[1] = n < MIN_SAMPLES ? n : MIN_SAMPLES;
	p->raw_skipped += sf.nsamples[0] < n;
	for (int64_t k = 0; k < n; k++) {
		int64_t f = sample_at(r, size, k), want[MAX_RANK], got[MAX_RANK];
		unflatten(b->rank, b->dims, f, want);
		for (int s = 0; s < 2; s++) {
			const char *form = s ? "simplified" : "raw";
			if (k >= sf.nsamples[s])
				continue;
			int rc = eval_all(ctx, env, b->rank, sf.idx, want, 1,
					  &sf.ap[s], got);
			if (rc != LEGO_OK || got[0] != img[f]) {
				PFAIL(p, "%s symbolic apply at row-major %lld: "
				      "%lld (rc %d), numeric %lld", form,
				      (long long)f, (long long)got[0], rc,
				      (long long)img[f]);
				return;
			}
			rc = eval_all(ctx, env, 1, &sf.x, &img[f], b->rank,
				      sf.inv[s], got);
			if (rc != LEGO_OK ||
			    flatten(b->rank, b->dims, got) != f) {
				PFAIL(p, "%s symbolic inv(%lld): row-major "
				      "%lld (rc %d), expected %lld", form,
				      (long long)img[f],
				      (long long)flatten(b->rank, b->dims, got),
				      rc, (long long)f);
				return;
			}
		}
	}
}

/* splitmix64: spreads consecutive seeds over the xorshift state. */
static uint64_t mix_seed(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 1;
}

static void check_layout(prop_run *p, uint64_t seed)
{
	rng r = {mix_seed(seed)};
	text desc = {{0}, 0};
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = ctx ? lego_env_new(ctx) : NULL;
	gen g = {ctx, &r, &desc, 0, NULL};
	built b = {0};
	p->desc = desc.s;
	if (!env) {
		PFAIL(p, "out of memory");
		lego_ctx_free(ctx);
		return;
	}
	gen_layout(&g, &b);
	if (getenv("LEGO_PROPS_TRACE")) /* to find the layout of a crash */
		fprintf(stderr, "layout %d (seed %llu): %s\n", p->num,
			(unsigned long long)seed, desc.s);
	if (!b.l) {
		PFAIL(p, "construction failed: %s", lego_ctx_error(ctx));
	} else if (check_dims(p, ctx, &b, env)) {
		int64_t size = product(b.rank, b.dims);
		int64_t *img = calloc((size_t)size, sizeof *img);
		if (img && check_numeric(p, ctx, &b, env, size, img))
			check_symbolic(p, ctx, &b, env, size, img, &r);
		free(img);
	}
	lego_env_free(env);
	lego_ctx_free(ctx);
}

/* Invalid constructions are refused; a non-bijective GenP has a witness. */
static void check_invalid(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *d23[2] = {lego_const(ctx, 2), lego_const(ctx, 3)};
	lego_expr *d5 = lego_const(ctx, 5), *d4 = lego_const(ctx, 4);
	lego_expr *d44[2] = {d4, d4};
	static const int dup[2] = {1, 1}, big[2] = {1, 3};
	CHECK(t, lego_regp(ctx, 2, d23, dup) == NULL);
	CHECK(t, lego_regp(ctx, 2, d23, big) == NULL);
	CHECK(t, lego_genp_morton(ctx, lego_const(ctx, 3), d4) == NULL);
	lego_layout *row = lego_row(ctx, 2, d23);
	lego_layout *ob = row ? lego_orderby(ctx, 1, &row) : NULL;
	size_t one = 1;
	CHECK(t, ob != NULL);
	if (ob)
		CHECK(t, lego_groupby(ctx, 1, &one, &d5, 1, &ob) == NULL);
	lego_layout *half = lego_genp(ctx, 2, d44, &half_fn);
	lego_env *env = lego_env_new(ctx);
	lego_check_report rep;
	memset(&rep, 0, sizeof rep);
	CHECK(t, half != NULL);
	if (half && env) {
		CHECK_EQ(t, lego_layout_check(ctx, half, env, &rep),
			 LEGO_EBIJECT);
		CHECK_EQ(t, rep.bijective, 0);
		/* The witness collides: its image is even, other is its twin. */
		int64_t f = rep.witness_idx[0] * 4 + rep.witness_idx[1];
		CHECKF(t, rep.witness_flat == (f & ~(int64_t)1),
		       "witness (%lld, %lld) -> %lld",
		       (long long)rep.witness_idx[0],
		       (long long)rep.witness_idx[1],
		       (long long)rep.witness_flat);
	}
	lego_env_free(env);
	lego_ctx_free(ctx);
}

static long env_long(const char *name, long dflt)
{
	const char *s = getenv(name);
	return s && *s ? strtol(s, NULL, 10) : dflt;
}

void suite_props(lego_test *t)
{
	long count = env_long("LEGO_PROPS_COUNT", 2000);
	uint64_t seed = (uint64_t)env_long("LEGO_PROPS_SEED", 20261121);
	prop_run p = {t, 0, 0, "", 0, 0};
	int bad = 0;
	test_case(t, "random_layouts");
	for (long n = 0; n < count && bad < 5; n++) {
		p.seed = seed * 1000003u + (uint64_t)n + 1;
		p.num = (int)n;
		p.failed = 0;
		check_layout(&p, p.seed);
		bad += p.failed != 0;
	}
	if (p.raw_skipped && t->verbose)
		printf("props: %d of %ld layouts had raw symbolic forms too "
		       "large to evaluate at every sample\n", p.raw_skipped,
		       count);
	test_case(t, "invalid_constructions");
	check_invalid(t);
}

/* layout.h - layout pieces as a plain tagged struct (internal).
 *
 * A layout is a tree following SEMANTICS.md: REGP and GENP are the leaves,
 * an ORDERBY lists levels (leaves, outermost first), a GROUPBY gives logical
 * dims and a chain of ORDERBYs.  The sugar (Row, Col, TileBy, TileOrderBy)
 * builds these kinds only.  Nodes are immutable once built. */
#ifndef LEGO_LAYOUT_H
#define LEGO_LAYOUT_H

#include <stdint.h>

#include "core/core.h"

typedef enum layout_kind {
	LAYOUT_REGP,
	LAYOUT_GENP,
	LAYOUT_ORDERBY,
	LAYOUT_GROUPBY
} layout_kind;

typedef struct layout_genp layout_genp;

struct layout_genp {
	const char *name;
	/* Callback GenPs (user and built-in): fn.apply and fn.inv are set. */
	lego_genp_fn fn;
	/* Built-ins: validates concrete dims before numeric use (NULL: none). */
	int (*check_dims)(lego_ctx *ctx, const layout_genp *g, size_t d,
			  const int64_t *dims);
	/* Expression GenPs (fn.apply == NULL): apply_e in params, inv_e in
	 * flat. */
	lego_expr **params;
	lego_expr *apply_e;
	lego_expr *flat;
	lego_expr **inv_e;
	/* Where the language wrote apply_e and inv_e ("file:line:col"), for
	 * errors found when they are evaluated; NULL from the C API. */
	const char *where_apply, *where_inv;
	/* A `genp` declaration's use: the GenP over the declaration's own
	 * symbolic dims, of which apply_e and inv_e are the formulas with
	 * its dims replaced by this leaf's, so that its bijection is proved
	 * once for every dims (src/proof/genp.c); NULL otherwise. */
	const lego_layout *tmpl;
};

struct lego_layout {
	layout_kind kind;
	size_t rank;          /* logical dims */
	lego_expr **dims;     /* rank entries */
	int *perm;            /* REGP: 1-based, rank entries */
	layout_genp *genp;    /* GENP */
	/* ORDERBY: leaves, outermost first. */
	size_t nlevels;
	lego_layout **levels;
	/* GROUPBY: dims are the groups concatenated; chain of ORDERBYs,
	 * outermost first (apply runs the last one first). */
	size_t ngroups;
	size_t *group_len;
	size_t nchain;
	lego_layout **chain;
	/* Padded TileBy (partial.c): the chain element of the real sizes;
	 * the groups are the tile levels, the chain the padded Row. */
	const lego_layout *real;
};

/* check.c: the most elements lego_layout_check enumerates (docs/language.md,
 * "Limits"); LEGO_ERR with a message naming the limit when size exceeds
 * it. */
#define LAYOUT_CHECK_LIMIT (INT64_C(1) << 31)
int layout_check_limit(lego_ctx *ctx, int64_t size);

/* sizes.c: products and size agreement. */
lego_expr *layout_product(lego_ctx *ctx, size_t n, lego_expr *const *dims);
/* LEGO_OK when a == b is proved (simplify(a - b) == 0); otherwise an error
 * naming `what` and both sizes. */
int layout_sizes_agree(lego_ctx *ctx, lego_expr *a, lego_expr *b,
		       const char *what);
/* e as the .lego language writes it (a / b floor division); caller
 * frees. */
char *layout_expr_text(lego_ctx *ctx, lego_expr *e);
/* Validates dims: non-NULL, each proved positive under the facts with
 * every division, isqrt and shift in it defined; errors name `what`, the
 * dim, and the `assume` that would make the proof go through. */
int layout_check_dims(lego_ctx *ctx, size_t d, lego_expr *const *dims,
		      const char *what);

/* undefined.c: an operation of e that no value defines (its operands all
 * constants but not folded, 0 / 0; a constant divisor 0 or shift amount
 * out of 0..62), or NULL; and what makes it undefined ("division by zero
 * (or overflow)"). */
const lego_expr *layout_undefined_op(lego_expr *e);
const char *layout_undefined_why(const lego_expr *op);

/* build.c: records where an expression GenP's formulas were written. */
int layout_genp_locate(lego_ctx *ctx, lego_layout *l, const char *apply_at,
		       const char *inv_at);
/* build.c: records that the expression GenP l instantiates the
 * expression GenP tmpl (of l's rank, symbolic dims). */
int layout_genp_template(lego_ctx *ctx, lego_layout *l,
			 const lego_layout *tmpl);

/* sugar.c: lego_tileby, with ceil (d entries, may be NULL) marking the
 * outer sizes written as cdiv(R, B) (constants fold, so the language says
 * so): only those dims may be padded (docs/partial.md). */
lego_layout *layout_tileby(lego_ctx *ctx, size_t nchain,
			   lego_layout *const *chain, size_t q, size_t d,
			   lego_expr *const *sizes, const unsigned char *ceil);

/* partial.c: the padded TileBy of `real` (a layout of rank d) by q levels
 * of d sizes, ceil marking the outer sizes that ask for padding; NULL with
 * no error set (*padded = 0) when no dim is padded. */
lego_layout *layout_tileby_padded(lego_ctx *ctx, const lego_layout *real,
				  size_t q, size_t d, lego_expr *const *sizes,
				  const unsigned char *ceil, int *padded);
/* Apply and table of a padded layout (l->real set). */
lego_expr *layout_padded_apply(lego_ctx *ctx, const lego_layout *l,
			       lego_expr *const *idx);
/* Inverse of a padded layout: the real chain's inverse, then each real
 * coordinate split into the tile levels (defined on [0, real size)). */
int layout_padded_inv(lego_ctx *ctx, const lego_layout *l, lego_expr *flat,
		      lego_expr **idx);
int layout_padded_inv_num(lego_ctx *ctx, const lego_layout *l,
			  const lego_env *env, int64_t flat, int64_t *idx);
int layout_padded_apply_num(lego_ctx *ctx, const lego_layout *l,
			    const lego_env *env, const int64_t *idx,
			    int64_t *flat);
/* A table handed to a lego_table_fn in chunks (numeric.c). */
typedef struct layout_stream {
	lego_table_fn fn;
	void *arg;
	int64_t total, first; /* first: the logical index of buf[0] */
	size_t n;
	int64_t buf[1024];
} layout_stream;
/* Appends the next value, handing the chunk over when full; flush hands
 * over what is left.  Both return what fn returned. */
int layout_stream_put(layout_stream *s, int64_t v);
int layout_stream_flush(layout_stream *s);
/* The table of a padded layout, streamed (lego_layout_table_each). */
int layout_padded_each(lego_ctx *ctx, const lego_layout *l,
		       const lego_env *env, lego_table_fn fn, void *arg);
/* The real elements each reached exactly once (report.size: their number;
 * inverse_ok: the same, an inverse existing on them exactly then). */
int layout_padded_check(lego_ctx *ctx, const lego_layout *l,
			const lego_env *env, lego_check_report *report);
/* 1 when e is (a + b - 1) / b, the ceiling of a real size a by b. */
int layout_is_cdiv(lego_ctx *ctx, const lego_expr *e);

/* sugar.c: sigma_{d x q}, 1-based, d*q entries written to out. */
void layout_sigma(size_t d, size_t q, int *out);

/* Built-in GenP constructors share this: a GenP leaf with callbacks. */
lego_layout *layout_genp_builtin(lego_ctx *ctx, size_t d,
				 lego_expr *const *dims,
				 const lego_genp_fn *fn,
				 int (*check_dims)(lego_ctx *, const layout_genp *,
						   size_t, const int64_t *));

/* Row-major flatten and unflatten of expressions (SEMANTICS.md B_n). */
lego_expr *layout_flatten_expr(lego_ctx *ctx, size_t d,
			       lego_expr *const *dims, lego_expr *const *idx);
int layout_unflatten_expr(lego_ctx *ctx, size_t d, lego_expr *const *dims,
			  lego_expr *flat, lego_expr **idx);

#endif

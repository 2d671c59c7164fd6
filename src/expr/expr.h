/* expr.h - expression nodes and the hash-consing pool (internal). */
#ifndef LEGO_EXPR_H
#define LEGO_EXPR_H

#include <stdint.h>

#include "core/core.h"

/* What is known of a symbol: lo <= s < hi.  Plain symbols (sizes) have
 * lo = 1 and hi = NULL (unbounded); index variables carry their range. */
typedef struct lego_symbol {
	const char *name;
	uint32_t index;    /* dense number, 0.., for envs */
	lego_expr *lo;     /* never NULL */
	lego_expr *hi;     /* exclusive; NULL when unbounded */
	int is_index;      /* declared by lego_index() */
	const char *file;  /* where an input declared it first (for messages */
	int line, col;     /* about it), or NULL */
} lego_symbol;

struct lego_expr {
	uint32_t kind;     /* lego_expr_kind */
	uint32_t nargs;
	uint32_t id;       /* unique in its ctx, in creation order */
	uint32_t hash;
	int64_t value;     /* LEGO_CONST */
	lego_symbol *sym;  /* LEGO_SYM */
	lego_expr *args[];
};

/* Does e mention one of the n symbols syms (as a node of its DAG)? */
int lego_expr_mentions(const lego_expr *e, lego_expr *const *syms, size_t n);

/*
 * Hash-cons a node exactly as given: no folding, no reordering.  The
 * canonicalising constructors of lego.h are built on it; the simplifier
 * uses it to rebuild nodes whose arguments are already canonical.
 */
lego_expr *lego_expr_make(lego_ctx *ctx, lego_expr_kind kind, size_t nargs,
			  lego_expr *const *args, int64_t value);

/*
 * The canonicalising constructor for any kind but CONST and SYM (ADD and
 * MUL take any number of arguments): what lego_add(), lego_div(), ...
 * return.  Used to rebuild a node whose arguments changed.
 */
lego_expr *lego_expr_build(lego_ctx *ctx, lego_expr_kind kind, size_t nargs,
			   lego_expr *const *args);

/* 0/1-valued by construction: comparisons, AND, OR, NOT, constants 0, 1. */
int lego_expr_is_bool(const lego_expr *e);

/* Total order on canonical nodes, used to sort the arguments of + and *:
 * constants first, then symbols by name, then by kind and arguments. */
int lego_expr_cmp(const lego_expr *a, const lego_expr *b);

/* Records that the symbol sym was declared at file:line:col of an input
 * (the first such place is kept); LEGO_OK, or LEGO_ENOMEM. */
int lego_expr_sym_locate(lego_ctx *ctx, lego_expr *sym, const char *file,
			 int line, int col);

/* Number of symbols declared so far (the size an env must cover). */
uint32_t lego_expr_nsyms(const lego_ctx *ctx);
/* The symbol numbered index. */
lego_expr *lego_expr_sym_at(const lego_ctx *ctx, uint32_t index);

#endif

/* print.h - the expression printer, shared by lego_expr_print,
 * lego_exprs_print and lego_expr_ops (internal to expr). */
#ifndef LEGO_EXPR_PRINT_H
#define LEGO_EXPR_PRINT_H

#include "expr/memo.h"
#include "expr/sbuf.h"

/*
 * Use counts over the DAG of several roots: entry n = number of uses (one
 * per argument slot of each distinct parent, one per root), tag bit 0 set
 * when a use is as a term of a sum, the bits above it hold the number + 1
 * of the node's temporary once it is defined.  Nodes used more than once
 * that are not leaves become temporaries in the printed form.
 */
int lego_expr_count_uses(lego_memo *uses, size_t n, lego_expr *const *es);
int lego_expr_is_temp(const lego_memo *uses, const lego_expr *e);
/* total.c.  Whether e's own operation cannot trap (a divisor proved
 * non-zero, a shift amount proved in [0, 32), an isqrt argument proved
 * >= 0). */
int lego_expr_op_safe(lego_ctx *ctx, const lego_expr *e);
/* Whether computing e ahead of the guards around it cannot trap: every
 * operation it evaluates unconditionally is safe (lazy: the arms of a
 * select and the right operand of and/or are not, as in C and Python).
 * m memoises the answers over one traversal. */
int lego_expr_hoistable(lego_ctx *ctx, lego_memo *m, const lego_expr *e,
			int lazy);
/* Puts into m every node computed whenever e is (lazy as above). */
int lego_expr_mark_always(lego_memo *m, const lego_expr *e, int lazy);
/* Replaces each es[i] by its total form, for targets that compute both
 * arms of a select (MLIR, Triton's tl.where): every partial operation not
 * proved safe gets a guarded operand (divisor 0 -> 1, shift amount out of
 * range -> 0, isqrt argument < 0 -> 0), equal to es[i] wherever es[i] is
 * defined. */
int lego_exprs_make_total(lego_ctx *ctx, size_t n, lego_expr **es);

/* Whether a C-like temporary was defined in the 64-bit type (define_temps
 * of cse.c records it: the entry's ptr is the node, NULL for int). */
int lego_expr_temp_is_wide(const lego_memo *uses, const lego_expr *e);

/* Whether a term of a sum is printed as `- term'`: a negative constant
 * or coefficient (not INT64_MIN), unless the term is a temporary. */
int lego_expr_subtracted(const lego_memo *uses, const lego_expr *t);

/*
 * Dialects of the printer: one printer, spelling differences in a table.
 * C, CUDA and OpenCL print the same C expressions (temporaries typed
 * `long long`, OpenCL `long`; exact isqrt through the helper `lego_isqrt`
 * that lego_dialect_helpers() defines).  Python uses floor `//`/`%`,
 * min/max, `x if c else y`, and/or/not and math.isqrt.  Triton is Python
 * over tensors: tl.minimum/tl.maximum, tl.where, `&`/`|`/`== 0` on truth
 * values, and since Triton's integer `//` and `%` truncate like C, plain
 * `//`/`%` only where numerator >= 0 and divisor > 0 are proved, else an
 * exact form correct under both floor and truncating semantics.  Triton
 * has no isqrt: lego_dialect_supports() says so.
 */
typedef enum lego_dialect {
	LEGO_DIALECT_C,
	LEGO_DIALECT_CUDA,
	LEGO_DIALECT_OPENCL,
	LEGO_DIALECT_PYTHON,
	LEGO_DIALECT_TRITON
} lego_dialect;

typedef struct lego_dialect_info {
	int c_syntax;          /* C operators and statements */
	int tensors;           /* Triton: operands may be tensors */
	int trunc_div;         /* integer // and % truncate (Triton) */
	const char *int_type;  /* C-like: type of temporaries */
	const char *int32_type; /* C-like: the same when 32 bits suffice */
	const char *ll;        /* C-like: suffix of 64-bit literals */
	const char *isqrt;     /* spelling of isqrt; NULL: none exists */
} lego_dialect_info;

const lego_dialect_info *lego_dialect_get(lego_dialect d);
lego_dialect lego_dialect_of_lang(lego_lang lang);

/* Whether every node of e can be printed exactly in d (isqrt in Triton
 * cannot). */
int lego_dialect_supports(lego_dialect d, const lego_expr *e);

/* Definitions the printed text relies on (the isqrt helper of C-like
 * dialects, guarded against a second definition), "" when none. */
const char *lego_dialect_helpers(lego_dialect d);

/* Whether C may compute es in 32-bit int: every value met while evaluating
 * them (each node, each partial sum and product) is proved to lie within
 * +-(2^30 - 1) from the constant bounds of their symbols (width.c). */
int lego_exprs_fit_int32(size_t n, lego_expr *const *es);
/* Whether a value met while evaluating es may pass 2^62 in magnitude by
 * the same bounds (so that 64-bit arithmetic, with the floor forms around
 * it, may overflow); 0 when no bound is known (symbolic sizes). */
int lego_exprs_may_overflow64(size_t n, lego_expr *const *es);

/* One expression, or several with shared temporaries: lego_expr_print
 * and lego_exprs_print in a dialect (caller frees). */
char *lego_print_dialect(lego_ctx *ctx, const lego_expr *e, lego_dialect d);
char *lego_exprs_print_dialect(lego_ctx *ctx, size_t n,
			       lego_expr *const *es, const char *const *names,
			       const char *prefix, lego_dialect d);

/* The same split for emitters: *prelude gets the temporaries' statements,
 * each line after indent (NULL: none), values[i] the inline text of
 * es[i].  In C-like dialects each temporary and each value is computed in
 * 32-bit int when lego_exprs_fit_int32 proves it fits (GPUs do 64-bit
 * integer arithmetic in several instructions); otherwise the temporary has
 * the 64-bit type and every product and left shift of it is computed in
 * that type (`(long long)N * i`, `3LL * N`), whatever the types of the
 * template's variables, so that no intermediate value can overflow an
 * int.  Caller frees *prelude and each value. */
int lego_print_shared(lego_ctx *ctx, size_t n, lego_expr *const *es,
		      const char *prefix, const char *indent, lego_dialect d,
		      char **prelude, char **values);
/* The same for es in ngroups consecutive groups (group g ends before
 * es[group_end[g]]: the placeholders of one template line each) sharing
 * temporaries: a temporary is defined in the part of *prelude of the first
 * group that uses it, the bytes [group_at[g], group_at[g + 1]); group_at
 * has ngroups + 1 entries. */
int lego_print_shared_groups(lego_ctx *ctx, size_t n, lego_expr *const *es,
			     size_t ngroups, const size_t *group_end,
			     const char *prefix, const char *indent,
			     lego_dialect d, char **prelude, size_t *group_at,
			     char **values);

typedef struct lego_printer {
	lego_ctx *ctx;
	const lego_dialect_info *d;
	lego_sbuf *out;
	const lego_memo *uses;  /* NULL: no temporaries */
	const char *prefix;     /* temporaries are prefix<number> */
	const lego_expr *self;  /* the temporary being defined */
	const char *indent;     /* before each temporary's statement */
	int sized;              /* code generation (lego_print_shared): each
				   C-like root in int or 64 bits */
	int widen;              /* C-like, the root printed now is not proved
				   to fit in 32 bits: products in the 64-bit
				   type */
} lego_printer;

/* Appends e, parenthesised when its precedence is below need (0: none). */
void lego_print_node(lego_printer *p, const lego_expr *e, int need);

#endif

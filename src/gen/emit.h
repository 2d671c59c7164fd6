/* emit.h - the contract between the template engine and the target
 * emitters (internal).
 *
 * Every target turns a set of expressions into (1) a prelude: statements
 * that define the temporaries the expressions share, to be inserted before
 * the template line that uses them, and (2) one inline text per expression.
 * C, CUDA, OpenCL and Triton inline whole expressions over temporaries;
 * MLIR puts every operation in the prelude and inlines SSA names.
 */
#ifndef LEGO_GEN_EMIT_H
#define LEGO_GEN_EMIT_H

#include <stddef.h>

#include "lego.h"

typedef enum lego_target {
	LEGO_TARGET_C,
	LEGO_TARGET_CUDA,
	LEGO_TARGET_OPENCL,
	LEGO_TARGET_TRITON,
	LEGO_TARGET_MLIR
} lego_target;

/* How a slice range (a `:` of a placeholder) is printed: Triton's
 * tl.arange broadcast on its axis, or a loop/thread index the template
 * names for the C-like targets.  Ranges are symbols created by the
 * template engine; the emitter looks them up here. */
typedef struct lego_emit_range {
	const lego_expr *sym;   /* the range variable */
	const char *name;       /* C-like: the template's index name */
	lego_expr *start, *stop; /* Triton: tl.arange(start, stop) ... */
	int axis, naxes;        /* ... broadcast on axis of naxes */
} lego_emit_range;

typedef struct lego_emit_request {
	lego_target target;
	size_t n;
	lego_expr *const *exprs;
	const char *prefix;      /* temporaries/SSA values: prefix0, ... */
	const char *indent;      /* of the template line, for the prelude */
	size_t nranges;
	const lego_emit_range *ranges;
	/* Several template lines at once, sharing temporaries: line g holds
	 * exprs [group_end[g - 1], group_end[g]).  ngroups 0: one line. */
	size_t ngroups;
	const size_t *group_end;
} lego_emit_request;

typedef struct lego_emitted {
	char *prelude;           /* "" when nothing is shared */
	size_t *group_at;        /* line g's part of the prelude starts at
				    byte group_at[g]; ngroups + 1 entries */
	char **values;           /* n inline texts */
	size_t n;
} lego_emitted;

/* names.c: why name cannot appear in the code generated for target (a
 * keyword, a name the generators use), or NULL when it can. */
const char *gen_name_clash(lego_target target, const char *name);
/* LEGO_ERR, naming the clash, when a symbol of es cannot be printed. */
int gen_check_names(lego_ctx *ctx, lego_target target, size_t n,
		    lego_expr *const *es);

/* Fills out (caller frees with lego_emitted_free); LEGO_ERR when a symbol
 * is named like a keyword of the target (gen_name_clash). */
int lego_emit(lego_ctx *ctx, const lego_emit_request *req,
	      lego_emitted *out);
void lego_emitted_free(lego_emitted *out);

#endif

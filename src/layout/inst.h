/* inst.h - a layout instantiated for concrete sizes (internal).
 *
 * Numeric apply/inv run on this form: int64 dims, precomputed strides, no
 * expression evaluation or allocation per element (except for GenPs given
 * by expressions).  Every layout is viewed as logical dims plus a chain of
 * stages; a stage is one OrderBy acting on a flat index: unflatten by its
 * dims, then sum its parts.  A part is either linear (consecutive RegP
 * levels: a dot product with strides) or one GenP level.  Stages that are
 * the identity are dropped, so Row(...) and the R(O) of TileBy cost
 * nothing. */
#ifndef LEGO_LAYOUT_INST_H
#define LEGO_LAYOUT_INST_H

#include "layout/layout.h"

typedef struct inst_part {
	int is_gen;
	size_t off, nd;        /* its digits in the stage */
	int64_t size;          /* product of its dims */
	int64_t *stride;       /* linear: stride of each digit, weighted */
	size_t *order;         /* linear: digits by ascending stride */
	int64_t weight;        /* product of the later parts' sizes */
	const lego_layout *leaf;  /* GenP: the leaf */
} inst_part;

typedef struct inst_stage {
	size_t nd;
	int64_t *dims;         /* radices of the input, row-major */
	int *shift;            /* log2(dims[k]) for a power of two, else -1 */
	int64_t *rowstride;    /* row-major weights of dims */
	size_t nparts;
	inst_part *parts;      /* outermost first */
} inst_stage;

typedef struct layout_inst {
	lego_ctx *ctx;
	lego_arena arena;      /* everything below; freed by inst_free */
	size_t rank;
	int64_t *dims;         /* logical dims */
	int64_t size;
	size_t nstages;
	inst_stage *stages;    /* in application order: last chain element
				* first */
	int64_t *digits;       /* scratch, max stage dims entries */
	int64_t *scratch;
	int64_t *cursor;       /* enumeration: digits over stages[0].dims */
	const lego_env *outer; /* the caller's env */
	lego_env *env;         /* expression GenPs: outer values + params */
} layout_inst;

int inst_init(layout_inst *in, lego_ctx *ctx, const lego_layout *l,
	      const lego_env *env);
void inst_free(layout_inst *in);

/* x is the row-major flat of the logical index. */
int inst_apply_flat(layout_inst *in, int64_t x, int64_t *f);
/* Same, from the digits of x over stages[0].dims (enumeration). */
int inst_apply_digits(layout_inst *in, const int64_t *digits, int64_t *f);
int inst_inv_flat(layout_inst *in, int64_t f, int64_t *x);
/* Advance digits over dims as an odometer (row-major). */
void inst_odometer_next(size_t nd, const int64_t *dims, int64_t *digits);
/* Enumeration in row-major logical order: call inst_first once, then
 * inst_next for x = 0, 1, ... size-1; each gives apply(x). */
void inst_first(layout_inst *in);
int inst_next(layout_inst *in, int64_t x, int64_t *f);

/* One GenP leaf on concrete dims; results range-checked. */
int inst_genp_apply(layout_inst *in, const lego_layout *leaf,
		    const int64_t *dims, const int64_t *idx, int64_t size,
		    int64_t *flat);
int inst_genp_inv(layout_inst *in, const lego_layout *leaf,
		  const int64_t *dims, int64_t flat, int64_t *idx);

/* "(1, 2)" into buf. */
void inst_format_index(char *buf, size_t cap, size_t n, const int64_t *idx);
/* Row-major unflatten of x over dims. */
void inst_unflatten(size_t n, const int64_t *dims, int64_t x, int64_t *idx);

#endif

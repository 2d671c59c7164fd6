/* space.h - the candidate shared-memory layouts of synthesis (internal to
 * the synth room). */
#ifndef LEGO_SYNTH_SPACE_H
#define LEGO_SYNTH_SPACE_H

#include "synth/synth.h"

typedef enum cand_kind {
	CAND_PLAIN,   /* row- or column-major, padded lines */
	CAND_CUTE,    /* CuTe Swizzle<B, M, S> of the row-major offset */
	CAND_XOR,     /* chunk j of line i at j ^ ((i / div) % arg) */
	CAND_ROT      /* chunk j of line i at (j + (i / div) * arg) % n */
} cand_kind;

/* A layout of the space.  A line is a row (a column when col is set) of
 * line + pad elements; XOR and ROT move chunks of `unit` elements within
 * it.  XOR on a line of n chunks swizzles the first P (the largest power
 * of two <= n) and leaves the others: a bijection at any size. */
typedef struct synth_cand {
	cand_kind kind;
	int col;
	int64_t pad, unit, div, arg;
	int b, m, s;
} synth_cand;

typedef struct synth_tile {
	int64_t rows, cols, elem_bytes;
	int64_t unit;              /* the widest vector of the accesses */
	unsigned families;         /* LEGO_SYNTH_* */
} synth_tile;

/* Calls fn on every candidate in order of increasing index cost (the
 * plain layouts first); a non-zero return stops the walk and is
 * returned. */
int synth_space_each(const synth_tile *t, int (*fn)(void *arg,
		     const synth_cand *c), void *arg);

/* The elements of the candidate's space (rows x cols plus its padding). */
int64_t synth_cand_size(const synth_tile *t, const synth_cand *c);

/* offset[r * cols + c] for the whole tile. */
void synth_cand_offsets(const synth_tile *t, const synth_cand *c,
			int64_t *offset);

/* The .lego declarations of the candidate as layout `name` (a malloc'ed
 * string; NULL when out of memory), and the candidate in words. */
char *synth_cand_lego(const synth_tile *t, const synth_cand *c,
		      const char *name);
void synth_cand_describe(const synth_tile *t, const synth_cand *c,
			 char *buf, size_t size);

#endif

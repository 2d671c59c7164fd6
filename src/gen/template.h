/* template.h - templates with {{ ... }} placeholders (internal).
 *
 * A placeholder holds an expression of the .lego language in which a
 * layout L is referenced as L[i1, .., id] (slices allowed), L.inv(e)[k]
 * or L.size; docs/templates.md is the reference. */
#ifndef LEGO_GEN_TEMPLATE_H
#define LEGO_GEN_TEMPLATE_H

#include <stddef.h>

#include "gen/emit.h"
#include "lego.h"

/* A `:`, `s:e` or `NAME = s:e` index of a layout reference. */
typedef struct gen_slice {
	lego_expr *sym;          /* index variable over [start, stop) */
	lego_expr *start, *stop;
	const char *name;        /* the template's name, or NULL */
	int axis, naxes;         /* its place among the slices of the reference */
} gen_slice;

typedef struct gen_slices {
	gen_slice *items;        /* in the ctx arena */
	size_t n, cap;
	size_t unnamed;          /* slices named so far (_s0, _s1, ...) */
	/* The conditions the layout references met so far need to read
	 * inside their layouts (an index in [0, dim), a slice within
	 * [0, dim], an inverse's argument in [0, size)), for
	 * gen_template_places; in the ctx arena. */
	lego_expr **needs;
	size_t nneeds, needs_cap;
} gen_slices;

/*
 * Parses the placeholder text (len bytes) that starts at line:col of
 * filename, in the scope of spec; appends the slices it contains.
 * Returns the expression (not simplified), or NULL with
 * "file:line:col: error: ..." in the context.  *is_bool: whether the value
 * is a truth value (a mask, a comparison, a logical operation).
 */
lego_expr *gen_placeholder_parse(lego_spec *spec, const char *filename,
				 int line, int col, const char *text,
				 size_t len, gen_slices *slices, int *is_bool);

/* One placeholder as parsed, not simplified: where it is (the position
 * of its "{{"), its text between the braces, its value, and the
 * conditions its layout references need (gen_slices.needs). */
typedef struct gen_place_seen {
	int line, col;
	const char *text;
	size_t len;
	lego_expr *e;
	lego_expr *const *needs;
	size_t nneeds;
} gen_place_seen;
typedef int (*gen_place_fn)(void *user, const gen_place_seen *p);
/* template.c: calls fn on every placeholder of the template (its spec as
 * lego_gen loads it), in order, stopping at an error or a non-zero fn.
 * For the proofs of `lego check --prove TEMPLATE` (src/proof). */
int gen_template_places(lego_ctx *ctx, const char *filename,
			const char *text, size_t len,
			const lego_gen_opts *opts, gen_place_fn fn,
			void *user);

/* splice.c: whether value, put in place of the placeholder text
 * line[open, close) of a template line of len bytes, needs parentheses to
 * keep its meaning. */
int gen_value_needs_parens(const char *line, size_t len, size_t open,
			   size_t close, const char *value);

/* share.c: whether a template line (text: its placeholders blanked out)
 * neither opens, closes or leaves a block nor jumps, for target.  Lines
 * that may share temporaries pass it, and their texts name none of the
 * symbols their placeholders read. */
int gen_line_is_straight(lego_target target, const char *text);
/* Where the temporaries a line's placeholders share may be defined, given
 * the previous line of code (prev, NULL at the start; texts with their
 * placeholders blanked out): before the line (where a statement may
 * stand, run whenever the line is), before it inside braces that wrap it
 * (C: the statement of a brace-less if/for/while/else or of a label), or
 * nowhere (*why says what the line is: the placeholders must then share
 * nothing). */
typedef enum gen_temps_at {
	GEN_TEMPS_BEFORE,
	GEN_TEMPS_WRAPPED,
	GEN_TEMPS_NOWHERE
} gen_temps_at;
gen_temps_at gen_temps_place(lego_target target, const char *prev,
			     const char *line, const lego_expr *const *syms,
			     size_t nsyms, const char **why);
/* The symbols of es, each once (in the ctx arena; NULL when out of
 * memory), and whether text names one of them. */
const lego_expr **gen_syms_of(lego_ctx *ctx, lego_expr *const *es,
			      size_t n, size_t *nsyms);
int gen_text_names(const char *text, const lego_expr *const *syms, size_t n);

#endif

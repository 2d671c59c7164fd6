/* parse.h - the recursive-descent parser of .lego files (internal).
 *
 * There is no syntax tree: the parser builds expressions and layouts
 * through the public API as it reads them.  Every function returning int
 * returns 0 on success and -1 after setting "file:line:col: error: ..." in
 * the context. */
#ifndef LEGO_LANG_PARSE_H
#define LEGO_LANG_PARSE_H

#include <stdint.h>

#include "lang/lex.h"
#include "suggest/suggest.h"

/* Limits that keep hostile input from exhausting the stack or the clock. */
#define LANG_MAX_NESTING 200      /* syntactic nesting */
#define LANG_MAX_EXPR_DEPTH 256   /* operators on a path of an expression */
#define LANG_MAX_EXPR_WEIGHT (1u << 20) /* tree size, sharing unfolded */
#define LANG_MAX_RANK 16          /* entries of a tuple */
#define LANG_MAX_CHAIN 64         /* levels of an OrderBy, links of a chain */

/* An expression with bounds on the work its tree can cause. */
typedef struct lang_val {
	lego_expr *e;
	uint32_t depth;
	uint32_t weight;
} lang_val;

/* A layout; is_perm marks a RegP/GenP (or sugar) not yet in an OrderBy. */
typedef struct lang_lval {
	lego_layout *l;
	int is_perm;
} lang_lval;

/* A `genp` declaration: expressions over template symbols, instantiated
 * by substituting the dims of each use. */
typedef struct lang_genp {
	size_t d;
	lego_expr **dims;     /* template dim symbols */
	lego_expr **params;   /* index symbols over [0, dims[k]) */
	lego_expr *flat;      /* index symbol over [0, product) */
	lang_val apply_e;
	lang_val *inv_e;
	const char *apply_at, *inv_at; /* "file:line:col" of the formulas */
	lego_layout *tmpl;    /* the GenP over dims, each use's template */
} lang_genp;

typedef enum lang_name_kind {
	NAME_SYM,
	NAME_LET,
	NAME_INDEX,
	NAME_LAYOUT,
	NAME_GENP
} lang_name_kind;

typedef struct lang_name {
	const char *name;
	lang_name_kind kind;
	int line, col;
	lang_val val;          /* SYM, LET, INDEX */
	int is_cdiv;           /* LET bound to a cdiv(a, b): not exact */
	lang_lval layout;      /* LAYOUT */
	lang_genp *genp;       /* GENP */
} lang_name;

/* Tunable parameters and their constraints (tune.c). */
typedef struct lang_constraint {
	lego_expr *e;
	int line, col;
} lang_constraint;

typedef struct lang_tunes {
	lego_tune_param *params;
	lego_expr **syms;          /* the symbol of each free parameter */
	size_t n, cap;
	lang_constraint *cons;
	size_t ncons, cons_cap;
	lego_expr *guard;          /* inside choice k of a layout: SA == k */
} lang_tunes;

struct lego_spec {
	lego_ctx *ctx;
	const char *filename;
	/* Every declared name: open addressing, linear probing, capacity
	 * a power of two (or 0), at most half full, in the arena. */
	lang_name **names;
	size_t names_cap, nnames;
	lang_name **decls;     /* the same in declaration order */
	size_t decls_cap;
	lang_name **layouts;   /* in declaration order */
	size_t nlayouts, layouts_cap;
	const lego_define *defs;
	size_t ndefs;
	/* (index + 1) of the last -D of each name, open addressing: the
	 * entry of that -D in def_used says whether a sym took it. */
	size_t *def_table;
	size_t def_cap;
	unsigned char *def_used;
	lang_tunes tunes;
	const lego_tv **tvs;   /* `tv` declarations (tv.c) */
	size_t ntvs, tvs_cap;
};

/* Names bound inside a `genp` declaration; they shadow the spec's. */
typedef struct lang_local {
	const char *name;
	lang_val val;
} lang_local;

typedef struct lang_parser {
	lego_ctx *ctx;
	lego_spec *spec;
	const char *filename;
	lang_tok *toks;
	size_t ntoks, pos;
	int nesting;
	int exact_div;         /* inside TileBy sizes: a / b carries b | a */
	int exact_dims;        /* a piece's dims: a dim a / b carries b | a */
	lego_expr *last_cdiv;  /* the value of the last cdiv(a, b) read */
	int auto_index;        /* undeclared names become index variables */
	lego_expr *auto_hi;    /* their bound (NULL: plain symbols) */
	lang_local *locals;
	size_t nlocals, locals_cap;
	/* Templates (src/gen): a layout named in an expression is a reference
	 * (L[..], L.inv(e)[k]) read by this hook, and an undeclared name may
	 * be a symbol declared by an earlier placeholder.  NULL: both are
	 * errors, as in a .lego file. */
	int (*layout_ref)(struct lang_parser *p, const lang_tok *at,
			  lego_layout *l, lang_val *out);
	/* Templates: mask(L[..]), called after the '[' (NULL: mask is an
	 * unknown name). */
	int (*layout_mask)(struct lang_parser *p, const lang_tok *at,
			   lego_layout *l, lang_val *out);
	void *user;
} lang_parser;

/* util.c */
lang_tok *lang_peek(lang_parser *p);
lang_tok *lang_next(lang_parser *p);
int lang_accept(lang_parser *p, lang_tok_kind kind);
int lang_expect(lang_parser *p, lang_tok_kind kind, const char *what);
int lang_error(lang_parser *p, const lang_tok *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefixes the context's current message (from a failed API call). */
int lang_api_error(lang_parser *p, const lang_tok *at);
int lang_enter(lang_parser *p, const lang_tok *at);
void lang_leave(lang_parser *p);
int lang_is_ident(const lang_tok *t, const char *text);
/* Keywords and built-in names, which cannot be declared. */
int lang_is_reserved(const char *name);
lang_name *lang_lookup(const lego_spec *spec, const char *name);
/* The slot of name in a table of capacity cap (a power of two, not full):
 * its entry, or the empty slot where it goes. */
size_t lang_name_slot(lang_name *const *table, size_t cap, const char *name);
/* Offers s the spec's names of the kinds (1u << NAME_x, or'ed). */
void lang_suggest_spec(const lego_spec *spec, lego_suggest *s,
		       unsigned kinds);
/* "unknown WHAT 'NAME'" at the identifier at, with a "did you mean" among
 * words[0..nwords) and the spec's names of the kinds (a lang_name_kind
 * bit set); returns -1. */
int lang_error_unknown(lang_parser *p, const lang_tok *at, const char *what,
		       const char *const *words, size_t nwords,
		       unsigned kinds);
/* A growable array in the arena: *items grows to hold n + 1. */
int lang_grow(lang_parser *p, void **items, size_t *cap, size_t n,
	      size_t size);
int lang_check_val(lang_parser *p, const lang_tok *at, lang_val *v);

/* expr.c */
int lang_parse_expr(lang_parser *p, lang_val *out);
/* Expressions read into one growing arena array, and with marks (when
 * asked for) whether each is exactly a cdiv(a, b) read there: a padded
 * tile count. */
typedef struct lang_list {
	lego_expr **items;
	unsigned char *marks;  /* NULL unless want_marks */
	size_t n, cap;
	int want_marks;
} lang_list;
/* "[e1, .., ed]", or "(e1, .., ed)" when paren (Row, Col), appended to
 * l; *read (may be NULL) gets d. */
int lang_parse_list(lang_parser *p, int paren, lang_list *l, size_t *read);

/* layout.c */
int lang_parse_layout(lang_parser *p, lang_lval *out);

/* genp.c: the second argument of GenP(dims, F). */
int lang_parse_genp_fn(lang_parser *p, size_t d, lego_expr **dims,
		       lang_lval *out);
int lang_decl_genp(lang_parser *p);

/* decl.c */
/* Builds the table of -D names (spec->defs); -1 when out of memory. */
int lang_index_defines(lego_spec *spec);
/* Whether a sym took the value of the -D numbered i (or of a later -D of
 * the same name). */
int lang_define_used(const lego_spec *spec, size_t i);
int lang_parse_decls(lang_parser *p);
/* The value given by -D for a name, the last one when given twice. */
const lego_define *lang_find_define(lego_spec *spec, const char *name);
/* Reads the name being declared and checks it is new; lang_bind() makes
 * it visible once its definition is read. */
lang_name *lang_declare(lang_parser *p, lang_name_kind kind);
int lang_bind(lang_parser *p, lang_name *n);

/* tune.c: `tune` declarations.  lang_tune_constraint() records cond
 * (read at `at`) when it mentions a free parameter and returns 1, else 0;
 * -1 on error. */
int lang_decl_tune(lang_parser *p);
int lang_tune_constraint(lang_parser *p, const lang_tok *at, lego_expr *cond);

/* tv.c: `tv` declarations. */
int lang_decl_tv(lang_parser *p);

#endif

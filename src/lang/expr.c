/* expr.c - integer expressions with C precedence, built as they are read. */
#include <string.h>

#include "lang/parse.h"

typedef enum op {
	OP_OR, OP_AND, OP_BOR, OP_BXOR, OP_BAND, OP_EQ, OP_NE, OP_LT, OP_LE,
	OP_GT, OP_GE, OP_SHL, OP_SHR, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
	OP_NONE
} op;

typedef struct binop {
	lang_tok_kind tok;
	op op;
} binop;

/* Binary precedence levels, loosest first, as in C. */
#define LEVEL_OPS 4
static const binop levels[][LEVEL_OPS] = {
	{{TOK_OROR, OP_OR}},
	{{TOK_ANDAND, OP_AND}},
	{{TOK_BOR, OP_BOR}},
	{{TOK_BXOR, OP_BXOR}},
	{{TOK_BAND, OP_BAND}},
	{{TOK_EQ, OP_EQ}, {TOK_NE, OP_NE}},
	{{TOK_LT, OP_LT}, {TOK_LE, OP_LE}, {TOK_GT, OP_GT}, {TOK_GE, OP_GE}},
	{{TOK_SHL, OP_SHL}, {TOK_SHR, OP_SHR}},
	{{TOK_PLUS, OP_ADD}, {TOK_MINUS, OP_SUB}},
	{{TOK_STAR, OP_MUL}, {TOK_SLASH, OP_DIV}, {TOK_PERCENT, OP_MOD}},
};
#define NLEVELS (sizeof levels / sizeof levels[0])

static int parse_ternary(lang_parser *p, lang_val *out);

static uint32_t add_weight(uint32_t a, uint32_t b)
{
	uint64_t w = (uint64_t)a + b + 1;
	return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

static lang_val combine(lego_expr *e, const lang_val *a, const lang_val *b)
{
	lang_val v = {e, a->depth + 1, add_weight(a->weight, 0)};
	if (b) {
		v.depth = (a->depth > b->depth ? a->depth : b->depth) + 1;
		v.weight = add_weight(a->weight, b->weight);
	}
	return v;
}

static lego_expr *build(lego_ctx *ctx, op o, lego_expr *a, lego_expr *b)
{
	static const lego_expr_kind kinds[] = {
		[OP_OR] = LEGO_OR,   [OP_AND] = LEGO_AND, [OP_BOR] = LEGO_BOR,
		[OP_BXOR] = LEGO_BXOR, [OP_BAND] = LEGO_BAND, [OP_EQ] = LEGO_EQ,
		[OP_NE] = LEGO_NE,   [OP_LT] = LEGO_LT,   [OP_LE] = LEGO_LE,
		[OP_SHL] = LEGO_SHL, [OP_SHR] = LEGO_SHR,
	};
	switch (o) {
	case OP_GT: return lego_binop(ctx, LEGO_LT, b, a);
	case OP_GE: return lego_binop(ctx, LEGO_LE, b, a);
	case OP_ADD: return lego_add(ctx, a, b);
	case OP_SUB: return lego_sub(ctx, a, b);
	case OP_MUL: return lego_mul(ctx, a, b);
	case OP_DIV: return lego_div(ctx, a, b);
	case OP_MOD: return lego_mod(ctx, a, b);
	default: return lego_binop(ctx, kinds[o], a, b);
	}
}

/* Constant operands must fold: what does not is an overflow, a division
 * by zero or an invalid shift, and would fail every later use. */
static int check_folded(lang_parser *p, const lang_tok *at, lang_val *v,
			size_t n, lego_expr *const *args)
{
	if (lang_check_val(p, at, v))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!lego_expr_is_const(args[i], NULL))
			return 0;
	if (!lego_expr_is_const(v->e, NULL))
		return lang_error(p, at, "constant expression cannot be evaluated "
				  "(overflow, division by zero or invalid operand)");
	return 0;
}

/* In TileBy sizes a / b is a tile count, and a piece's dim written a / b
 * is one too (the authors' bricks write Row(N/B) before the TileBy that
 * says so): b must divide a.  Only the language reads sizes so: through
 * the C API a quotient is a plain floor division, which the layout
 * constructors prove positive like any size. */
static int exact_div(lang_parser *p, const lang_tok *at, lego_expr *a,
		     lego_expr *b, const char *what)
{
	int64_t x, y;
	if (lego_expr_is_const(a, &x) && lego_expr_is_const(b, &y)) {
		if (y > 0 && x % y == 0)
			return 0;
		return lang_error(p, at, "%s %lld/%lld is not exact", what,
				  (long long)x, (long long)y);
	}
	lego_expr *exact = lego_binop(p->ctx, LEGO_EQ, lego_mod(p->ctx, a, b),
				      lego_const(p->ctx, 0));
	if (lang_tune_constraint(p, at, exact) < 0)
		return -1;
	if (lego_assume_divides(p->ctx, b, a) != LEGO_OK)
		return lang_api_error(p, at);
	return 0;
}

static op find_op(size_t level, lang_tok_kind kind)
{
	for (size_t k = 0; k < LEVEL_OPS && levels[level][k].tok != TOK_EOF; k++)
		if (levels[level][k].tok == kind)
			return levels[level][k].op;
	return OP_NONE;
}

static int parse_unary(lang_parser *p, lang_val *out);

static int parse_level(lang_parser *p, size_t level, lang_val *out)
{
	if (level == NLEVELS)
		return parse_unary(p, out);
	if (parse_level(p, level + 1, out))
		return -1;
	for (;;) {
		lang_tok *at = lang_peek(p);
		op o = find_op(level, at->kind);
		if (o == OP_NONE)
			return 0;
		lang_next(p);
		lang_val rhs;
		if (parse_level(p, level + 1, &rhs))
			return -1;
		lego_expr *args[2] = {out->e, rhs.e};
		*out = combine(build(p->ctx, o, args[0], args[1]), out, &rhs);
		if (check_folded(p, at, out, 2, args))
			return -1;
		if (o == OP_DIV && p->exact_div &&
		    exact_div(p, at, args[0], args[1], "tile count"))
			return -1;
	}
}

static int parse_args(lang_parser *p, const lang_tok *fn, size_t want,
		      lang_val *args)
{
	size_t n = 0;
	if (lang_expect(p, TOK_LPAREN, "'('"))
		return -1;
	do {
		lang_val v;
		if (parse_ternary(p, &v))
			return -1;
		if (n < want)
			args[n] = v;
		n++;
	} while (lang_accept(p, TOK_COMMA));
	if (lang_expect(p, TOK_RPAREN, "')' or ','"))
		return -1;
	if (n != want)
		return lang_error(p, fn, "%s expects %zu argument%s, got %zu",
				  fn->text, want, want == 1 ? "" : "s", n);
	return 0;
}

/* mask(L[..]) in a template: the argument is one layout reference. */
static int parse_mask(lang_parser *p, const lang_tok *fn, lang_val *out)
{
	if (lang_expect(p, TOK_LPAREN, "'('"))
		return -1;
	lang_tok *at = lang_next(p);
	lang_name *n = at->kind == TOK_IDENT ? lang_lookup(p->spec, at->text)
					      : NULL;
	if (!n || n->kind != NAME_LAYOUT)
		return lang_error(p, at, "mask(..) takes a layout reference "
				  "L[..]");
	if (lang_expect(p, TOK_LBRACKET, "'['") ||
	    p->layout_mask(p, at, n->layout.l, out))
		return -1;
	return lang_expect(p, TOK_RPAREN, "')' after mask(L[..]")
		       ? -1
		       : 0;
}

/* min, max, isqrt, select, cdiv, and mask in templates; 1 if name is none
 * of them. */
static int parse_call(lang_parser *p, const lang_tok *fn, lang_val *out)
{
	if (p->layout_mask && !strcmp(fn->text, "mask") &&
	    lang_peek(p)->kind == TOK_LPAREN)
		return parse_mask(p, fn, out);
	static const char *const names[] = {"min", "max", "isqrt", "select",
					    "cdiv"};
	static const size_t arity[] = {2, 2, 1, 3, 2};
	size_t k = 0;
	while (k < 5 && strcmp(fn->text, names[k]))
		k++;
	if (k == 5)
		return 1;
	lang_val a[3] = {{0}};
	if (parse_args(p, fn, arity[k], a))
		return -1;
	lego_ctx *ctx = p->ctx;
	lego_expr *e = k == 0   ? lego_min(ctx, a[0].e, a[1].e)
		       : k == 1 ? lego_max(ctx, a[0].e, a[1].e)
		       : k == 2 ? lego_isqrt(ctx, a[0].e)
		       : k == 4 ? lego_cdiv(ctx, a[0].e, a[1].e)
				: lego_select(ctx, a[0].e, a[1].e, a[2].e);
	lego_expr *args[3] = {a[0].e, a[1].e, a[2].e};
	*out = combine(e, &a[0], k == 2 ? NULL : &a[1]);
	if (k == 3)
		*out = combine(e, out, &a[2]);
	if (k == 4)
		p->last_cdiv = e;  /* TileBy: a padded tile count */
	return check_folded(p, fn, out, arity[k], args);
}

static int declare_auto(lang_parser *p, const lang_tok *at, lang_val *out)
{
	lego_expr *e = p->auto_hi ? lego_index(p->ctx, at->text, NULL, p->auto_hi)
				  : lego_sym(p->ctx, at->text);
	*out = (lang_val){e, 0, 1};
	return lang_check_val(p, at, out);
}

/* The names an expression may use, offered for a misspelt one. */
static int unknown_name(lang_parser *p, const lang_tok *at)
{
	static const char *const functions[] = {"min", "max", "isqrt",
						"select", "cdiv"};
	lego_suggest s;
	lego_suggest_init(&s, at->text);
	for (size_t i = 0; i < p->nlocals; i++)
		lego_suggest_add(&s, p->locals[i].name);
	lang_suggest_spec(p->spec, &s, 1u << NAME_SYM | 1u << NAME_LET |
			  1u << NAME_INDEX |
			  (p->layout_ref ? 1u << NAME_LAYOUT : 0));
	lego_suggest_add_all(&s, functions,
			     sizeof functions / sizeof *functions);
	if (p->layout_mask)
		lego_suggest_add(&s, "mask");
	return lang_error(p, at, "unknown name '%s'%s", at->text,
			  lego_suggest_hint(&s));
}

static int parse_name(lang_parser *p, const lang_tok *at, lang_val *out)
{
	static const char *const layout_words[] = {
		"RegP", "GenP", "Row", "Col", "OrderBy", "TileOrderBy",
		"GroupBy", "TileBy"};
	for (size_t i = p->nlocals; i-- > 0;)
		if (!strcmp(p->locals[i].name, at->text)) {
			*out = p->locals[i].val;
			return 0;
		}
	lang_name *n = lang_lookup(p->spec, at->text);
	if (n && n->kind == NAME_LAYOUT && p->layout_ref)
		return p->layout_ref(p, at, n->layout.l, out);
	if (n && n->kind == NAME_LAYOUT)
		return lang_error(p, at, "'%s' is a layout, not an expression",
				  at->text);
	if (n && n->kind == NAME_GENP)
		return lang_error(p, at, "'%s' is a genp function, not an expression",
				  at->text);
	if (n) {
		*out = n->val;
		if (n->is_cdiv)
			p->last_cdiv = n->val.e;
		return 0;
	}
	for (size_t i = 0; i < sizeof layout_words / sizeof layout_words[0]; i++)
		if (!strcmp(layout_words[i], at->text))
			return lang_error(p, at, "layout %s used as an expression",
					  at->text);
	if (lang_is_reserved(at->text))
		return lang_error(p, at, "expected an expression, got '%s'",
				  at->text);
	if (p->auto_index)
		return declare_auto(p, at, out);
	lego_expr *known = p->layout_ref ? lego_sym_find(p->ctx, at->text) : NULL;
	if (known) {
		*out = (lang_val){known, 0, 1};
		return 0;
	}
	return unknown_name(p, at);
}

static int parse_primary(lang_parser *p, lang_val *out)
{
	lang_tok *t = lang_next(p);
	char buf[64];
	if (t->kind == TOK_INT) {
		*out = (lang_val){lego_const(p->ctx, t->value), 0, 1};
		return lang_check_val(p, t, out);
	}
	if (t->kind == TOK_IDENT) {
		int rc = parse_call(p, t, out);
		return rc <= 0 ? rc : parse_name(p, t, out);
	}
	if (t->kind != TOK_LPAREN)
		return lang_error(p, t, "expected an expression, got %s",
				  lang_tok_describe(t, buf, sizeof buf));
	if (parse_ternary(p, out))
		return -1;
	return lang_expect(p, TOK_RPAREN, "')'");
}

static int parse_unary(lang_parser *p, lang_val *out)
{
	lang_tok *t = lang_peek(p);
	if (t->kind != TOK_MINUS && t->kind != TOK_BANG && t->kind != TOK_PLUS)
		return parse_primary(p, out);
	lang_next(p);
	if (lang_enter(p, t))
		return -1;
	int rc = parse_unary(p, out);
	lang_leave(p);
	if (rc || t->kind == TOK_PLUS)
		return rc;
	lego_expr *a = out->e;
	lego_expr *e = t->kind == TOK_MINUS ? lego_neg(p->ctx, a)
					    : lego_not(p->ctx, a);
	*out = combine(e, out, NULL);
	return check_folded(p, t, out, 1, &a);
}

static int parse_ternary(lang_parser *p, lang_val *out)
{
	lang_tok *start = lang_peek(p);
	if (lang_enter(p, start))
		return -1;
	int rc = parse_level(p, 0, out);
	lang_tok *q = lang_peek(p);
	if (!rc && lang_accept(p, TOK_QUESTION)) {
		lang_val a, b;
		rc = parse_ternary(p, &a) ||
		     lang_expect(p, TOK_COLON, "':'") || parse_ternary(p, &b);
		if (!rc) {
			lego_expr *args[3] = {out->e, a.e, b.e};
			lego_expr *e = lego_select(p->ctx, args[0], a.e, b.e);
			*out = combine(e, out, &a);
			*out = combine(e, out, &b);
			rc = check_folded(p, q, out, 3, args);
		}
	}
	lang_leave(p);
	return rc ? -1 : 0;
}

int lang_parse_expr(lang_parser *p, lang_val *out)
{
	return parse_ternary(p, out);
}

int lang_parse_list(lang_parser *p, int paren, lang_list *l, size_t *read)
{
	size_t n = 0;
	if (lang_expect(p, paren ? TOK_LPAREN : TOK_LBRACKET,
			paren ? "'('" : "'['"))
		return -1;
	do {
		lang_tok *at = lang_peek(p);
		lang_val v;
		if (n == LANG_MAX_RANK)
			return lang_error(p, at, "too many entries (limit %d)",
					  LANG_MAX_RANK);
		size_t mcap = l->cap; /* marks grow with items */
		p->last_cdiv = NULL;
		if (lang_parse_expr(p, &v) ||
		    (l->want_marks && lang_grow(p, (void **)&l->marks, &mcap,
						l->n, sizeof *l->marks)) ||
		    lang_grow(p, (void **)&l->items, &l->cap, l->n,
			      sizeof *l->items))
			return -1;
		/* A divisor not proved positive is left to the layout's
		 * own check, which says what is wrong with it. */
		if (p->exact_dims && lego_expr_kind_of(v.e) == LEGO_DIV &&
		    v.e != p->last_cdiv &&
		    lego_prove_lt(p->ctx, lego_const(p->ctx, 0),
				  lego_expr_arg(v.e, 1)) &&
		    exact_div(p, at, lego_expr_arg(v.e, 0),
			      lego_expr_arg(v.e, 1), "dim"))
			return -1;
		if (l->want_marks)
			l->marks[l->n] = v.e && v.e == p->last_cdiv;
		l->items[l->n++] = v.e;
		n++;
	} while (lang_accept(p, TOK_COMMA));
	if (read)
		*read = n;
	return lang_expect(p, paren ? TOK_RPAREN : TOK_RBRACKET,
			   paren ? "')' or ','" : "']' or ','");
}

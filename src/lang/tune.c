/* tune.c - tunable parameters: `tune NAME in {v, ..}`, `tune NAME in
 * lo..hi`, `tune layout NAME in {L, ..}`, and the constraints on them.
 *
 * A free parameter is a symbol (a layout choice: an index over [0, n)),
 * so the rest of the file is read symbolically; a parameter given by -D is
 * the constant it names, which is how a configuration is instantiated. */
#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"
#include "expr/sbuf.h"
#include "lang/parse.h"

/* Ranges larger than this are a typo, not a search space (and value
 * indices are 16 bits in a space). */
#define TUNE_MAX_VALUES 65535

static int tune_grow(lang_parser *p, lang_tunes *t)
{
	if (lang_grow(p, (void **)&t->params, &t->cap, t->n, sizeof *t->params))
		return -1;
	size_t cap = t->n; /* syms grow with params: same capacity */
	void *syms = lego_xalloc(p->ctx, t->cap * sizeof *t->syms);
	if (!syms)
		return lang_api_error(p, lang_peek(p));
	if (cap)
		memcpy(syms, t->syms, cap * sizeof *t->syms);
	t->syms = syms;
	return 0;
}

/* Appends v to a growing value list. */
static int push_value(lang_parser *p, const lang_tok *at, int64_t **values,
		      size_t *n, size_t *cap, int64_t v)
{
	if (*n == TUNE_MAX_VALUES)
		return lang_error(p, at, "too many values (limit %d)",
				  TUNE_MAX_VALUES);
	if (lang_grow(p, (void **)values, cap, *n, sizeof **values))
		return -1;
	(*values)[(*n)++] = v;
	return 0;
}

static int const_value(lang_parser *p, int64_t *v)
{
	lang_tok *at = lang_peek(p);
	lang_val e;
	if (lang_parse_expr(p, &e))
		return -1;
	if (!lego_expr_is_const(e.e, v))
		return lang_error(p, at, "a tuning value must be a constant");
	if (*v < 1)
		return lang_error(p, at, "a tuning value must be positive, got "
				  "%lld", (long long)*v);
	return 0;
}

/* {v1, .., vn} or lo..hi (inclusive). */
static int parse_values(lang_parser *p, lego_tune_param *tp)
{
	int64_t *values = NULL, v, hi;
	size_t n = 0, cap = 0;
	lang_tok *at = lang_peek(p);
	if (lang_accept(p, TOK_LBRACE)) {
		do {
			lang_tok *vt = lang_peek(p);
			if (const_value(p, &v))
				return -1;
			for (size_t k = 0; k < n; k++)
				if (values[k] == v)
					return lang_error(p, vt, "value %lld is "
							  "listed twice",
							  (long long)v);
			if (push_value(p, vt, &values, &n, &cap, v))
				return -1;
		} while (lang_accept(p, TOK_COMMA));
		if (lang_expect(p, TOK_RBRACE, "',' or '}'"))
			return -1;
	} else {
		if (const_value(p, &v) || lang_expect(p, TOK_DOT, "'{' or '..'") ||
		    lang_expect(p, TOK_DOT, "'..'") || const_value(p, &hi))
			return -1;
		if (hi < v)
			return lang_error(p, at, "empty range %lld..%lld",
					  (long long)v, (long long)hi);
		if (hi - v >= TUNE_MAX_VALUES)
			return lang_error(p, at, "too many values (limit %d)",
					  TUNE_MAX_VALUES);
		for (; v <= hi; v++)
			if (push_value(p, at, &values, &n, &cap, v))
				return -1;
	}
	tp->values = values;
	tp->nvalues = n;
	return 0;
}

/* How a layout choice is written, from its tokens [from, to). */
static const char *choice_label(lang_parser *p, size_t from, size_t to)
{
	lego_sbuf b = {0};
	char buf[64];
	for (size_t i = from; i < to; i++) {
		const lang_tok *t = &p->toks[i];
		if (t->kind == TOK_IDENT)
			lego_sbuf_puts(&b, t->text);
		else if (t->kind == TOK_INT)
			lego_sbuf_printf(&b, "%lld", (long long)t->value);
		else /* described as 'x': drop the quotes */
			lego_sbuf_printf(&b, "%.*s",
					 (int)strlen(lang_tok_describe(t, buf,
							sizeof buf)) - 2,
					 buf + 1);
		if (t->kind == TOK_COMMA)
			lego_sbuf_puts(&b, " ");
	}
	char *s = lego_sbuf_take(&b);
	const char *label = s ? lego_arena_strdup(&p->ctx->arena, s) : NULL;
	free(s);
	return label;
}

/* Skips a layout choice not taken (it may not even be valid for the
 * sizes given): to the ',' or '}' that ends it. */
static void skip_choice(lang_parser *p)
{
	int depth = 0;
	for (;;) {
		lang_tok_kind k = lang_peek(p)->kind;
		if (k == TOK_EOF || (depth == 0 && (k == TOK_COMMA ||
						    k == TOK_RBRACE)))
			return;
		if (k == TOK_LPAREN || k == TOK_LBRACKET || k == TOK_LBRACE)
			depth++;
		else if (k == TOK_RPAREN || k == TOK_RBRACKET ||
			 k == TOK_RBRACE)
			depth--;
		lang_next(p);
	}
}

/* {L0, .., Ln-1}: n binds to the chosen one (L0 while free). */
static int parse_choices(lang_parser *p, lang_name *n, lego_tune_param *tp,
			 lego_expr *sym)
{
	lang_tunes *t = &p->spec->tunes;
	int64_t *values = NULL;
	const char **labels = NULL;
	size_t cap = 0, lcap = 0, k = 0;
	if (lang_expect(p, TOK_LBRACE, "'{'"))
		return -1;
	do {
		lang_tok *at = lang_peek(p);
		size_t from = p->pos;
		if (tp->fixed >= 0 && (int64_t)k != tp->fixed) {
			skip_choice(p);
		} else {
			lang_lval l;
			t->guard = sym ? lego_binop(p->ctx, LEGO_EQ, sym,
						    lego_const(p->ctx,
							       (int64_t)k))
				       : NULL;
			int rc = lang_parse_layout(p, &l);
			t->guard = NULL;
			if (rc)
				return -1;
			if (k == 0 || (int64_t)k == tp->fixed)
				n->layout = l;
		}
		if (push_value(p, at, &values, &k, &cap, (int64_t)k) ||
		    lang_grow(p, (void **)&labels, &lcap, k - 1,
			      sizeof *labels))
			return -1;
		labels[k - 1] = choice_label(p, from, p->pos);
		if (!labels[k - 1])
			return lang_api_error(p, at);
	} while (lang_accept(p, TOK_COMMA));
	if (lang_expect(p, TOK_RBRACE, "',' or '}'"))
		return -1;
	tp->values = values;
	tp->labels = labels;
	tp->nvalues = k;
	return 0;
}

/* The -D value of a parameter, as its index among the values. */
static int fix_param(lang_parser *p, const lang_tok *at, lego_tune_param *tp,
		     const lego_define *def)
{
	for (size_t k = 0; k < tp->nvalues; k++)
		if (tp->values[k] == def->value) {
			tp->fixed = (int64_t)k;
			return 0;
		}
	return lang_error(p, at, "-D %s=%lld is not a value of this tunable "
			  "parameter", tp->name, (long long)def->value);
}

/* The values of a layout choice are its positions, known only after
 * reading them; a -D must name one of them. */
static int fix_choice(lang_parser *p, const lang_tok *at, lego_tune_param *tp,
		      const lego_define *def, size_t max)
{
	if (def->value < 0 || (size_t)def->value >= max)
		return lang_error(p, at, "-D %s=%lld: a layout choice is given "
				  "by its position 0..%zu", tp->name,
				  (long long)def->value, max - 1);
	tp->fixed = def->value;
	return 0;
}

/* The number of top-level entries of the {..} ahead. */
static size_t count_choices(lang_parser *p)
{
	size_t save = p->pos, n = 1;
	lang_next(p); /* '{' */
	for (;;) {
		skip_choice(p);
		if (!lang_accept(p, TOK_COMMA))
			break;
		n++;
	}
	p->pos = save;
	return n;
}

int lang_decl_tune(lang_parser *p)
{
	lang_tunes *t = &p->spec->tunes;
	int is_layout = lang_is_ident(lang_peek(p), "layout");
	if (is_layout)
		lang_next(p);
	lang_tok *at = lang_peek(p);
	lang_name *n = lang_declare(p, is_layout ? NAME_LAYOUT : NAME_SYM);
	lang_tok *in = lang_peek(p);
	char buf[64];
	if (!n || tune_grow(p, t))
		return -1;
	if (!lang_is_ident(in, "in"))
		return lang_error(p, in, "expected 'in', got %s",
				  lang_tok_describe(in, buf, sizeof buf));
	lang_next(p);
	lego_tune_param *tp = &t->params[t->n];
	*tp = (lego_tune_param){.name = n->name, .is_layout = is_layout,
				.fixed = -1, .line = at->line, .col = at->col};
	const lego_define *def = lang_find_define(p->spec, n->name);
	lego_expr *sym = NULL;
	if (is_layout) {
		if (lang_peek(p)->kind != TOK_LBRACE)
			return lang_expect(p, TOK_LBRACE, "'{'");
		size_t max = count_choices(p);
		if (def && fix_choice(p, at, tp, def, max))
			return -1;
		if (!def) {
			sym = lego_index(p->ctx, n->name, lego_const(p->ctx, 0),
					 lego_const(p->ctx, (int64_t)max));
			if (!sym)
				return lang_api_error(p, at);
		}
		if (parse_choices(p, n, tp, sym))
			return -1;
	} else {
		if (parse_values(p, tp) || (def && fix_param(p, at, tp, def)))
			return -1;
		n->val.e = def ? lego_const(p->ctx, def->value)
			       : lego_sym(p->ctx, n->name);
		n->val.weight = 1;
		if (lang_check_val(p, at, &n->val))
			return -1;
		sym = def ? NULL : n->val.e;
	}
	t->syms[t->n++] = sym;
	lang_bind(p, n);
	return 0;
}

int lang_tune_constraint(lang_parser *p, const lang_tok *at, lego_expr *cond)
{
	lang_tunes *t = &p->spec->tunes;
	if (!cond)
		return lang_api_error(p, at);
	if (!lego_expr_mentions(cond, t->syms, t->n))
		return 0;
	/* A fact for the symbolic reading of the rest of the file, where the
	 * simplifier can use it; a form it does not take is still a
	 * constraint, checked for every configuration. */
	if (!t->guard)
		(void)lego_assume(p->ctx, cond);
	if (t->guard)
		cond = lego_binop(p->ctx, LEGO_OR,
				  lego_not(p->ctx, t->guard), cond);
	if (!cond || lang_grow(p, (void **)&t->cons, &t->cons_cap, t->ncons,
			       sizeof *t->cons))
		return lang_api_error(p, at);
	t->cons[t->ncons++] = (lang_constraint){cond, at->line, at->col};
	return 1;
}

size_t lego_spec_ntunes(const lego_spec *spec)
{
	return spec ? spec->tunes.n : 0;
}

const lego_tune_param *lego_spec_tune(const lego_spec *spec, size_t i)
{
	return spec && i < spec->tunes.n ? &spec->tunes.params[i] : NULL;
}

size_t lego_spec_nconstraints(const lego_spec *spec)
{
	return spec ? spec->tunes.ncons : 0;
}

lego_expr *lego_spec_constraint(const lego_spec *spec, size_t i, int *line,
				int *col)
{
	if (!spec || i >= spec->tunes.ncons)
		return NULL;
	if (line)
		*line = spec->tunes.cons[i].line;
	if (col)
		*col = spec->tunes.cons[i].col;
	return spec->tunes.cons[i].e;
}

const char *lego_spec_filename(const lego_spec *spec)
{
	return spec ? spec->filename : NULL;
}

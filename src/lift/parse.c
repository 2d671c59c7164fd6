/* parse.c - the recursive-descent parser of .lift programs.
 *
 *   program := item*
 *   item    := 'size' IDENT (',' IDENT)* ';'
 *            | 'assume' INT '|' IDENT ';'
 *            | ('float'|'int') IDENT '(' cparams ')' '{' C text '}'
 *            | 'kernel' IDENT '(' IDENT ':' type, ... ')' '=' expr ';'
 *   type    := 'float' | 'int' | '[' type ']' size | '(' type, ... ')'
 *   size    := INT | IDENT | size '*' size | '(' size ')'
 *   expr    := comp ('$' expr)?        (right associative, lowest)
 *   comp    := prim ('o' comp)?
 *   prim    := IDENT | IDENT '(' expr, ... ')' | NUMBER | '(' expr ')'
 *            | '\' IDENT, ... '->' expr
 *
 * The .lego lexer has no floats, braces, '$' or '\', so the scanner is this
 * file's own; user-function bodies are taken verbatim (balanced braces). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lift/lift.h"

#define LIFT_MAX_NESTING 200

typedef struct parser {
	lego_ctx *ctx;
	lift_program *p;
	const char *file, *s, *end;
	const char *pos;           /* scanner position */
	int line, col;
	int depth;
	/* the current token */
	char tok;                  /* 'a' ident, '0' number, 'E' end, else punct */
	const char *tstart;
	size_t tlen;
	int tline, tcol;
	int tfloat;
} parser;

static int perr(parser *ps, int line, int col, const char *msg, const char *arg)
{
	lego_fail(ps->ctx, LEGO_ERR, "%s:%d:%d: error: %s%s", ps->file, line,
		  col, msg, arg ? arg : "");
	return -1;
}

static void advance_char(parser *ps)
{
	if (*ps->pos == '\n') {
		ps->line++;
		ps->col = 1;
	} else {
		ps->col++;
	}
	ps->pos++;
}

static void skip_space(parser *ps)
{
	for (;;) {
		while (ps->pos < ps->end && isspace((unsigned char)*ps->pos))
			advance_char(ps);
		if (ps->pos + 1 < ps->end && ps->pos[0] == '/' &&
		    ps->pos[1] == '/') {
			while (ps->pos < ps->end && *ps->pos != '\n')
				advance_char(ps);
			continue;
		}
		return;
	}
}

/* Reads the next token. */
static int next(parser *ps)
{
	skip_space(ps);
	ps->tstart = ps->pos;
	ps->tline = ps->line;
	ps->tcol = ps->col;
	ps->tfloat = 0;
	if (ps->pos >= ps->end) {
		ps->tok = 'E';
		ps->tlen = 0;
		return 0;
	}
	unsigned char c = (unsigned char)*ps->pos;
	if (isalpha(c) || c == '_') {
		while (ps->pos < ps->end && (isalnum((unsigned char)*ps->pos) ||
					     *ps->pos == '_'))
			advance_char(ps);
		ps->tok = 'a';
	} else if (isdigit(c)) {
		int dots = 0;
		while (ps->pos < ps->end && (isdigit((unsigned char)*ps->pos) ||
					     *ps->pos == '.')) {
			dots += *ps->pos == '.';
			advance_char(ps);
		}
		ps->tfloat = dots > 0;
		/* an exponent: e or E, a sign maybe, digits (3.0e38f) */
		const char *e = ps->pos;
		if (dots < 2 && e < ps->end && (*e == 'e' || *e == 'E')) {
			e++;
			if (e < ps->end && (*e == '+' || *e == '-'))
				e++;
			if (e < ps->end && isdigit((unsigned char)*e)) {
				while (ps->pos < e)
					advance_char(ps);
				while (ps->pos < ps->end &&
				       isdigit((unsigned char)*ps->pos))
					advance_char(ps);
				ps->tfloat = 1;
			}
		}
		if (dots > 1)
			return perr(ps, ps->tline, ps->tcol, "malformed number",
				    NULL);
		if (ps->pos < ps->end && *ps->pos == 'f') {
			ps->tfloat = 1;
			advance_char(ps);
		}
		if (ps->pos < ps->end && isalnum((unsigned char)*ps->pos))
			return perr(ps, ps->line, ps->col,
				    "malformed number", NULL);
		ps->tok = '0';
	} else if (c == '-' && ps->pos + 1 < ps->end && ps->pos[1] == '>') {
		advance_char(ps);
		advance_char(ps);
		ps->tok = '>';
	} else if (strchr("()[],;:=$\\{}|*", c)) {
		advance_char(ps);
		ps->tok = (char)c;
	} else {
		char buf[2] = {(char)c, 0};
		return perr(ps, ps->line, ps->col, "unexpected character ",
			    isprint(c) ? buf : "(non-printable)");
	}
	ps->tlen = (size_t)(ps->pos - ps->tstart);
	return 0;
}

static int is_word(const parser *ps, const char *w)
{
	return ps->tok == 'a' && strlen(w) == ps->tlen &&
	       !strncmp(ps->tstart, w, ps->tlen);
}

static char *tok_text(parser *ps)
{
	return lego_arena_strndup(&ps->ctx->arena, ps->tstart, ps->tlen);
}

static int expect(parser *ps, char tok, const char *what)
{
	if (ps->tok != tok) {
		char got[64];
		if (ps->tok == 'E')
			snprintf(got, sizeof got, "end of input");
		else
			snprintf(got, sizeof got, "'%.*s'",
				 (int)(ps->tlen > 40 ? 40 : ps->tlen),
				 ps->tstart);
		lego_fail(ps->ctx, LEGO_ERR, "%s:%d:%d: error: expected %s, got %s",
			  ps->file, ps->tline, ps->tcol, what, got);
		return -1;
	}
	return next(ps);
}

static char *expect_ident(parser *ps, const char *what)
{
	if (ps->tok != 'a') {
		expect(ps, 'a', what);
		return NULL;
	}
	char *s = tok_text(ps);
	return next(ps) ? NULL : s;
}

/* A growable array of pointers in malloc memory, copied into the arena. */
typedef struct plist {
	void **v;
	size_t n, cap;
} plist;

static int plist_push(lego_ctx *ctx, plist *l, void *x)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4;
		void **v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = x;
	return 0;
}

static void **plist_take(lego_ctx *ctx, plist *l)
{
	void **v = lego_arena_alloc(&ctx->arena, (l->n ? l->n : 1) * sizeof *v);
	if (v && l->n)
		memcpy(v, l->v, l->n * sizeof *v);
	free(l->v);
	l->v = NULL;
	return v;
}

/* ------------------------------------------------------------ size exprs */

static lego_expr *size_expr(parser *ps);

static lego_expr *size_atom(parser *ps)
{
	lego_expr *e = NULL;
	if (ps->tok == '0' && !ps->tfloat) {
		e = lego_const(ps->ctx, strtoll(ps->tstart, NULL, 10));
	} else if (ps->tok == 'a') {
		char *name = tok_text(ps);
		int known = 0;
		for (size_t i = 0; i < ps->p->nsizes; i++)
			known |= !strcmp(ps->p->sizes[i], name);
		if (!known) {
			perr(ps, ps->tline, ps->tcol, "unknown size ", name);
			return NULL;
		}
		e = lego_sym(ps->ctx, name);
	} else if (ps->tok == '(') {
		if (next(ps) || !(e = size_expr(ps)) ||
		    expect(ps, ')', "')'"))
			return NULL;
		return e;
	} else {
		expect(ps, '0', "a size (an integer or a size symbol)");
		return NULL;
	}
	return next(ps) ? NULL : e;
}

/* Sizes are products of atoms: enough for every array shape of the
 * benchmarks, and they stay positive. */
static lego_expr *size_expr(parser *ps)
{
	lego_expr *e = size_atom(ps);
	while (e && ps->tok == '*') {
		if (next(ps))
			return NULL;
		lego_expr *r = size_atom(ps);
		e = r ? lego_mul(ps->ctx, e, r) : NULL;
	}
	return e;
}

static lift_type *parse_type(parser *ps)
{
	if (++ps->depth > LIFT_MAX_NESTING) {
		perr(ps, ps->tline, ps->tcol, "type nested too deeply", NULL);
		return NULL;
	}
	lift_type *t = NULL;
	if (is_word(ps, "float") || is_word(ps, "int")) {
		t = lift_type_scalar(ps->ctx, is_word(ps, "float") ? LIFT_FLOAT
								   : LIFT_INT);
		if (next(ps))
			return NULL;
	} else if (ps->tok == '[') {
		lift_type *elem;
		lego_expr *len;
		if (next(ps) || !(elem = parse_type(ps)) ||
		    expect(ps, ']', "']'") || !(len = size_expr(ps)))
			return NULL;
		t = lift_type_array(ps->ctx, elem, len);
	} else if (ps->tok == '(') {
		plist l = {0};
		do {
			lift_type *e;
			if (next(ps) || !(e = parse_type(ps)) ||
			    plist_push(ps->ctx, &l, e)) {
				free(l.v);
				return NULL;
			}
		} while (ps->tok == ',');
		size_t n = l.n;
		lift_type **elems = (lift_type **)plist_take(ps->ctx, &l);
		if (expect(ps, ')', "')' or ','"))
			return NULL;
		t = lift_type_tuple(ps->ctx, elems, n);
	} else {
		expect(ps, 'a', "a type ('float', 'int', '[T]N' or a tuple)");
		return NULL;
	}
	ps->depth--;
	return t;
}

/* ------------------------------------------------------------ expressions */

static lift_ast *new_ast(parser *ps, lift_ast_kind kind, int line, int col)
{
	lift_ast *a = lego_arena_alloc(&ps->ctx->arena, sizeof *a);
	if (a) {
		a->kind = kind;
		a->line = line;
		a->col = col;
	}
	return a;
}

static lift_ast *parse_expr(parser *ps);

static lift_ast *binary(parser *ps, lift_ast_kind kind, lift_ast *l,
			lift_ast *r, int line, int col)
{
	lift_ast *a = r ? new_ast(ps, kind, line, col) : NULL;
	if (!a)
		return NULL;
	a->args = lego_arena_alloc(&ps->ctx->arena, 2 * sizeof *a->args);
	if (!a->args)
		return NULL;
	a->args[0] = l;
	a->args[1] = r;
	a->nargs = 2;
	return a;
}

/* item (, item)* into l; on failure l is freed. */
static int parse_items(parser *ps, void *(*item)(parser *), plist *l)
{
	for (;;) {
		void *x = item(ps);
		if (!x || plist_push(ps->ctx, l, x))
			break;
		if (ps->tok != ',')
			return 0;
		if (next(ps))
			break;
	}
	free(l->v);
	return -1;
}

static void *param_name(parser *ps)
{
	return expect_ident(ps, "a parameter name");
}

static void *arg_expr(parser *ps)
{
	return parse_expr(ps);
}

static lift_ast *parse_lambda(parser *ps, int line, int col)
{
	lift_ast *a = new_ast(ps, LIFT_LAMBDA, line, col);
	plist l = {0};
	if (!a || next(ps))
		return NULL;
	if (parse_items(ps, param_name, &l))
		return NULL;
	a->nparams = l.n;
	a->params = (const char **)plist_take(ps->ctx, &l);
	lift_ast *body;
	if (expect(ps, '>', "'->'") || !(body = parse_expr(ps)))
		return NULL;
	a->args = lego_arena_alloc(&ps->ctx->arena, sizeof *a->args);
	if (!a->args)
		return NULL;
	a->args[0] = body;
	a->nargs = 1;
	return a;
}

static lift_ast *parse_prim(parser *ps)
{
	int line = ps->tline, col = ps->tcol;
	if (ps->tok == '\\')
		return parse_lambda(ps, line, col);
	if (ps->tok == '(') {
		lift_ast *e;
		if (next(ps) || !(e = parse_expr(ps)) ||
		    expect(ps, ')', "')'"))
			return NULL;
		return e;
	}
	if (ps->tok == '0') {
		lift_ast *a = new_ast(ps, LIFT_NUM, line, col);
		if (!a)
			return NULL;
		a->name = tok_text(ps);
		a->is_float = ps->tfloat;
		return next(ps) ? NULL : a;
	}
	char *name = expect_ident(ps, "an expression");
	if (!name)
		return NULL;
	if (ps->tok != '(') {
		lift_ast *a = new_ast(ps, LIFT_VAR, line, col);
		if (a)
			a->name = name;
		return a;
	}
	lift_ast *a = new_ast(ps, LIFT_CALL, line, col);
	plist l = {0};
	if (!a || next(ps))
		return NULL;
	a->name = name;
	if (ps->tok != ')' && parse_items(ps, arg_expr, &l))
		return NULL;
	a->nargs = l.n;
	a->args = (lift_ast **)plist_take(ps->ctx, &l);
	return expect(ps, ')', "')' or ','") ? NULL : a;
}

static lift_ast *parse_comp(parser *ps)
{
	lift_ast *l = parse_prim(ps);
	if (!l || !is_word(ps, "o"))
		return l;
	int line = ps->tline, col = ps->tcol;
	if (next(ps))
		return NULL;
	return binary(ps, LIFT_COMPOSE, l, parse_comp(ps), line, col);
}

static lift_ast *parse_expr(parser *ps)
{
	if (++ps->depth > LIFT_MAX_NESTING) {
		perr(ps, ps->tline, ps->tcol, "expression nested too deeply",
		     NULL);
		return NULL;
	}
	lift_ast *l = parse_comp(ps);
	if (l && ps->tok == '$') {
		int line = ps->tline, col = ps->tcol;
		if (next(ps))
			return NULL;
		l = binary(ps, LIFT_APPLY, l, parse_expr(ps), line, col);
	}
	ps->depth--;
	return l;
}

/* ------------------------------------------------------------------ items */

static int parse_sizes(parser *ps)
{
	plist l = {0};
	for (size_t i = 0; i < ps->p->nsizes; i++)
		if (plist_push(ps->ctx, &l, (void *)ps->p->sizes[i]))
			goto fail;
	do {
		if (next(ps))
			goto fail;
		int line = ps->tline, col = ps->tcol;
		char *name = expect_ident(ps, "a size name");
		if (!name)
			goto fail;
		for (size_t i = 0; i < l.n; i++)
			if (!strcmp(l.v[i], name)) {
				perr(ps, line, col, "size declared twice: ",
				     name);
				goto fail;
			}
		if (lift_name_reserved(name)) {
			perr(ps, line, col, "name reserved for the generated "
					    "code: ", name);
			goto fail;
		}
		if (!lego_sym(ps->ctx, name)) {
			perr(ps, line, col, "bad size name: ", name);
			goto fail;
		}
		if (plist_push(ps->ctx, &l, name))
			goto fail;
	} while (ps->tok == ',');
	ps->p->nsizes = l.n;
	ps->p->sizes = (const char **)plist_take(ps->ctx, &l);
	return expect(ps, ';', "';' or ','");
fail:
	free(l.v);
	return -1;
}

static int parse_assume(parser *ps)
{
	lego_expr *d, *n;
	if (next(ps) || !(d = size_expr(ps)) || expect(ps, '|', "'|'") ||
	    !(n = size_expr(ps)) || expect(ps, ';', "';'"))
		return -1;
	return lego_assume_divides(ps->ctx, d, n) ? -1 : 0;
}

/* local X, Y, Z;  the work-group size (1 to 3 dimensions), at most 1024
 * work-items, as OpenCL's reqd_work_group_size. */
static int parse_local(parser *ps)
{
	int d = 0;
	long long items = 1;
	if (ps->p->local[0])
		return perr(ps, ps->tline, ps->tcol, "the work-group size is "
			    "declared twice", NULL);
	if (next(ps))
		return -1;
	do {
		if (d && next(ps))
			return -1;
		int line = ps->tline, col = ps->tcol;
		if (d == 3)
			return perr(ps, line, col, "a work-group has at most 3 "
				    "dimensions", NULL);
		if (ps->tok != '0' || ps->tfloat)
			return expect(ps, '0', "a work-group size (an integer)");
		long long v = strtoll(ps->tstart, NULL, 10);
		items *= v;
		if (v < 1 || items > 1024)
			return perr(ps, line, col, "a work-group holds 1 to 1024 "
				    "work-items", NULL);
		ps->p->local[d++] = (int)v;
		if (next(ps))
			return -1;
	} while (ps->tok == ',');
	return expect(ps, ';', "',' or ';'");
}

/* float NAME(float a, int b) { ... }: kept as written. */
static int parse_ufun(parser *ps, plist *funs)
{
	lift_ufun *f = lego_arena_alloc(&ps->ctx->arena, sizeof *f);
	const char *start = ps->tstart;
	if (!f)
		return -1;
	f->line = ps->tline;
	f->col = ps->tcol;
	f->result = is_word(ps, "float") ? LIFT_FLOAT : LIFT_INT;
	if (next(ps))
		return -1;
	int line = ps->tline, col = ps->tcol;
	if (!(f->name = expect_ident(ps, "a function name")))
		return -1;
	if (lift_name_reserved(f->name)) /* it is emitted as written */
		return perr(ps, line, col,
			    "name reserved for the generated code: ", f->name);
	if (expect(ps, '(', "'('"))
		return -1;
	lift_type_kind kinds[16];
	size_t n = 0;
	while (ps->tok != ')') {
		if (n && expect(ps, ',', "',' or ')'"))
			return -1;
		if (!is_word(ps, "float") && !is_word(ps, "int"))
			return expect(ps, '0', "a parameter type (float or int)");
		if (n == 16)
			return perr(ps, ps->tline, ps->tcol,
				    "more than 16 parameters", NULL);
		kinds[n++] = is_word(ps, "float") ? LIFT_FLOAT : LIFT_INT;
		if (next(ps) || !expect_ident(ps, "a parameter name"))
			return -1;
	}
	if (next(ps))
		return -1;
	if (ps->tok != '{')
		return expect(ps, '{', "'{'");
	int braces = 0;
	for (;;) {
		if (ps->pos >= ps->end)
			return perr(ps, f->line, f->col,
				    "unterminated body of function ", f->name);
		char c = *ps->pos;
		advance_char(ps);
		if (c == '{')
			braces++;
		else if (c == '}' && braces-- == 0)
			break;
	}
	f->text = lego_arena_strndup(&ps->ctx->arena, start,
				     (size_t)(ps->pos - start));
	f->ptypes = lego_arena_alloc(&ps->ctx->arena, (n ? n : 1) * sizeof *kinds);
	if (!f->text || !f->ptypes)
		return -1;
	memcpy(f->ptypes, kinds, n * sizeof *kinds);
	f->nparams = n;
	for (size_t i = 0; i < funs->n; i++)
		if (!strcmp(((lift_ufun *)funs->v[i])->name, f->name))
			return perr(ps, f->line, f->col,
				    "function defined twice: ", f->name);
	return plist_push(ps->ctx, funs, f) ? -1 : next(ps);
}

int lift_name_reserved(const char *name)
{
	static const char *const prefixes[] = LIFT_NAME_PREFIXES;
	if (!strcmp(name, "out"))
		return 1;
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* A kernel parameter's name must not clash in the generated C with
 * another parameter or a size (nor with a generated name: refused before). */
static int kernel_name_free(parser *ps, const plist *params, const char *name)
{
	for (size_t i = 0; i < ps->p->nsizes; i++)
		if (!strcmp(ps->p->sizes[i], name))
			return 0;
	for (size_t i = 0; i < params->n; i++)
		if (!strcmp(((lift_param *)params->v[i])->name, name))
			return 0;
	return 1;
}

static int parse_kernel(parser *ps)
{
	lift_program *p = ps->p;
	if (p->kernel)
		return perr(ps, ps->tline, ps->tcol,
			    "a program has one kernel", NULL);
	if (next(ps) || !(p->kernel = expect_ident(ps, "a kernel name")) ||
	    expect(ps, '(', "'('"))
		return -1;
	plist l = {0};
	while (ps->tok != ')') {
		lift_param *prm = lego_arena_alloc(&ps->ctx->arena, sizeof *prm);
		if (!prm || (l.n && expect(ps, ',', "',' or ')'")))
			goto fail;
		int line = ps->tline, col = ps->tcol;
		if (!(prm->name = expect_ident(ps, "a parameter name")))
			goto fail;
		const char *clash = lift_name_reserved(prm->name)
			? "name reserved for the generated code: "
			: !kernel_name_free(ps, &l, prm->name)
			? "name already taken in the kernel: " : NULL;
		if (clash) {
			perr(ps, line, col, clash, prm->name);
			goto fail;
		}
		if (expect(ps, ':', "':'") || !(prm->type = parse_type(ps)) ||
		    plist_push(ps->ctx, &l, prm))
			goto fail;
	}
	p->nparams = l.n;
	lift_param **prms = (lift_param **)plist_take(ps->ctx, &l);
	p->params = lego_arena_alloc(&ps->ctx->arena,
				     (p->nparams ? p->nparams : 1) *
					     sizeof *p->params);
	if (!prms || !p->params)
		return -1;
	for (size_t i = 0; i < p->nparams; i++)
		p->params[i] = *prms[i];
	if (next(ps) || expect(ps, '=', "'='") || !(p->body = parse_expr(ps)))
		return -1;
	return expect(ps, ';', "';'");
fail:
	free(l.v);
	return -1;
}

lift_program *lift_parse(lego_ctx *ctx, const char *file, const char *text,
			 size_t len)
{
	parser ps = {.ctx = ctx, .file = file, .s = text, .end = text + len,
		     .pos = text, .line = 1, .col = 1};
	ps.p = lego_arena_alloc(&ctx->arena, sizeof *ps.p);
	if (!ps.p)
		return NULL;
	ps.p->file = file;
	plist funs = {0};
	if (next(&ps))
		return NULL;
	while (ps.tok != 'E') {
		int rc;
		if (is_word(&ps, "size"))
			rc = parse_sizes(&ps);
		else if (is_word(&ps, "assume"))
			rc = parse_assume(&ps);
		else if (is_word(&ps, "local"))
			rc = parse_local(&ps);
		else if (is_word(&ps, "float") || is_word(&ps, "int"))
			rc = parse_ufun(&ps, &funs);
		else if (is_word(&ps, "kernel"))
			rc = parse_kernel(&ps);
		else
			rc = expect(&ps, 'a', "'size', 'assume', 'local', a "
					      "function or 'kernel'");
		if (rc) {
			free(funs.v);
			return NULL;
		}
	}
	ps.p->nfuns = funs.n;
	lift_ufun **fs = (lift_ufun **)plist_take(ctx, &funs);
	ps.p->funs = lego_arena_alloc(&ctx->arena,
				      (ps.p->nfuns ? ps.p->nfuns : 1) *
					      sizeof *ps.p->funs);
	if (!fs || !ps.p->funs)
		return NULL;
	for (size_t i = 0; i < ps.p->nfuns; i++)
		ps.p->funs[i] = *fs[i];
	if (!ps.p->kernel) {
		perr(&ps, ps.tline, ps.tcol, "no kernel in the program", NULL);
		return NULL;
	}
	return ps.p;
}

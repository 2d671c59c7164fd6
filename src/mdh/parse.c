/* parse.c - the .mdh language (docs/mdh.md): its own recursive descent
 * over the .lego lexer.  C code stays C: every top-level `{ ... }` block
 * (the scalar function, a user operator and its identity) is cut out
 * before lexing, kept verbatim with its position, and left as an empty
 * `{ }` for the parser, so the lexer never sees floats or C operators. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/lex.h"
#include "mdh/mdh.h"

typedef struct block {
	const char *text;          /* braces included */
} block;

typedef struct parser {
	lego_ctx *ctx;
	const char *file;
	lang_tok *t;
	size_t pos, ntoks;
	block *blocks;
	size_t nblocks, next_block;
	mdh_program *p;
	int have_hom;
} parser;

static int fail_at(parser *ps, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(parser *ps, int line, int col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return lego_fail(ps->ctx, LEGO_ERR, "%s:%d:%d: error: %s", ps->file,
			 line, col, msg);
}

static lang_tok *tok(parser *ps)
{
	return &ps->t[ps->pos];
}

static int expected(parser *ps, const char *what)
{
	char buf[64];
	lang_tok *t = tok(ps);
	return fail_at(ps, t->line, t->col, "expected %s, got %s", what,
		       lang_tok_describe(t, buf, sizeof buf));
}

static int accept(parser *ps, lang_tok_kind k)
{
	if (tok(ps)->kind != k)
		return 0;
	ps->pos++;
	return 1;
}

static int expect(parser *ps, lang_tok_kind k, const char *what)
{
	return accept(ps, k) ? 0 : expected(ps, what);
}

static int is_word(parser *ps, const char *w)
{
	return tok(ps)->kind == TOK_IDENT && !strcmp(tok(ps)->text, w);
}

static const char *ident(parser *ps, const char *what)
{
	if (tok(ps)->kind != TOK_IDENT) {
		expected(ps, what);
		return NULL;
	}
	return ps->t[ps->pos++].text;
}

static void *grow(parser *ps, void *v, size_t n, size_t size)
{
	/* arrays grow by copying into the arena: programs are tiny */
	void *w = lego_arena_alloc(&ps->ctx->arena, (n + 1) * size);
	if (w && n)
		memcpy(w, v, n * size);
	if (!w)
		lego_fail(ps->ctx, LEGO_ENOMEM, "out of memory");
	return w;
}

/* ---------------------------------------------------------- C blocks */

/* Cuts the top-level blocks out of text into ps->blocks; returns the
 * text with each block's inside blanked (newlines kept, so positions
 * stay right). */
static char *cut_blocks(parser *ps, const char *text, size_t len)
{
	char *s = lego_arena_alloc(&ps->ctx->arena, len + 1);
	if (!s)
		return lego_fail_null(ps->ctx, "out of memory");
	memcpy(s, text, len);
	int line = 1, col = 1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '#') {            /* a comment of the language */
			while (i + 1 < len && s[i + 1] != '\n')
				i++;
			continue;
		}
		if (s[i] == '\n') {
			line++;
			col = 1;
			continue;
		}
		if (s[i] != '{') {
			col++;
			continue;
		}
		int bline = line, bcol = col, depth = 0;
		size_t j = i;
		char quote = 0;
		for (; j < len; j++) {
			char c = s[j];
			if (quote) {
				if (c == '\\' && j + 1 < len)
					j++;
				else if (c == quote)
					quote = 0;
			} else if (c == '"' || c == '\'') {
				quote = c;
			} else if (c == '/' && j + 1 < len && s[j + 1] == '/') {
				while (j + 1 < len && s[j + 1] != '\n')
					j++;
			} else if (c == '/' && j + 1 < len && s[j + 1] == '*') {
				for (j += 2; j + 1 < len &&
					     !(s[j] == '*' && s[j + 1] == '/');
				     j++)
					;
				j++;
			} else if (c == '{') {
				depth++;
			} else if (c == '}' && --depth == 0) {
				break;
			}
		}
		if (j >= len)
			return fail_at(ps, bline, bcol, "'{' is not closed"),
			       NULL;
		block *b = grow(ps, ps->blocks, ps->nblocks, sizeof *b);
		if (!b)
			return NULL;
		b[ps->nblocks].text = lego_arena_strndup(&ps->ctx->arena,
							 text + i, j + 1 - i);
		ps->blocks = b;
		ps->nblocks++;
		for (size_t k = i + 1; k < j; k++) {
			if (s[k] == '\n') {
				line++;
				col = 1;
			} else {
				s[k] = ' ';
				col++;
			}
		}
		col += 2;
		i = j;
	}
	return s;
}

static const char *take_block(parser *ps, const char *what)
{
	if (tok(ps)->kind != TOK_LBRACE) {
		expected(ps, what);
		return NULL;
	}
	ps->pos += 2;   /* the blanked block lexes as '{' '}' */
	return ps->blocks[ps->next_block++].text;
}

/* ------------------------------------------------------------- names */

static int reserved(const char *n)
{
	/* the generated code's names, and L_x, P_x, O_x, G_x, R_x, M_x,
	 * V_x, W_x, B_x: the parameters */
	return !strncmp(n, "mdh_", 4) || !strncmp(n, "lego_", 5) ||
	       (n[0] && strchr("LPOGRMVWB", n[0]) && n[1] == '_');
}

static int find_size(const mdh_program *p, const char *n)
{
	for (size_t i = 0; i < p->nsizes; i++)
		if (!strcmp(p->sizes[i], n))
			return (int)i;
	return -1;
}

static int find_dim(const mdh_program *p, const char *n)
{
	for (size_t i = 0; i < p->ndims; i++)
		if (!strcmp(p->dims[i].name, n))
			return (int)i;
	return -1;
}

static const mdh_user_op *find_op(const mdh_program *p, const char *n)
{
	for (size_t i = 0; i < p->nops; i++)
		if (!strcmp(p->ops[i].name, n))
			return &p->ops[i];
	return NULL;
}

const mdh_tuple *mdh_tuple_find(const mdh_program *p, const char *type)
{
	for (size_t i = 0; i < p->ntuples; i++)
		if (!strcmp(p->tuples[i].name, type))
			return &p->tuples[i];
	return NULL;
}

static int taken(const mdh_program *p, const char *n)
{
	if (find_size(p, n) >= 0 || find_dim(p, n) >= 0 || find_op(p, n) ||
	    mdh_tuple_find(p, n))
		return 1;
	for (size_t i = 0; i < p->nbufs; i++)
		if (!strcmp(p->bufs[i].name, n))
			return 1;
	return 0;
}

/* A new name at the current token: not reserved, not used. */
static const char *new_name(parser *ps, const char *what)
{
	lang_tok *t = tok(ps);
	const char *n = ident(ps, what);
	if (!n)
		return NULL;
	if (reserved(n))
		return fail_at(ps, t->line, t->col,
			       "the name '%s' is reserved (mdh_*, lego_* and "
			       "L_*, P_*, O_*, G_*, R_*, M_*, V_*, W_*, B_*, the tuning "
			       "parameters)", n),
		       NULL;
	if (taken(ps->p, n))
		return fail_at(ps, t->line, t->col, "'%s' is already declared",
			       n),
		       NULL;
	return n;
}

/* ------------------------------------------------------------- items */

static int parse_sizes(parser *ps)
{
	mdh_program *p = ps->p;
	do {
		const char *n = new_name(ps, "a size name");
		const char **s = n ? grow(ps, p->sizes, p->nsizes, sizeof *s)
				   : NULL;
		if (!s)
			return -1;
		s[p->nsizes++] = n;
		p->sizes = s;
	} while (accept(ps, TOK_COMMA));
	return 0;
}

static int parse_op_name(parser *ps, mdh_dim *d)
{
	lang_tok *t = tok(ps);
	if (accept(ps, TOK_PLUS)) {
		d->op = accept(ps, TOK_PLUS) ? MDH_CONCAT : MDH_ADD;
		return 0;
	}
	if (accept(ps, TOK_STAR)) {
		d->op = MDH_MUL;
		return 0;
	}
	if (t->kind != TOK_IDENT)
		return expected(ps, "a combine operator (++, +, *, max, min or "
				    "an op)");
	ps->pos++;
	if (!strcmp(t->text, "max"))
		d->op = MDH_MAX;
	else if (!strcmp(t->text, "min"))
		d->op = MDH_MIN;
	else if ((d->user = find_op(ps->p, t->text)))
		d->op = MDH_USER;
	else
		return fail_at(ps, t->line, t->col, "unknown combine operator "
			       "'%s' (++, +, *, max, min, or an op declared "
			       "before)", t->text);
	return 0;
}

static const char *size_text(parser *ps)
{
	lang_tok *t = tok(ps);
	if (t->kind == TOK_INT) {
		if (t->value < 1 || t->value > INT32_MAX)
			return fail_at(ps, t->line, t->col, "a dimension's size "
				       "must be in [1, 2^31)"), NULL;
		ps->pos++;
		char buf[32];
		snprintf(buf, sizeof buf, "%lld", (long long)t->value);
		return lego_arena_strdup(&ps->ctx->arena, buf);
	}
	const char *n = ident(ps, "a size (a number or a size name)");
	if (n && find_size(ps->p, n) < 0)
		return fail_at(ps, t->line, t->col, "unknown size '%s' (declare "
			       "it with `size %s`)", n, n), NULL;
	return n;
}

static int parse_hom(parser *ps, lang_tok *at)
{
	mdh_program *p = ps->p;
	if (ps->have_hom)
		return fail_at(ps, at->line, at->col, "a second md_hom (a "
			       "program has one)");
	ps->have_hom = 1;
	if (!(p->name = new_name(ps, "the computation's name")) ||
	    expect(ps, TOK_LPAREN, "'('"))
		return -1;
	do {
		mdh_dim d = {.line = tok(ps)->line, .col = tok(ps)->col};
		if (!(d.name = new_name(ps, "a dimension name")) ||
		    expect(ps, TOK_LT, "'<' and the dimension's size") ||
		    !(d.size = size_text(ps)) ||
		    expect(ps, TOK_COLON, "':' and its combine operator") ||
		    parse_op_name(ps, &d))
			return -1;
		mdh_dim *v = grow(ps, p->dims, p->ndims, sizeof *v);
		if (!v)
			return -1;
		v[p->ndims++] = d;
		p->dims = v;
	} while (accept(ps, TOK_COMMA));
	return expect(ps, TOK_RPAREN, "',' or ')'");
}

/* An affine index: terms joined by + and -, a term a product of
 * integers, sizes and at most one dimension. */
static int parse_index(parser *ps, mdh_index *ix)
{
	int sign = 1;
	if (accept(ps, TOK_MINUS))
		sign = -1;
	for (;;) {
		mdh_term term = {.coef = sign, .dim = -1};
		lang_tok *start = tok(ps);
		do {
			lang_tok *t = tok(ps);
			if (t->kind == TOK_INT) {
				if (t->value > INT32_MAX || term.coef > INT32_MAX ||
				    term.coef < -INT32_MAX)
					return fail_at(ps, t->line, t->col,
						       "coefficient too large");
				term.coef *= t->value;
				ps->pos++;
				continue;
			}
			const char *n = ident(ps, "an index expression (a "
						  "dimension, a size, a number)");
			if (!n)
				return -1;
			int d = find_dim(ps->p, n);
			if (d >= 0 && term.dim >= 0)
				return fail_at(ps, t->line, t->col, "the index "
					       "is not affine: a product of "
					       "two dimensions");
			if (d >= 0) {
				term.dim = d;
				continue;
			}
			if (find_size(ps->p, n) < 0)
				return fail_at(ps, t->line, t->col, "unknown "
					       "name '%s' in an index (a "
					       "dimension or a size)", n);
			const char **s = grow(ps, term.syms, term.nsyms,
					      sizeof *s);
			if (!s)
				return -1;
			s[term.nsyms++] = n;
			term.syms = s;
		} while (accept(ps, TOK_STAR));
		/* indices are never negative: no term may subtract */
		if (term.coef < 0 && (term.nsyms || term.dim >= 0))
			return fail_at(ps, start->line, start->col, "this term "
				       "can make the index negative (only "
				       "constants may be subtracted)");
		mdh_term *v = grow(ps, ix->terms, ix->nterms, sizeof *v);
		if (!v)
			return -1;
		v[ix->nterms++] = term;
		ix->terms = v;
		if (accept(ps, TOK_PLUS))
			sign = 1;
		else if (accept(ps, TOK_MINUS))
			sign = -1;
		else
			break;
	}
	int64_t c = 0;
	for (size_t i = 0; i < ix->nterms; i++)
		if (ix->terms[i].dim < 0 && !ix->terms[i].nsyms)
			c += ix->terms[i].coef;
	if (c < 0)
		return fail_at(ps, ps->t[ps->pos - 1].line,
			       ps->t[ps->pos - 1].col, "the index is negative "
			       "at the origin (constant part %lld)",
			       (long long)c);
	return 0;
}

/* `(i, k) -> (e1, .., er)`; the parameters are the md_hom's dims. */
static int parse_access(parser *ps, mdh_buf *b)
{
	mdh_program *p = ps->p;
	mdh_access a = {.line = tok(ps)->line, .col = tok(ps)->col};
	if (expect(ps, TOK_LPAREN, "'(' and the dimensions"))
		return -1;
	for (size_t k = 0; k < p->ndims; k++) {
		lang_tok *t = tok(ps);
		if (k && expect(ps, TOK_COMMA, "','"))
			return -1;
		t = tok(ps);
		const char *n = ident(ps, "a dimension name");
		if (!n)
			return -1;
		if (strcmp(n, p->dims[k].name))
			return fail_at(ps, t->line, t->col, "expected '%s': an "
				       "index function takes md_hom's "
				       "dimensions in order", p->dims[k].name);
	}
	if (expect(ps, TOK_RPAREN, "')' (md_hom has no more dimensions)") ||
	    expect(ps, TOK_MINUS, "'->'") || expect(ps, TOK_GT, "'->'") ||
	    expect(ps, TOK_LPAREN, "'(' and the buffer's indices"))
		return -1;
	size_t rank = 0;
	if (!accept(ps, TOK_RPAREN)) {
		do {
			mdh_index *v = grow(ps, a.idx, rank, sizeof *v);
			if (!v)
				return -1;
			a.idx = v;
			if (parse_index(ps, &a.idx[rank]))
				return -1;
			rank++;
		} while (accept(ps, TOK_COMMA));
		if (expect(ps, TOK_RPAREN, "',' or ')'"))
			return -1;
	}
	if (b->nacc && rank != b->rank)
		return fail_at(ps, a.line, a.col, "'%s' is indexed with %zu "
			       "entries here and %zu before", b->name, rank,
			       b->rank);
	b->rank = rank;
	mdh_access *v = grow(ps, b->acc, b->nacc, sizeof *v);
	if (!v)
		return -1;
	v[b->nacc++] = a;
	b->acc = v;
	return 0;
}

static int scalar_type(const char *n)
{
	return !strcmp(n, "float") || !strcmp(n, "int");
}

/* float, int, or a tuple when tuples is set */
static const char *type_name(parser *ps, int tuples)
{
	lang_tok *t = tok(ps);
	const char *n = ident(ps, "a type (float or int)");
	if (!n || scalar_type(n))
		return n;
	if (mdh_tuple_find(ps->p, n) && !tuples)
		return fail_at(ps, t->line, t->col, "tuple '%s' for an input "
			       "(tuples are for outputs and operators)", n),
		       NULL;
	if (!mdh_tuple_find(ps->p, n))
		return fail_at(ps, t->line, t->col, "unknown type '%s' (float, "
			       "int or a tuple)", n), NULL;
	return n;
}

static int parse_buf(parser *ps, lang_tok *at, int is_out)
{
	mdh_program *p = ps->p;
	if (!ps->have_hom)
		return fail_at(ps, at->line, at->col, "a buffer before md_hom "
			       "(its index functions take md_hom's "
			       "dimensions)");
	mdh_buf b = {.is_out = is_out, .line = at->line, .col = at->col};
	if (!(b.type = type_name(ps, is_out)) || !(b.name = new_name(ps, "a buffer "
							     "name")) ||
	    expect(ps, TOK_COLON, "':' and its index functions"))
		return -1;
	do {
		if (parse_access(ps, &b))
			return -1;
	} while (accept(ps, TOK_COMMA));
	if (is_out && b.nacc != 1)
		return fail_at(ps, b.acc[1].line, b.acc[1].col, "an output "
			       "buffer has one index function");
	mdh_buf *v = grow(ps, p->bufs, p->nbufs, sizeof *v);
	if (!v)
		return -1;
	v[p->nbufs++] = b;
	p->bufs = v;
	return 0;
}

/* tuple NAME { TYPE FIELD; .. }: the block is cut out as C, so its
 * fields are read here, word by word. */
static int parse_tuple(parser *ps, lang_tok *at)
{
	mdh_program *p = ps->p;
	mdh_tuple tu = {.line = at->line, .col = at->col};
	const char *body;
	if (!(tu.name = new_name(ps, "the tuple's name")) ||
	    !(body = take_block(ps, "'{' and the tuple's fields")))
		return -1;
	size_t cap = 0;
	for (const char *c = body + 1; *c && *c != '}';) {
		char ty[32], nm[64];
		int used = 0;
		while (*c == ' ' || *c == '\t' || *c == '\n')
			c++;
		if (*c == '}')
			break;
		if (sscanf(c, "%31[A-Za-z_0-9] %63[A-Za-z_0-9] ;%n", ty, nm,
			   &used) != 2 || !used || !scalar_type(ty) ||
		    reserved(nm))
			return fail_at(ps, at->line, at->col, "tuple '%s': "
				       "expected fields 'float NAME;' or "
				       "'int NAME;'", tu.name);
		if (tu.nfields == cap) {
			cap = cap ? 2 * cap : 4;
			const char **t = lego_arena_alloc(&ps->ctx->arena,
							  2 * cap * sizeof *t);
			if (!t)
				return lego_fail(ps->ctx, LEGO_ERR,
						 "out of memory");
			for (size_t i = 0; i < tu.nfields; i++) {
				t[i] = tu.ftypes[i];
				t[cap + i] = tu.fnames[i];
			}
			tu.ftypes = t;
			tu.fnames = t + cap;
		}
		tu.ftypes[tu.nfields] = !strcmp(ty, "int") ? "int" : "float";
		tu.fnames[tu.nfields++] = lego_arena_strndup(&ps->ctx->arena,
							     nm, strlen(nm));
		c += used;
	}
	if (!tu.nfields)
		return fail_at(ps, at->line, at->col, "tuple '%s' has no "
			       "fields", tu.name);
	mdh_tuple *v = grow(ps, p->tuples, p->ntuples, sizeof *v);
	if (!v)
		return -1;
	v[p->ntuples++] = tu;
	p->tuples = v;
	return 0;
}

/* op TYPE NAME(a, b) { C } identity { C } */
static int parse_op(parser *ps, lang_tok *at)
{
	mdh_program *p = ps->p;
	mdh_user_op o = {.line = at->line, .col = at->col};
	if (!(o.type = type_name(ps, 1)) || !(o.name = new_name(ps, "the "
							     "operator's name")) ||
	    expect(ps, TOK_LPAREN, "'('") || !(o.a = ident(ps, "a parameter")) ||
	    expect(ps, TOK_COMMA, "','") || !(o.b = ident(ps, "a parameter")) ||
	    expect(ps, TOK_RPAREN, "')'") ||
	    !(o.body = take_block(ps, "'{' and the operator's C body")))
		return -1;
	if (!is_word(ps, "identity"))
		return expected(ps, "'identity { VALUE }'");
	ps->pos++;
	const char *id = take_block(ps, "'{' and the identity, a C value");
	if (!id)
		return -1;
	/* the value between the braces */
	o.identity = lego_arena_strndup(&ps->ctx->arena, id + 1,
					strlen(id) - 2);
	const mdh_tuple *tu = mdh_tuple_find(p, o.type);
	if (tu) {
		/* one value per field: a C initializer, not an expression */
		size_t n = 1;
		int depth = 0;
		for (const char *c = o.identity; *c; c++) {
			depth += (*c == '(' || *c == '{') - (*c == ')' || *c == '}');
			n += *c == ',' && !depth;
		}
		if (n != tu->nfields)
			return fail_at(ps, at->line, at->col, "the identity of "
				       "'%s' has %zu value%s but tuple '%s' has "
				       "%zu fields", o.name, n, n == 1 ? "" : "s",
				       tu->name, tu->nfields);
		o.init = o.identity;
		char *call = lego_arena_alloc(&ps->ctx->arena,
					      strlen(o.name) + 10);
		if (!call)
			return lego_fail(ps->ctx, LEGO_ERR, "out of memory");
		sprintf(call, "mdh_id_%s()", o.name);
		o.identity = call;
	}
	mdh_user_op *v = grow(ps, p->ops, p->nops, sizeof *v);
	if (!v)
		return -1;
	v[p->nops++] = o;
	p->ops = v;
	return 0;
}

/* ------------------------------------------------------------ checks */

int mdh_dim_is_red(const mdh_dim *d)
{
	return d->op != MDH_CONCAT;
}

static int check(parser *ps)
{
	mdh_program *p = ps->p;
	lang_tok *end = &ps->t[ps->ntoks - 1];
	if (!ps->have_hom)
		return fail_at(ps, end->line, end->col, "no md_hom (the "
			       "computation's dimensions)");
	if (!p->scalar)
		return fail_at(ps, end->line, end->col, "no scalar function "
			       "(`scalar { C }`)");
	size_t nout = 0;
	for (size_t i = 0; i < p->nbufs; i++)
		nout += p->bufs[i].is_out;
	if (!nout)
		return fail_at(ps, end->line, end->col, "no output buffer "
			       "(`out TYPE NAME : (..) -> (..)`)");
	p->red = MDH_CONCAT;
	const mdh_dim *first = NULL;
	for (size_t k = 0; k < p->ndims; k++) {
		const mdh_dim *d = &p->dims[k];
		if (!mdh_dim_is_red(d))
			continue;
		/* one accumulator folds every reduction dim, in any order:
		 * right only when they share one operator */
		if (first && (d->op != first->op || d->user != first->user))
			return fail_at(ps, d->line, d->col, "dimension '%s' "
				       "combines with another operator than "
				       "'%s' (one reduction operator per "
				       "program is supported so far)",
				       d->name, first->name);
		first = d;
		p->red = d->op;
		p->red_user = d->user;
	}
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *b = &p->bufs[i];
		if (!b->is_out)
			continue;
		if (p->red_user && strcmp(p->red_user->type, b->type))
			return fail_at(ps, b->line, b->col, "output '%s' is %s "
				       "but operator '%s' combines %s", b->name,
				       b->type, p->red_user->name,
				       p->red_user->type);
		if (mdh_tuple_find(p, b->type) && !p->red_user &&
		    p->red != MDH_CONCAT)
			return fail_at(ps, b->line, b->col, "output '%s' is a "
				       "tuple: it combines only with an `op` "
				       "over it", b->name);
		int used[64] = {0};
		const mdh_access *a = &b->acc[0];
		for (size_t e = 0; e < b->rank; e++)
			for (size_t t = 0; t < a->idx[e].nterms; t++) {
				int d = a->idx[e].terms[t].dim;
				if (d < 0)
					continue;
				used[d] = 1;
				if (mdh_dim_is_red(&p->dims[d]))
					return fail_at(ps, a->line, a->col,
						       "the output index uses "
						       "'%s', a dimension that "
						       "is reduced (only ++ "
						       "dimensions index an "
						       "output)",
						       p->dims[d].name);
			}
		for (size_t k = 0; k < p->ndims; k++)
			if (!mdh_dim_is_red(&p->dims[k]) && !used[k])
				return fail_at(ps, a->line, a->col, "the output "
					       "index does not use '%s', a ++ "
					       "dimension: its elements would "
					       "overwrite each other",
					       p->dims[k].name);
	}
	return 0;
}

/* ------------------------------------------------------------ program */

mdh_program *mdh_parse(lego_ctx *ctx, const char *file, const char *text,
		       size_t len)
{
	if (lego_check_input_size(ctx, file, len))
		return NULL;
	parser ps = {.ctx = ctx, .file = file};
	ps.p = lego_arena_alloc(&ctx->arena, sizeof *ps.p);
	if (!ps.p)
		return lego_fail_null(ctx, "out of memory");
	ps.p->file = file;
	char *s = cut_blocks(&ps, text, len);
	if (!s || !(ps.t = lang_lex(ctx, file, s, len, &ps.ntoks)))
		return NULL;
	while (tok(&ps)->kind != TOK_EOF) {
		lang_tok *at = tok(&ps);
		if (accept(&ps, TOK_SEMI))
			continue;
		const char *kw = at->kind == TOK_IDENT ? at->text : "";
		int rc;
		ps.pos++;
		if (!strcmp(kw, "size")) {
			rc = parse_sizes(&ps);
		} else if (!strcmp(kw, "md_hom")) {
			rc = parse_hom(&ps, at);
		} else if (!strcmp(kw, "in") || !strcmp(kw, "out")) {
			rc = parse_buf(&ps, at, kw[0] == 'o');
		} else if (!strcmp(kw, "op")) {
			rc = parse_op(&ps, at);
		} else if (!strcmp(kw, "tuple")) {
			rc = parse_tuple(&ps, at);
		} else if (!strcmp(kw, "scalar")) {
			if (ps.p->scalar)
				return fail_at(&ps, at->line, at->col, "a "
					       "second scalar function"), NULL;
			ps.p->scalar = take_block(&ps, "'{' and the scalar "
						       "function's C body");
			rc = ps.p->scalar ? 0 : -1;
		} else {
			ps.pos--;
			rc = expected(&ps, "size, md_hom, in, out, tuple, op or "
				      "scalar");
		}
		if (rc)
			return NULL;
	}
	if (ps.p->ndims > 64)
		return fail_at(&ps, ps.p->dims[64].line, ps.p->dims[64].col,
			       "more than 64 dimensions"), NULL;
	return check(&ps) ? NULL : ps.p;
}

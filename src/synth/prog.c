/* prog.c - the tile-program language (docs/synthesis.md), one statement a
 * line, over the .lego lexer:
 *
 *   kernel NAME
 *   block [BM, BN, BK]          warps [WM, WN]          stages S
 *   global NAME : TYPE [SYM, SYM]
 *   shared NAME : TYPE [ROWS, COLS] = copy(GLOBAL, BYTES)
 *   reg NAME [: TYPE] = load(SHARED) | mma(m16n8k16, A, B) | cast(REG)
 *   store(GLOBAL, REG)
 *
 * Only names and shapes are checked here; layouts are infer.c's. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lang/lex.h"
#include "synth/prog.h"

typedef struct parser {
	lego_ctx *ctx;
	synth_prog *p;
	lang_tok *t;
	size_t pos;
} parser;

static int fail_at(parser *ps, const lang_tok *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(parser *ps, const lang_tok *t, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return lego_fail(ps->ctx, LEGO_ERR, "%s:%d:%d: error: %s", ps->p->file,
			 t->line, t->col, msg);
}

static lang_tok *tok(parser *ps)
{
	return &ps->t[ps->pos];
}

static int expected(parser *ps, const char *what)
{
	char buf[64];
	return fail_at(ps, tok(ps), "expected %s, got %s", what,
		       lang_tok_describe(tok(ps), buf, sizeof buf));
}

static int expect(parser *ps, lang_tok_kind k, const char *what)
{
	if (tok(ps)->kind != k)
		return expected(ps, what);
	ps->pos++;
	return 0;
}

static const char *ident(parser *ps, const char *what)
{
	if (tok(ps)->kind != TOK_IDENT)
		return expected(ps, what), NULL;
	return ps->t[ps->pos++].text;
}

static int number(parser *ps, int64_t *v)
{
	if (tok(ps)->kind != TOK_INT || tok(ps)->value < 1 ||
	    tok(ps)->value > 1 << 20)
		return expected(ps, "a size from 1 to 2^20");
	*v = ps->t[ps->pos++].value;
	return 0;
}

/* [N, N, ...] of n numbers */
static int numbers(parser *ps, int64_t *v, int n)
{
	if (expect(ps, TOK_LBRACKET, "'['"))
		return -1;
	for (int k = 0; k < n; k++)
		if ((k && expect(ps, TOK_COMMA, "','")) || number(ps, &v[k]))
			return -1;
	return expect(ps, TOK_RBRACKET, "']'");
}

/* The tensor named by the next token, of the kind wanted. */
static int tensor_ref(parser *ps, prog_kind kind, const char *what)
{
	lang_tok *at = tok(ps);
	const char *name = ident(ps, what);
	if (!name)
		return -1;
	for (size_t k = 0; k < ps->p->n; k++)
		if (!strcmp(ps->p->t[k].name, name)) {
			if (ps->p->t[k].kind == kind)
				return (int)k;
			return fail_at(ps, at, "'%s' is not %s", name, what);
		}
	return fail_at(ps, at, "no tensor named '%s' before this line", name);
}

static int type_of(parser *ps, prog_tensor *x)
{
	lang_tok *at = tok(ps);
	if (!(x->type = ident(ps, "a type (f16, bf16, f32)")))
		return -1;
	x->elem = synth_type_bytes(x->type);
	if (strcmp(x->type, "f16") && strcmp(x->type, "bf16") &&
	    strcmp(x->type, "f32"))
		return fail_at(ps, at, "type '%s': a tile program moves f16, "
			       "bf16 or f32", x->type);
	return 0;
}

static prog_tensor *declare(parser *ps, prog_kind kind)
{
	lang_tok *at = tok(ps);
	const char *name = ident(ps, "a tensor name");
	if (!name)
		return NULL;
	for (size_t k = 0; k < ps->p->n; k++)
		if (!strcmp(ps->p->t[k].name, name))
			return fail_at(ps, at, "'%s' is declared twice (first "
				       "at %d:%d)", name, ps->p->t[k].line,
				       ps->p->t[k].col), NULL;
	if (ps->p->n == PROG_MAX_TENSORS)
		return fail_at(ps, at, "more than %d tensors",
			       PROG_MAX_TENSORS), NULL;
	prog_tensor *x = &ps->p->t[ps->p->n++];
	*x = (prog_tensor){.name = name, .line = at->line, .col = at->col,
			   .kind = kind, .src = -1};
	return x;
}

/* global NAME : TYPE [SYM, SYM] */
static int global_decl(parser *ps)
{
	prog_tensor *x = declare(ps, PT_GLOBAL);
	if (!x || expect(ps, TOK_COLON, "':'") || type_of(ps, x) ||
	    expect(ps, TOK_LBRACKET, "'['") ||
	    !(x->dim[0] = ident(ps, "a size name")) ||
	    expect(ps, TOK_COMMA, "','") ||
	    !(x->dim[1] = ident(ps, "a size name")))
		return -1;
	return expect(ps, TOK_RBRACKET, "']'");
}

/* OP( ... ) of a shared or reg declaration, after '=' */
static int producer(parser *ps, prog_tensor *x)
{
	lang_tok *at = tok(ps);
	const char *op = ident(ps, x->kind == PT_SHARED ? "copy"
				: "load, mma or cast");
	if (!op || expect(ps, TOK_LPAREN, "'('"))
		return -1;
	x->op_line = at->line;
	x->op_col = at->col;
	if (x->kind == PT_SHARED) {
		if (strcmp(op, "copy"))
			return fail_at(ps, at, "a shared tile is made by "
				       "copy(GLOBAL, BYTES), not '%s'", op);
		x->op = OP_COPY;
		if ((x->src = tensor_ref(ps, PT_GLOBAL, "a global tensor")) < 0 ||
		    expect(ps, TOK_COMMA, "','") || number(ps, &x->bytes))
			return -1;
	} else if (!strcmp(op, "load")) {
		x->op = OP_LOAD;
		if ((x->src = tensor_ref(ps, PT_SHARED, "a shared tile")) < 0)
			return -1;
	} else if (!strcmp(op, "cast")) {
		x->op = OP_CAST;
		if ((x->src = tensor_ref(ps, PT_REG, "a register tile")) < 0)
			return -1;
	} else if (!strcmp(op, "mma")) {
		lang_tok *shape = tok(ps);
		const char *s = ident(ps, "m16n8k16");
		if (!s)
			return -1;
		if (strcmp(s, "m16n8k16"))
			return fail_at(ps, shape, "mma shape '%s': tile programs "
				       "use m16n8k16", s);
		if (ps->p->mma >= 0)
			return fail_at(ps, at, "a second mma (the first at "
				       "%d:%d): a tile program has one",
				       ps->p->t[ps->p->mma].op_line,
				       ps->p->t[ps->p->mma].op_col);
		x->op = OP_MMA;
		ps->p->mma = (int)(x - ps->p->t);
		int a, b;
		if (expect(ps, TOK_COMMA, "','") ||
		    (a = tensor_ref(ps, PT_REG, "a register tile")) < 0 ||
		    expect(ps, TOK_COMMA, "','") ||
		    (b = tensor_ref(ps, PT_REG, "a register tile")) < 0)
			return -1;
		x->src = a;
		x->src2 = b;
	} else {
		return fail_at(ps, at, "a register tile is made by load, mma "
			       "or cast, not '%s'", op);
	}
	return expect(ps, TOK_RPAREN, "')'");
}

/* shared NAME : TYPE [R, C] = copy(..) ; reg NAME [: TYPE] = OP(..) */
static int tile_decl(parser *ps, prog_kind kind)
{
	prog_tensor *x = declare(ps, kind);
	if (!x)
		return -1;
	if (tok(ps)->kind == TOK_COLON || kind == PT_SHARED) {
		int64_t rc[2];
		if (expect(ps, TOK_COLON, "':'") || type_of(ps, x))
			return -1;
		if (kind == PT_SHARED) {
			if (numbers(ps, rc, 2))
				return -1;
			x->rows = rc[0];
			x->cols = rc[1];
		}
	}
	return expect(ps, TOK_ASSIGN, "'='") || producer(ps, x);
}

static int store_stmt(parser *ps)
{
	lang_tok *at = &ps->t[ps->pos - 1];
	if (ps->p->store >= 0)
		return fail_at(ps, at, "a second store (the first at %d:%d)",
			       ps->p->store_line, ps->p->store_col);
	ps->p->store_line = at->line;
	ps->p->store_col = at->col;
	if (expect(ps, TOK_LPAREN, "'('") ||
	    (ps->p->store = tensor_ref(ps, PT_GLOBAL, "a global tensor")) < 0 ||
	    expect(ps, TOK_COMMA, "','") ||
	    (ps->p->store_src = tensor_ref(ps, PT_REG, "a register tile")) < 0)
		return -1;
	return expect(ps, TOK_RPAREN, "')'");
}

static int statement(parser *ps)
{
	lang_tok *at = tok(ps);
	const char *w = ident(ps, "a statement (kernel, block, warps, "
			      "stages, global, shared, reg, store)");
	synth_prog *p = ps->p;
	if (!w)
		return -1;
	if (!strcmp(w, "kernel"))
		return !(p->kernel = ident(ps, "the kernel's name"));
	static const char *const sizes[] = {"block", "warps", "stages"};
	for (int k = 0; k < 3; k++)
		if (!strcmp(w, sizes[k])) {
			p->at[k][0] = at->line;
			p->at[k][1] = at->col;
		}
	if (!strcmp(w, "block"))
		return numbers(ps, p->block, 3);
	if (!strcmp(w, "warps"))
		return numbers(ps, p->warps, 2);
	if (!strcmp(w, "stages"))
		return number(ps, &p->stages);
	if (!strcmp(w, "global"))
		return global_decl(ps);
	if (!strcmp(w, "shared"))
		return tile_decl(ps, PT_SHARED);
	if (!strcmp(w, "reg"))
		return tile_decl(ps, PT_REG);
	if (!strcmp(w, "store"))
		return store_stmt(ps);
	return fail_at(ps, at, "unknown statement '%s'", w);
}

synth_prog *synth_prog_parse(lego_ctx *ctx, const char *file,
			     const char *text, size_t len)
{
	if (!ctx)
		return NULL;
	size_t ntoks;
	synth_prog *p = lego_xalloc(ctx, sizeof *p);
	parser ps = {ctx, p, NULL, 0};
	if (!p || !(ps.t = lang_lex(ctx, file, text, len, &ntoks)))
		return NULL;
	p->file = lego_arena_strdup(&ctx->arena, file);
	p->mma = p->store = -1;
	p->stages = 2;
	while (tok(&ps)->kind != TOK_EOF) {
		if (statement(&ps))
			return NULL;
		if (tok(&ps)->kind != TOK_EOF && !tok(&ps)->line_start)
			return expected(&ps, "the end of the line"), NULL;
	}
	lang_tok *end = tok(&ps);
	if (!p->kernel || !p->block[0] || !p->warps[0] || p->mma < 0 ||
	    p->store < 0)
		return fail_at(&ps, end, "a tile program needs kernel, block, "
			       "warps, one mma and one store"), NULL;
	return p;
}

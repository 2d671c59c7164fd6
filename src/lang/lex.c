/* lex.c - the .lego tokenizer: positions, operators, checked literals. */
#include <stdio.h>
#include <string.h>

#include "lang/lex.h"

typedef struct lexer {
	lego_ctx *ctx;
	const char *filename;
	const char *s;
	size_t len, pos;
	int line, col;
	int new_line;       /* no token yet on the current line */
	lang_tok *toks;
	size_t n, cap;
} lexer;

typedef struct punct {
	const char *text;
	lang_tok_kind kind;
} punct;

/* Longest first, so that "<=" wins over "<". */
static const punct puncts[] = {
	{"||", TOK_OROR}, {"&&", TOK_ANDAND}, {"==", TOK_EQ}, {"!=", TOK_NE},
	{"<=", TOK_LE},   {">=", TOK_GE},     {"<<", TOK_SHL}, {">>", TOK_SHR},
	{"(", TOK_LPAREN}, {")", TOK_RPAREN}, {"[", TOK_LBRACKET},
	{"]", TOK_RBRACKET}, {",", TOK_COMMA}, {";", TOK_SEMI}, {".", TOK_DOT},
	{"=", TOK_ASSIGN}, {"?", TOK_QUESTION}, {":", TOK_COLON},
	{"|", TOK_BOR},   {"^", TOK_BXOR},    {"&", TOK_BAND}, {"<", TOK_LT},
	{">", TOK_GT},    {"+", TOK_PLUS},    {"-", TOK_MINUS}, {"*", TOK_STAR},
	{"/", TOK_SLASH}, {"%", TOK_PERCENT}, {"!", TOK_BANG},
	{"{", TOK_LBRACE}, {"}", TOK_RBRACE},
};

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int lex_error(lexer *lx, const char *what)
{
	lego_fail(lx->ctx, LEGO_ERR, "%s:%d:%d: error: %s", lx->filename,
		  lx->line, lx->col, what);
	return -1;
}

static lang_tok *push(lexer *lx, lang_tok_kind kind, size_t width)
{
	if (lx->n == lx->cap) {
		size_t cap = lx->cap ? 2 * lx->cap : 64;
		lang_tok *grown = lego_xalloc(lx->ctx, cap * sizeof *grown);
		if (!grown)
			return NULL;
		if (lx->n)
			memcpy(grown, lx->toks, lx->n * sizeof *grown);
		lx->toks = grown;
		lx->cap = cap;
	}
	lang_tok *t = &lx->toks[lx->n++];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->line = lx->line;
	t->col = lx->col;
	t->line_start = lx->new_line;
	lx->new_line = 0;
	lx->pos += width;
	lx->col += (int)width;
	return t;
}

static int digit_value(int c, int base)
{
	int v = is_digit(c)             ? c - '0'
		: (c >= 'a' && c <= 'f') ? c - 'a' + 10
		: (c >= 'A' && c <= 'F') ? c - 'A' + 10
					 : 99;
	return v < base ? v : -1;
}

/* Decimal or 0x hexadecimal, checked against INT64_MAX. */
static int lex_int(lexer *lx)
{
	const char *s = lx->s;
	size_t i = lx->pos;
	int base = 10;
	if (s[i] == '0' && i + 1 < lx->len && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	size_t first = i;
	int64_t v = 0;
	int overflow = 0;
	for (; i < lx->len && digit_value(s[i], base) >= 0; i++) {
		int d = digit_value(s[i], base);
		if (v > (INT64_MAX - d) / base)
			overflow = 1;
		else
			v = v * base + d;
	}
	if (i == first || (i < lx->len && (is_ident_start(s[i]) || is_digit(s[i]))))
		return lex_error(lx, "malformed integer literal");
	if (overflow)
		return lex_error(lx, "integer literal does not fit in 64 bits");
	lang_tok *t = push(lx, TOK_INT, i - lx->pos);
	if (!t)
		return -1;
	t->value = v;
	return 0;
}

static int lex_ident(lexer *lx)
{
	size_t end = lx->pos;
	while (end < lx->len && (is_ident_start(lx->s[end]) || is_digit(lx->s[end])))
		end++;
	char *text = lego_arena_strndup(&lx->ctx->arena, lx->s + lx->pos,
					end - lx->pos);
	lang_tok *t = text ? push(lx, TOK_IDENT, end - lx->pos) : NULL;
	if (!t)
		return lego_fail(lx->ctx, LEGO_ENOMEM, "out of memory");
	t->text = text;
	return 0;
}

static int lex_punct(lexer *lx)
{
	for (size_t k = 0; k < sizeof puncts / sizeof puncts[0]; k++) {
		size_t w = strlen(puncts[k].text);
		if (lx->len - lx->pos >= w &&
		    !memcmp(lx->s + lx->pos, puncts[k].text, w))
			return push(lx, puncts[k].kind, w) ? 0 : -1;
	}
	unsigned char c = (unsigned char)lx->s[lx->pos];
	char msg[64];
	if (c >= 0x21 && c < 0x7f)
		snprintf(msg, sizeof msg, "unexpected character '%c'", c);
	else
		snprintf(msg, sizeof msg, "unexpected byte 0x%02x", c);
	return lex_error(lx, msg);
}

/* Skips blanks and comments; newlines only update the position. */
static void skip_space(lexer *lx)
{
	while (lx->pos < lx->len) {
		char c = lx->s[lx->pos];
		if (c == '\n') {
			lx->line++;
			lx->col = 1;
			lx->new_line = 1;
		} else if (c == '#') {
			while (lx->pos + 1 < lx->len && lx->s[lx->pos + 1] != '\n')
				lx->pos++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			lx->col++;
		} else {
			return;
		}
		lx->pos++;
	}
}

lang_tok *lang_lex(lego_ctx *ctx, const char *filename, const char *text,
		   size_t len, size_t *ntoks)
{
	return lang_lex_at(ctx, filename, text, len, 1, 1, ntoks);
}

lang_tok *lang_lex_at(lego_ctx *ctx, const char *filename, const char *text,
		      size_t len, int line, int col, size_t *ntoks)
{
	lexer lx = {.ctx = ctx, .filename = filename, .s = text, .len = len,
		    .line = line, .col = col, .new_line = 1};
	for (;;) {
		skip_space(&lx);
		if (lx.pos == lx.len)
			break;
		int c = (unsigned char)text[lx.pos];
		int rc = is_digit(c)        ? lex_int(&lx)
			 : is_ident_start(c) ? lex_ident(&lx)
					     : lex_punct(&lx);
		if (rc)
			return NULL;
	}
	lx.new_line = 1;
	if (!push(&lx, TOK_EOF, 0))
		return NULL;
	*ntoks = lx.n;
	return lx.toks;
}

const char *lang_tok_describe(const lang_tok *t, char *buf, size_t cap)
{
	switch (t->kind) {
	case TOK_EOF:
		return "end of input";
	case TOK_INT:
		snprintf(buf, cap, "'%lld'", (long long)t->value);
		return buf;
	case TOK_IDENT:
		snprintf(buf, cap, "'%.40s'", t->text);
		return buf;
	default:
		break;
	}
	for (size_t k = 0; k < sizeof puncts / sizeof puncts[0]; k++)
		if (puncts[k].kind == t->kind) {
			snprintf(buf, cap, "'%s'", puncts[k].text);
			return buf;
		}
	return "?";
}

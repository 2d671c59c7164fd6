/* lex.h - tokens of the .lego language, with their positions (internal). */
#ifndef LEGO_LANG_LEX_H
#define LEGO_LANG_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef enum lang_tok_kind {
	TOK_EOF,
	TOK_INT,
	TOK_IDENT,
	TOK_LPAREN, TOK_RPAREN, TOK_LBRACKET, TOK_RBRACKET,
	TOK_COMMA, TOK_SEMI, TOK_DOT, TOK_ASSIGN, TOK_QUESTION, TOK_COLON,
	TOK_OROR, TOK_ANDAND, TOK_BOR, TOK_BXOR, TOK_BAND,
	TOK_EQ, TOK_NE, TOK_LT, TOK_LE, TOK_GT, TOK_GE, TOK_SHL, TOK_SHR,
	TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH, TOK_PERCENT, TOK_BANG,
	TOK_LBRACE, TOK_RBRACE
} lang_tok_kind;

typedef struct lang_tok {
	lang_tok_kind kind;
	int line, col;       /* 1-based */
	int line_start;      /* first token of its line */
	int64_t value;       /* TOK_INT */
	const char *text;    /* TOK_IDENT: NUL-terminated, in the arena */
} lang_tok;

/*
 * Splits text into tokens, ending with TOK_EOF.  On a lexical error
 * (a stray character, an integer literal that overflows) it reports
 * "file:line:col: error: ..." through ctx and returns NULL.
 */
lang_tok *lang_lex(lego_ctx *ctx, const char *filename, const char *text,
		   size_t len, size_t *ntoks);

/* The same for text that starts at line:col of filename (a placeholder
 * of a template), so that positions point into that file. */
lang_tok *lang_lex_at(lego_ctx *ctx, const char *filename, const char *text,
		      size_t len, int line, int col, size_t *ntoks);

/* How a token is written, for messages ("'('", "end of input"). */
const char *lang_tok_describe(const lang_tok *t, char *buf, size_t cap);

#endif

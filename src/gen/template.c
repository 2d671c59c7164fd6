/* template.c - lego_gen: expand the {{ ... }} placeholders of a template,
 * line by line, through the emitter of the target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "expr/sbuf.h"
#include "gen/emit.h"
#include "gen/template.h"

#define OPEN "{{"
#define CLOSE "}}"
#define ESCAPE '\\'   /* \{{ and \}} are a literal {{ and }} */
#define BLOCK_START "{% lego %}"
#define BLOCK_END "{% end %}"

typedef struct tmpl {
	lego_ctx *ctx;
	const char *filename;
	const char *text;
	size_t len;
	size_t block_begin, block_end; /* byte range of the spec block lines */
	int block_line;                /* line of the block's first spec line */
	lego_spec *spec;
	lego_target target;
	const char *prefix;            /* of the temporaries */
	gen_slices slices;
	lego_sbuf out;
	FILE *warnings;
} tmpl;

/* One placeholder of the current line. */
typedef struct place {
	size_t open, close;            /* offsets of "{{" and after "}}" */
	int col;                       /* column of "{{" */
	lego_expr *e;
} place;

static int parse_target(lego_ctx *ctx, const char *name, lego_target *t)
{
	static const char *const names[] = {"c", "cuda", "opencl", "triton",
					    "mlir"};
	static const lego_target targets[] = {
		LEGO_TARGET_C, LEGO_TARGET_CUDA, LEGO_TARGET_OPENCL,
		LEGO_TARGET_TRITON, LEGO_TARGET_MLIR};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (name && !strcmp(name, names[i])) {
			*t = targets[i];
			return LEGO_OK;
		}
	return lego_fail(ctx, LEGO_ERR, "unknown target '%s' (c, cuda, opencl, "
			 "triton or mlir)", name ? name : "");
}

/* Where line starting at s (of at most n bytes) contains what, or NULL. */
static const char *line_find(const char *s, size_t n, const char *what)
{
	size_t w = strlen(what);
	for (size_t i = 0; i + w <= n && s[i] != '\n'; i++)
		if (!memcmp(s + i, what, w))
			return s + i;
	return NULL;
}

static size_t line_end(const tmpl *t, size_t pos)
{
	const char *nl = memchr(t->text + pos, '\n', t->len - pos);
	return nl ? (size_t)(nl - t->text) + 1 : t->len;
}

/* The {% lego %} ... {% end %} block, if any. */
static int find_block(tmpl *t)
{
	int line = 1, start_line = 0;
	size_t begin = 0;
	for (size_t pos = 0; pos < t->len; line++) {
		size_t end = line_end(t, pos);
		const char *s = t->text + pos;
		if (!start_line && line_find(s, end - pos, BLOCK_START)) {
			start_line = line;
			begin = pos;
			t->block_line = line + 1;
		} else if (start_line && line_find(s, end - pos, BLOCK_END)) {
			t->block_begin = begin;
			t->block_end = end;
			return LEGO_OK;
		}
		pos = end;
	}
	if (start_line)
		return lego_fail(t->ctx, LEGO_ERR, "%s:%d:1: error: %s without "
				 "%s", t->filename, start_line, BLOCK_START,
				 BLOCK_END);
	return LEGO_OK;
}

/* The spec of the block, parsed with its lines where they are in the
 * template, so that messages point into it. */
static lego_spec *block_spec(tmpl *t, const lego_gen_opts *opts)
{
	size_t first = line_end(t, t->block_begin);
	size_t last = t->block_end; /* back to the start of the end line */
	if (last > first && t->text[last - 1] == '\n')
		last--;
	while (last > first && t->text[last - 1] != '\n')
		last--;
	lego_sbuf b = {0};
	for (int i = 1; i < t->block_line; i++)
		lego_sbuf_puts(&b, "\n");
	lego_sbuf_printf(&b, "%.*s", (int)(last > first ? last - first : 0),
			 t->text + first);
	char *text = lego_sbuf_take(&b);
	if (!text)
		return lego_fail_null(t->ctx, "out of memory");
	lego_spec *spec = lego_spec_parse(t->ctx, t->filename, text,
					  strlen(text), opts->defs, opts->ndefs);
	free(text);
	return spec;
}

static int load_spec(tmpl *t, const lego_gen_opts *opts)
{
	int has_block = t->block_end > 0;
	if (opts->spec_path && has_block)
		return lego_fail(t->ctx, LEGO_ERR, "%s:%d:1: error: the spec is "
				 "given twice (%s and this block)", t->filename,
				 t->block_line - 1, opts->spec_path);
	if (!opts->spec_path && !has_block)
		return lego_fail(t->ctx, LEGO_ERR, "%s: error: no spec: give a "
				 "SPEC file or a %s ... %s block", t->filename,
				 BLOCK_START, BLOCK_END);
	t->spec = opts->spec_path ? lego_spec_load(t->ctx, opts->spec_path,
						   opts->defs, opts->ndefs)
				  : block_spec(t, opts);
	return t->spec ? LEGO_OK : LEGO_ERR;
}

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static size_t skip_digits(const tmpl *t, size_t j)
{
	while (j < t->len && t->text[j] >= '0' && t->text[j] <= '9')
		j++;
	return j;
}

/* Whether the template has a word prefix<digits>_<digits>, the form of
 * the temporaries. */
static int uses_prefix(const tmpl *t, const char *prefix)
{
	size_t w = strlen(prefix);
	for (size_t i = 0; i + w < t->len; i++) {
		if ((i && is_word(t->text[i - 1])) ||
		    memcmp(t->text + i, prefix, w))
			continue;
		size_t j = skip_digits(t, i + w);
		if (j == i + w || j >= t->len || t->text[j] != '_')
			continue;
		size_t k = skip_digits(t, j + 1);
		if (k > j + 1 && (k == t->len || !is_word(t->text[k])))
			return 1;
	}
	return 0;
}

/* Temporaries t<line>_0, t<line>_1, ... unless the template uses such
 * names. */
static const char *choose_prefix(const tmpl *t)
{
	static const char *const prefixes[] = {"t", "tmp", "lego_t"};
	for (size_t i = 0; i < 2; i++)
		if (!uses_prefix(t, prefixes[i]))
			return prefixes[i];
	return prefixes[2];
}

/* Prefixes the context's message with the position. */
static int error_at(tmpl *t, int line, int col)
{
	char msg[sizeof t->ctx->error];
	strcpy(msg, lego_ctx_error(t->ctx));
	return lego_fail(t->ctx, LEGO_ERR, "%s:%d:%d: error: %s", t->filename,
			 line, col, msg);
}

/* Finds and parses the placeholders of the line [pos, end). */
static int read_places(tmpl *t, size_t pos, size_t end, int line,
		       place **out, size_t *n)
{
	size_t cap = 0;
	*n = 0;
	*out = NULL;
	for (size_t i = pos;;) {
		const char *o = line_find(t->text + i, end - i, OPEN);
		if (!o)
			return LEGO_OK;
		size_t open = (size_t)(o - t->text);
		if (open > pos && t->text[open - 1] == ESCAPE) {
			i = open + 2;
			continue;
		}
		int col = (int)(open - pos) + 1;
		const char *c = line_find(o + 2, end - open - 2, CLOSE);
		if (!c)
			return lego_fail(t->ctx, LEGO_ERR, "%s:%d:%d: error: "
					 "unterminated placeholder (no '}}' on "
					 "its line)", t->filename, line, col);
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			place *grown = lego_xalloc(t->ctx, cap * sizeof *grown);
			if (!grown)
				return LEGO_ENOMEM;
			if (*n)
				memcpy(grown, *out, *n * sizeof *grown);
			*out = grown;
		}
		place *p = &(*out)[(*n)++];
		p->open = open;
		p->close = (size_t)(c - t->text) + 2;
		p->col = col;
		p->e = gen_placeholder_parse(t->spec, t->filename, line, col + 2,
					     o + 2, (size_t)(c - o) - 2,
					     &t->slices);
		if (!p->e || !(p->e = lego_simplify(t->ctx, p->e)))
			return LEGO_ERR;
		i = p->close;
	}
}

/* Every slice so far: a line may reuse the variable of an earlier one. */
static lego_emit_range *all_ranges(tmpl *t)
{
	size_t n = t->slices.n;
	lego_emit_range *r = lego_xalloc(t->ctx, (n + 1) * sizeof *r);
	for (size_t i = 0; r && i < n; i++) {
		const gen_slice *s = &t->slices.items[i];
		r[i] = (lego_emit_range){s->sym, s->name, s->start, s->stop,
					 s->axis, s->naxes};
	}
	return r;
}

/* Emits the placeholders of one line; on failure finds the placeholder
 * the target cannot print, for the message. */
static int emit_line(tmpl *t, lego_emit_request *req, const place *ps,
		     int line, lego_emitted *em)
{
	if (lego_emit(t->ctx, req, em) == LEGO_OK)
		return LEGO_OK;
	lego_emit_request one = *req;
	one.n = 1;
	for (size_t i = 0; i < req->n; i++) {
		lego_emitted tmp;
		one.exprs = &req->exprs[i];
		if (lego_emit(t->ctx, &one, &tmp) != LEGO_OK)
			return error_at(t, line, ps[i].col);
		lego_emitted_free(&tmp);
	}
	return error_at(t, line, ps[0].col);
}

/* Copies the text [from, to) of the line starting at pos, outside the
 * placeholders: an escaped \{{ or \}} loses its backslash, and a bare }}
 * (a placeholder opened with one brace, or a literal }} that needs the
 * escape) is warned about. */
static void put_text(tmpl *t, size_t pos, size_t from, size_t to, int line)
{
	const char *s = t->text;
	size_t k = from, run = from;
	while (k < to) {
		int esc = s[k] == ESCAPE && k + 2 < to &&
			  (!memcmp(s + k + 1, OPEN, 2) ||
			   !memcmp(s + k + 1, CLOSE, 2));
		if (esc) {
			lego_sbuf_printf(&t->out, "%.*s", (int)(k - run),
					 s + run);
			run = k + 1;
			k += 3;
		} else if (k + 1 < to && !memcmp(s + k, CLOSE, 2)) {
			if (t->warnings)
				fprintf(t->warnings, "%s:%d:%d: warning: '}}' "
					"closes no placeholder (a literal '}}' "
					"is written '\\}}')\n", t->filename,
					line, (int)(k - pos) + 1);
			k += 2;
		} else {
			k++;
		}
	}
	lego_sbuf_printf(&t->out, "%.*s", (int)(to - run), s + run);
}

static int expand_line(tmpl *t, size_t pos, size_t end, int line)
{
	place *ps;
	size_t n;
	int rc = read_places(t, pos, end, line, &ps, &n);
	if (rc != LEGO_OK)
		return rc;
	if (n == 0) {
		put_text(t, pos, pos, end, line);
		return LEGO_OK;
	}
	size_t ind = pos;
	while (ind < end && (t->text[ind] == ' ' || t->text[ind] == '\t'))
		ind++;
	char *indent = lego_arena_strndup(&t->ctx->arena, t->text + pos,
					  ind - pos);
	lego_expr **es = lego_xalloc(t->ctx, n * sizeof *es);
	lego_emit_range *ranges = all_ranges(t);
	if (!indent || !es || !ranges)
		return LEGO_ENOMEM;
	for (size_t i = 0; i < n; i++)
		es[i] = ps[i].e;
	/* Temporaries are named per line (t12_0, t12_1, ...): two lines of
	 * one C block or MLIR region must not define the same name. */
	char prefix[64];
	snprintf(prefix, sizeof prefix, "%s%d_", t->prefix, line);
	lego_emit_request req = {t->target, n, es, prefix, indent,
				 t->slices.n, ranges};
	lego_emitted em;
	if (emit_line(t, &req, ps, line, &em) != LEGO_OK)
		return LEGO_ERR;
	lego_sbuf_puts(&t->out, em.prelude);
	size_t at = pos;
	for (size_t i = 0; i < n; i++) {
		int wrap = gen_value_needs_parens(t->text + pos, end - pos,
						  ps[i].open - pos,
						  ps[i].close - pos,
						  em.values[i]);
		put_text(t, pos, at, ps[i].open, line);
		lego_sbuf_printf(&t->out, wrap ? "(%s)" : "%s", em.values[i]);
		at = ps[i].close;
	}
	put_text(t, pos, at, end, line);
	lego_emitted_free(&em);
	return LEGO_OK;
}

static int expand(tmpl *t)
{
	int line = 1;
	for (size_t pos = 0; pos < t->len; line++) {
		size_t end = line_end(t, pos);
		int in_block = t->block_end && pos >= t->block_begin &&
			       pos < t->block_end;
		if (!in_block && expand_line(t, pos, end, line) != LEGO_OK)
			return LEGO_ERR;
		pos = end;
	}
	return LEGO_OK;
}

char *lego_gen(lego_ctx *ctx, const char *filename, const char *text,
	       size_t len, const lego_gen_opts *opts)
{
	if (!ctx)
		return NULL;
	if (!opts || (!text && len))
		return lego_fail_null(ctx, "lego_gen: no template or options");
	tmpl t = {.ctx = ctx, .filename = filename ? filename : "<template>",
		  .text = text ? text : "", .len = len,
		  .warnings = opts->warnings};
	if (parse_target(ctx, opts->target, &t.target) != LEGO_OK ||
	    find_block(&t) != LEGO_OK || load_spec(&t, opts) != LEGO_OK)
		return NULL;
	t.prefix = choose_prefix(&t);
	if (expand(&t) != LEGO_OK) {
		free(lego_sbuf_take(&t.out));
		return NULL;
	}
	lego_sbuf_puts(&t.out, "");
	char *s = lego_sbuf_take(&t.out);
	return s ? s : lego_fail_null(ctx, "out of memory");
}

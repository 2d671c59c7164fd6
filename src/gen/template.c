/* template.c - lego_gen: expand the {{ ... }} placeholders of a template,
 * line by line, through the emitter of the target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/word.h"
#include "expr/print.h"
#include "expr/sbuf.h"
#include "gen/emit.h"
#include "gen/template.h"
#include "lang/parse.h"

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
	struct block {                 /* a {% lego %} .. {% end %} block */
		size_t begin, end;     /* its bytes, marker lines included */
	} *blocks;                     /* in the ctx arena */
	size_t nblocks;
	int block_line;                /* line of the first block's marker */
	char *spec_text;               /* the blocks' lines, others empty */
	lego_spec *spec;
	lego_target target;
	const char *prefix;            /* of the temporaries */
	gen_slices slices;
	lego_sbuf out;
	FILE *warnings;
	const char *prev;              /* the last line of code, blanked */
	gen_place_fn seen;             /* gen_template_places: its fn */
	void *user;
} tmpl;

/* One placeholder of the current line. */
typedef struct place {
	size_t open, close;            /* offsets of "{{" and after "}}" */
	int col;                       /* column of "{{" */
	lego_expr *e;
	int is_bool;                   /* a truth value (a mask ...) */
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

/* Appends a block [begin, end) to t->blocks. */
static int add_block(tmpl *t, size_t begin, size_t end)
{
	struct block *grown = lego_xalloc(t->ctx, (t->nblocks + 1) *
							  sizeof *grown);
	if (!grown)
		return LEGO_ENOMEM;
	if (t->nblocks)
		memcpy(grown, t->blocks, t->nblocks * sizeof *grown);
	grown[t->nblocks++] = (struct block){begin, end};
	t->blocks = grown;
	return LEGO_OK;
}

/* The {% lego %} ... {% end %} blocks.  Several blocks are one spec, in
 * the order of the template (a declaration may sit next to the code that
 * uses it); t->spec_text holds their lines where they are in the
 * template, every other line empty, so that messages point into it. */
static int find_blocks(tmpl *t)
{
	int line = 1, start_line = 0;
	size_t begin = 0;
	lego_sbuf b = {0};
	for (size_t pos = 0; pos < t->len; line++) {
		size_t end = line_end(t, pos);
		const char *s = t->text + pos;
		const char *open = line_find(s, end - pos, BLOCK_START);
		const char *close = line_find(s, end - pos, BLOCK_END);
		if (open && start_line) {
			free(lego_sbuf_take(&b));
			return lego_fail(t->ctx, LEGO_ERR, "%s:%d:%d: error: %s "
					 "inside the block of line %d (close it "
					 "with %s first)", t->filename, line,
					 (int)(open - s) + 1, BLOCK_START,
					 start_line, BLOCK_END);
		}
		if (close && !start_line && !open) {
			free(lego_sbuf_take(&b));
			return lego_fail(t->ctx, LEGO_ERR, "%s:%d:%d: error: %s "
					 "without %s", t->filename, line,
					 (int)(close - s) + 1, BLOCK_END,
					 BLOCK_START);
		}
		int inside = start_line && !close;
		if (open) {
			start_line = line;
			begin = pos;
			if (!t->block_line)
				t->block_line = line;
		} else if (close && add_block(t, begin, end) != LEGO_OK) {
			free(lego_sbuf_take(&b));
			return LEGO_ENOMEM;
		} else if (close) {
			start_line = 0;
		}
		if (inside)
			lego_sbuf_printf(&b, "%.*s", (int)(end - pos), s);
		else
			lego_sbuf_puts(&b, "\n");
		pos = end;
	}
	t->spec_text = lego_sbuf_take(&b);
	if (start_line) {
		free(t->spec_text);
		t->spec_text = NULL;
		return lego_fail(t->ctx, LEGO_ERR, "%s:%d:1: error: %s without "
				 "%s", t->filename, start_line, BLOCK_START,
				 BLOCK_END);
	}
	return t->spec_text ? LEGO_OK : lego_fail(t->ctx, LEGO_ENOMEM,
						  "out of memory");
}

static int load_spec(tmpl *t, const lego_gen_opts *opts)
{
	int has_block = t->nblocks > 0;
	if (opts->spec_path && has_block)
		return lego_fail(t->ctx, LEGO_ERR, "%s:%d:1: error: the spec is "
				 "given twice (%s and this block)", t->filename,
				 t->block_line, opts->spec_path);
	if (!opts->spec_path && !has_block)
		return lego_fail(t->ctx, LEGO_ERR, "%s: error: no spec: give a "
				 "SPEC file or a %s ... %s block", t->filename,
				 BLOCK_START, BLOCK_END);
	t->spec = opts->spec_path ? lego_spec_load(t->ctx, opts->spec_path,
						   opts->defs, opts->ndefs)
				  : lego_spec_parse(t->ctx, t->filename,
						    t->spec_text,
						    strlen(t->spec_text),
						    opts->defs, opts->ndefs);
	return t->spec ? LEGO_OK : LEGO_ERR;
}

static size_t skip_digits(const char *s, size_t len, size_t j)
{
	while (j < len && s[j] >= '0' && s[j] <= '9')
		j++;
	return j;
}

/* Whether s[i..len) starts with a word prefix<digits>_<digits>, the form
 * of the temporaries. */
static int temp_at(const char *s, size_t len, size_t i, const char *prefix)
{
	size_t w = strlen(prefix);
	if ((i && lego_word_char(s[i - 1])) || i + w >= len ||
	    memcmp(s + i, prefix, w))
		return 0;
	size_t j = skip_digits(s, len, i + w);
	if (j == i + w || j >= len || s[j] != '_')
		return 0;
	size_t k = skip_digits(s, len, j + 1);
	return k > j + 1 && (k == len || !lego_word_char(s[k]));
}

/* Whether the template or a name of its spec (which may come from a
 * file) has the form of the temporaries. */
static int uses_prefix(const tmpl *t, const char *prefix)
{
	for (size_t i = 0; i < t->len; i++)
		if (temp_at(t->text, t->len, i, prefix))
			return 1;
	for (size_t i = 0; i < t->spec->nnames; i++) {
		const char *name = t->spec->decls[i]->name;
		if (temp_at(name, strlen(name), 0, prefix))
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
		size_t before = t->slices.nneeds;
		p->e = gen_placeholder_parse(t->spec, t->filename, line, col + 2,
					     o + 2, (size_t)(c - o) - 2,
					     &t->slices, &p->is_bool);
		if (p->e && t->seen) {
			gen_place_seen seen = {
				line, col, o + 2, (size_t)(c - o) - 2, p->e,
				t->slices.needs + before,
				t->slices.nneeds - before};
			if (t->seen(t->user, &seen))
				return LEGO_ERR;
			i = p->close;
			continue;
		}
		if (!p->e || !(p->e = lego_simplify(t->ctx, p->e)))
			return LEGO_ERR;
		if (lego_exprs_may_overflow64(1, &p->e))
			return lego_fail(t->ctx, LEGO_ERR, "%s:%d:%d: error: a "
					 "value of this placeholder can reach "
					 "2^62 in magnitude (by the ranges of "
					 "its indices and sizes): 64-bit "
					 "arithmetic may overflow", t->filename,
					 line, col);
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

/* One line of a run: its bytes, number, placeholders and its text with
 * the placeholders blanked out. */
typedef struct tline {
	size_t pos, end;
	int line;
	place *ps;
	size_t n;
	char *rest;
	const lego_expr **syms; /* those the placeholders read */
	size_t nsyms;
	gen_temps_at temps;     /* where its temporaries may go */
	const char *why;        /* GEN_TEMPS_NOWHERE: what the line is */
} tline;

/* Lines sharing temporaries (share.c): the placeholders of all are
 * emitted together, each temporary defined before the first line that
 * uses it. */
typedef struct line_run {
	tline *lines; /* in the ctx arena */
	size_t n, cap;
	size_t nexprs;
	const char *indent;
	int alone;    /* a line with a block marker: shares with none */
} line_run;

/* Triton: a truth value proved constant (a mask with nothing to mask)
 * is written True or False; tl.load and tl.store refuse an integer mask. */
static int triton_truth_values(const tline *x, char **values)
{
	for (size_t i = 0; i < x->n; i++) {
		int64_t v;
		if (!x->ps[i].is_bool || !lego_expr_is_const(x->ps[i].e, &v))
			continue;
		char *text = strdup(v ? "True" : "False");
		if (!text)
			return LEGO_ENOMEM;
		free(values[i]);
		values[i] = text;
	}
	return LEGO_OK;
}

/* On failure finds the placeholder the target cannot print (or whose
 * names clash), for the message. */
static int emit_error(tmpl *t, lego_emit_request *req, const line_run *r)
{
	lego_emit_request one = *req;
	one.n = 1;
	one.ngroups = 0;
	for (size_t l = 0, i = 0; l < r->n; l++)
		for (size_t k = 0; k < r->lines[l].n; k++, i++) {
			lego_emitted tmp;
			one.exprs = &req->exprs[i];
			if (lego_emit(t->ctx, &one, &tmp) != LEGO_OK)
				return error_at(t, r->lines[l].line,
						r->lines[l].ps[k].col);
			lego_emitted_free(&tmp);
		}
	return error_at(t, r->lines[0].line, r->lines[0].ps[0].col);
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

/* Writes line l with its values (values[0..n)). */
static void splice(tmpl *t, const tline *l, char *const *values)
{
	size_t at = l->pos;
	for (size_t i = 0; i < l->n; i++) {
		const place *p = &l->ps[i];
		int wrap = gen_value_needs_parens(t->text + l->pos,
						  l->end - l->pos,
						  p->open - l->pos,
						  p->close - l->pos, values[i]);
		put_text(t, l->pos, at, p->open, l->line);
		lego_sbuf_printf(&t->out, wrap ? "(%s)" : "%s", values[i]);
		at = p->close;
	}
	put_text(t, l->pos, at, l->end, l->line);
}

/* Emits and writes the lines of r, then empties it. */
static int flush(tmpl *t, line_run *r)
{
	if (!r->n)
		return LEGO_OK;
	lego_expr **es = lego_xalloc(t->ctx, (r->nexprs + 1) * sizeof *es);
	size_t *ends = lego_xalloc(t->ctx, r->n * sizeof *ends);
	lego_emit_range *ranges = all_ranges(t);
	if (!es || !ends || !ranges)
		return LEGO_ENOMEM;
	size_t k = 0;
	for (size_t l = 0; l < r->n; l++) {
		for (size_t i = 0; i < r->lines[l].n; i++)
			es[k++] = r->lines[l].ps[i].e;
		ends[l] = k;
	}
	/* Temporaries are named by the run's first line (t12_0, t12_1, ...):
	 * two runs of one C block or MLIR region must not define the same
	 * name. */
	char prefix[64];
	snprintf(prefix, sizeof prefix, "%s%d_", t->prefix, r->lines[0].line);
	lego_emit_request req = {t->target, k, es, prefix, r->indent,
				 t->slices.n, ranges, r->n, ends};
	lego_emitted em;
	if (lego_emit(t->ctx, &req, &em) != LEGO_OK)
		return emit_error(t, &req, r);
	k = 0;
	int rc = LEGO_OK;
	for (size_t l = 0; l < r->n && rc == LEGO_OK; l++) {
		const tline *x = &r->lines[l];
		size_t len = em.group_at[l + 1] - em.group_at[l];
		if (len && x->temps == GEN_TEMPS_NOWHERE) {
			lego_fail(t->ctx, LEGO_ERR, "the placeholders share "
				  "subexpressions, whose temporaries cannot "
				  "be defined before %s: write the statement "
				  "on a line of its own, in braces", x->why);
			rc = error_at(t, x->line, x->ps[0].col);
			break;
		}
		int wrap = len && x->temps == GEN_TEMPS_WRAPPED;
		if (wrap)
			lego_sbuf_printf(&t->out, "%s{\n", r->indent);
		lego_sbuf_printf(&t->out, "%.*s", (int)len,
				 em.prelude + em.group_at[l]);
		if (t->target == LEGO_TARGET_TRITON &&
		    (rc = triton_truth_values(x, em.values + k)) != LEGO_OK) {
			lego_fail(t->ctx, rc, "out of memory");
			break;
		}
		splice(t, x, em.values + k);
		if (wrap)
			lego_sbuf_printf(&t->out, "%s%s}\n",
					 t->text[x->end - 1] == '\n' ? "" : "\n",
					 r->indent);
		k += x->n;
	}
	lego_emitted_free(&em);
	if (rc != LEGO_OK)
		return rc;
	r->n = r->nexprs = 0;
	return LEGO_OK;
}

static int blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/* A line holding only a comment (C: also the middle and end of a block
 * comment), which says nothing of where a statement may stand. */
static int is_comment(lego_target target, const char *s)
{
	s += strspn(s, " \t");
	if (target == LEGO_TARGET_TRITON)
		return *s == '#';
	return !strncmp(s, "//", 2) || !strncmp(s, "/*", 2) || *s == '*';
}

/* Runs are bounded so that joining (linear in the run) keeps long
 * templates linear. */
#define RUN_MAX 64

/* Whether l may join r: same indentation, straight lines, and no line's
 * text names a symbol that the placeholders of the run and l read (those
 * of r are known not to name r's). */
static int joins(const line_run *r, const tline *l, const char *indent)
{
	if (r->alone || r->n >= RUN_MAX || strcmp(indent, r->indent))
		return 0;
	const tline *x = r->lines;
	for (size_t i = 0; i < r->n; i++)
		if (gen_text_names(l->rest, x[i].syms, x[i].nsyms) ||
		    gen_text_names(x[i].rest, l->syms, l->nsyms))
			return 0;
	return !gen_text_names(l->rest, l->syms, l->nsyms);
}

static int add_line(tmpl *t, line_run *r, const tline *l)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 8;
		tline *grown = lego_xalloc(t->ctx, cap * sizeof *grown);
		if (!grown)
			return LEGO_ENOMEM;
		if (r->n)
			memcpy(grown, r->lines, r->n * sizeof *grown);
		r->lines = grown;
		r->cap = cap;
	}
	r->lines[r->n++] = *l;
	r->nexprs += l->n;
	return LEGO_OK;
}

/* The line [pos, end): written at once when it has no placeholder, else
 * added to the run r, which it may join or begin. */
static int expand_line(tmpl *t, line_run *r, size_t pos, size_t end, int line)
{
	tline l = {pos, end, line, NULL, 0, NULL, NULL, 0, GEN_TEMPS_BEFORE, NULL};
	int rc = read_places(t, pos, end, line, &l.ps, &l.n);
	if (rc != LEGO_OK)
		return rc;
	if (!(l.rest = lego_arena_strndup(&t->ctx->arena, t->text + pos,
					  end - pos)))
		return LEGO_ENOMEM;
	for (size_t i = 0; i < l.n; i++)
		memset(l.rest + (l.ps[i].open - pos), ' ',
		       l.ps[i].close - l.ps[i].open);
	if (l.n == 0 && blank(l.rest) && r->n)
		return add_line(t, r, &l); /* a blank line keeps the run */
	if (l.n == 0) {
		if (!blank(l.rest) && !is_comment(t->target, l.rest))
			t->prev = l.rest;
		if ((rc = flush(t, r)) == LEGO_OK)
			put_text(t, pos, pos, end, line);
		return rc;
	}
	lego_expr **es = lego_xalloc(t->ctx, l.n * sizeof *es);
	for (size_t i = 0; es && i < l.n; i++)
		es[i] = l.ps[i].e;
	if (!es || !(l.syms = gen_syms_of(t->ctx, es, l.n, &l.nsyms)))
		return LEGO_ENOMEM;
	size_t ind = strspn(l.rest, " \t");
	char *indent = lego_arena_strndup(&t->ctx->arena, l.rest, ind);
	if (!indent)
		return LEGO_ENOMEM;
	int straight = gen_line_is_straight(t->target, l.rest);
	l.temps = gen_temps_place(t->target, t->prev, l.rest, l.syms, l.nsyms,
				  &l.why);
	/* Temporaries in braces, or none, are not there for other lines. */
	int alone = !straight || l.temps != GEN_TEMPS_BEFORE;
	if (alone || !r->n || !joins(r, &l, indent)) {
		if ((rc = flush(t, r)) != LEGO_OK)
			return rc;
		r->indent = indent;
		r->alone = alone;
	}
	/* As the next line's previous one, a placeholder reads as an operand. */
	char *prev = lego_arena_strndup(&t->ctx->arena, l.rest, end - pos);
	if (!prev)
		return LEGO_ENOMEM;
	for (size_t i = 0; i < l.n; i++)
		prev[l.ps[i].open - pos] = '0';
	t->prev = prev;
	return add_line(t, r, &l);
}

static int in_block(const tmpl *t, size_t pos)
{
	for (size_t i = 0; i < t->nblocks; i++)
		if (pos >= t->blocks[i].begin && pos < t->blocks[i].end)
			return 1;
	return 0;
}

static int expand(tmpl *t)
{
	int line = 1;
	line_run r = {0};
	for (size_t pos = 0; pos < t->len; line++) {
		size_t end = line_end(t, pos);
		int rc = in_block(t, pos) ? flush(t, &r)
					  : expand_line(t, &r, pos, end, line);
		if (rc != LEGO_OK)
			return LEGO_ERR;
		pos = end;
	}
	return flush(t, &r) == LEGO_OK ? LEGO_OK : LEGO_ERR;
}

int gen_template_places(lego_ctx *ctx, const char *filename,
			const char *text, size_t len,
			const lego_gen_opts *opts, gen_place_fn fn,
			void *user)
{
	tmpl t = {.ctx = ctx, .filename = filename ? filename : "<template>",
		  .text = text ? text : "", .len = len, .seen = fn,
		  .user = user};
	int rc = find_blocks(&t);
	if (rc == LEGO_OK)
		rc = load_spec(&t, opts);
	free(t.spec_text);
	int line = 1;
	for (size_t pos = 0; rc == LEGO_OK && pos < t.len; line++) {
		size_t end = line_end(&t, pos), n;
		place *ps;
		if (!in_block(&t, pos))
			rc = read_places(&t, pos, end, line, &ps, &n);
		pos = end;
	}
	return rc;
}

lego_spec *lego_gen_spec(lego_ctx *ctx, const char *filename,
			 const char *text, size_t len, const lego_gen_opts *opts)
{
	if (!ctx || !opts || (!text && len))
		return ctx ? lego_fail_null(ctx, "lego_gen_spec: no template")
			   : NULL;
	tmpl t = {.ctx = ctx, .filename = filename ? filename : "<template>",
		  .text = text ? text : "", .len = len};
	int rc = find_blocks(&t);
	if (rc == LEGO_OK)
		rc = load_spec(&t, opts);
	free(t.spec_text);
	return rc == LEGO_OK ? t.spec : NULL;
}

char *lego_gen(lego_ctx *ctx, const char *filename, const char *text,
	       size_t len, const lego_gen_opts *opts)
{
	if (!ctx)
		return NULL;
	if (!opts || (!text && len))
		return lego_fail_null(ctx, "lego_gen: no template or options");
	if (lego_check_input_size(ctx, filename, len) != LEGO_OK)
		return NULL;
	tmpl t = {.ctx = ctx, .filename = filename ? filename : "<template>",
		  .text = text ? text : "", .len = len,
		  .warnings = opts->warnings};
	int rc = parse_target(ctx, opts->target, &t.target);
	if (rc == LEGO_OK && (rc = find_blocks(&t)) == LEGO_OK)
		rc = load_spec(&t, opts);
	free(t.spec_text);
	if (rc != LEGO_OK)
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

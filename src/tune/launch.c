/* launch.c - the launch of a built-in runner for one problem: buffer and
 * grid sizes evaluated from the defines (with the language's own
 * expressions); elem.c has the inputs and the check against the
 * reference. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/sbuf.h"
#include "tune/launch.h"

static char *dup_or_null(char **at, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = memcpy(*at, s, n);
	*at += n;
	return d;
}

lego_tune_launch *tune_launch_copy(const lego_tune_launch *l)
{
	const char *f[] = {l->kernel, l->args, l->global, l->local,
			   l->reference, l->ref_global, l->ref_local};
	size_t len = sizeof *l;
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		len += f[i] ? strlen(f[i]) + 1 : 0;
	lego_tune_launch *c = malloc(len);
	if (!c)
		return NULL;
	char *at = (char *)(c + 1);
	*c = *l;
	c->kernel = dup_or_null(&at, l->kernel);
	c->args = dup_or_null(&at, l->args);
	c->global = dup_or_null(&at, l->global);
	c->local = dup_or_null(&at, l->local);
	c->reference = dup_or_null(&at, l->reference);
	c->ref_global = dup_or_null(&at, l->ref_global);
	c->ref_local = dup_or_null(&at, l->ref_local);
	return c;
}

/* Evaluates the expression text[0..len) with the defines as syms. */
static int eval_value(lego_ctx *ctx, lego_spec *spec, const char *text,
		      size_t len, int64_t *out, char *why, size_t cap)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%.*s", (int)len, text);
	lego_expr *e = lego_spec_parse_expr(spec, buf, NULL);
	lego_env *env = e ? lego_env_new(ctx) : NULL;
	int rc = env && !lego_expr_eval(ctx, e, env, out) ? 0 : -1;
	lego_env_free(env);
	if (rc)
		snprintf(why, cap, "launch: cannot evaluate '%s': %s", buf,
			 lego_ctx_error(ctx));
	return rc;
}

/* A size: an expression whose value is positive. */
static int eval(lego_ctx *ctx, lego_spec *spec, const char *text, size_t len,
		size_t *out, char *why, size_t cap)
{
	int64_t v;
	if (eval_value(ctx, spec, text, len, &v, why, cap))
		return -1;
	if (v < 1) {
		snprintf(why, cap, "launch: cannot evaluate '%.*s': not "
			 "positive", (int)len, text);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

/* "X, Y/2": 1 to 3 comma-separated sizes. */
static int eval_dims(lego_ctx *ctx, lego_spec *spec, const char *text,
		     size_t *out, unsigned *dims, char *why, size_t cap)
{
	unsigned n = 0;
	for (const char *s = text;; n++) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		if (n == 3) {
			snprintf(why, cap, "launch: more than 3 sizes in '%s'",
				 text);
			return -1;
		}
		if (eval(ctx, spec, s, len, &out[n], why, cap))
			return -1;
		if (!comma)
			break;
		s = comma + 1;
	}
	*dims = n + 1;
	return 0;
}

/* A scalar argument, "int" or "long" after the name, then "=EXPR" or
 * nothing (the define of the name): 1 and its kind and value, 0 when
 * text is a buffer's size, -1 with the reason in why. */
static int eval_scalar(lego_ctx *ctx, lego_spec *spec, const char *name,
		       const char *text, size_t len, tune_shape *o, size_t k,
		       char *why, size_t cap)
{
	static const struct {
		const char *type;
		tune_arg_kind kind;
	} types[] = {{"int", TUNE_ARG_INT32}, {"long", TUNE_ARG_INT64}};
	for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
		size_t n = strlen(types[t].type);
		if (len < n || strncmp(text, types[t].type, n) ||
		    (len > n && text[n] != '='))
			continue;
		int64_t v;
		int rc = len > n ? eval_value(ctx, spec, text + n + 1,
					      len - n - 1, &v, why, cap)
				 : eval_value(ctx, spec, name, strlen(name),
					      &v, why, cap);
		if (rc)
			return -1;
		if (types[t].kind == TUNE_ARG_INT32 &&
		    (v < INT32_MIN || v > INT32_MAX)) {
			snprintf(why, cap, "launch: %s = %lld does not fit an "
				 "int", name, (long long)v);
			return -1;
		}
		o->kind[k] = types[t].kind;
		o->i64[k] = v;
		o->i32[k] = (int32_t)v;
		return 1;
	}
	return 0;
}

/* Strips a buffer's ":out" and ":TYPE" suffixes (either order) off
 * size[0..*len), setting o's out[k] and elem[k]. */
static void buffer_suffixes(const char *size, size_t *len, tune_shape *o,
			    size_t k)
{
	for (int i = 0; i < 2; i++) {
		const char *colon = NULL;
		for (size_t j = *len; j-- > 0 && !colon;)
			colon = size[j] == ':' ? size + j : NULL;
		if (!colon)
			return;
		size_t at = (size_t)(colon - size), n = *len - at - 1;
		if (n == 3 && !strncmp(colon + 1, "out", 3) && !o->out[k])
			o->out[k] = 1;
		else if (lego_tune_elem_parse(colon + 1, n, &o->elem[k]))
			return;
		*len = at;
	}
}

/* "a:M*K b:K*N c:M*N:out M:int n:long=M*N", buffers of type elem unless
 * they name theirs ("c:M*N:out:i32"). */
static int eval_args(lego_ctx *ctx, lego_spec *spec, const char *text,
		     lego_tune_elem elem, tune_shape *o, char *why, size_t cap)
{
	const char *s = text;
	o->nargs = 0;
	for (;;) {
		s += strspn(s, " \t\n");
		if (!*s)
			return o->nargs ? 0 : (snprintf(why, cap, "launch: no "
							"arguments"), -1);
		size_t len = strcspn(s, " \t\n");
		const char *colon = memchr(s, ':', len);
		size_t name = colon ? (size_t)(colon - s) : 0;
		if (!colon || !name || name >= sizeof o->names[0] ||
		    o->nargs == TUNE_MAX_ARGS) {
			snprintf(why, cap, "launch: expected NAME:SIZE[:out]"
				 "[:TYPE] or NAME:int|long[=VALUE] (at most "
				 "%d), got '%.*s'", TUNE_MAX_ARGS, (int)len, s);
			return -1;
		}
		size_t k = o->nargs++;
		memcpy(o->names[k], s, name);
		o->names[k][name] = '\0';
		const char *size = colon + 1;
		size_t slen = len - name - 1;
		int scalar = eval_scalar(ctx, spec, o->names[k], size, slen, o,
					 k, why, cap);
		if (scalar < 0)
			return -1;
		if (!scalar) {
			o->elem[k] = elem;
			buffer_suffixes(size, &slen, o, k);
			if (eval(ctx, spec, size, slen, &o->elems[k], why,
				 cap))
				return -1;
		}
		s += len;
	}
}

/* Work-items and work-group sizes (local NULL: none). */
static int eval_grid(lego_ctx *ctx, lego_spec *spec, const char *global,
		     const char *local, size_t *g, size_t *l, unsigned *dims,
		     char *why, size_t cap)
{
	if (eval_dims(ctx, spec, global ? global : "", g, dims, why, cap))
		return -1;
	unsigned ldims = *dims;
	if (local && eval_dims(ctx, spec, local, l, &ldims, why, cap))
		return -1;
	if (ldims != *dims) {
		snprintf(why, cap, "launch: %u global sizes but %u local",
			 *dims, ldims);
		return -1;
	}
	return 0;
}

int tune_launch_shape(const lego_tune_launch *l, const lego_define *defs,
		      size_t ndefs, tune_shape *out, char *why, size_t cap)
{
	/* the defines as lets: a layout choice's value may be 0 */
	lego_sbuf decl = {0};
	lego_sbuf_puts(&decl, "");
	for (size_t i = 0; i < ndefs; i++)
		lego_sbuf_printf(&decl, "let %s = %lld\n", defs[i].name,
				 (long long)defs[i].value);
	char *text = lego_sbuf_take(&decl);
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = ctx && text ? lego_spec_parse(ctx, "launch", text,
							 strlen(text), NULL, 0)
				      : NULL;
	int rc = -1;
	memset(out, 0, sizeof *out);
	if (!spec)
		snprintf(why, cap, "launch: %s", ctx ? lego_ctx_error(ctx)
						     : "out of memory");
	else if (!eval_args(ctx, spec, l->args ? l->args : "", l->elem, out,
			  why, cap) &&
		 !eval_grid(ctx, spec, l->global, l->local, out->global,
			    out->local, &out->dims, why, cap)) {
		rc = 0;
		if (l->ref_global)
			rc = eval_grid(ctx, spec, l->ref_global, l->ref_local,
				       out->ref_global, out->ref_local,
				       &out->ref_dims, why, cap);
		else if (!l->ref_local) {
			out->ref_dims = out->dims;
			memcpy(out->ref_global, out->global, sizeof out->global);
			memcpy(out->ref_local, out->local, sizeof out->local);
		} else {
			snprintf(why, cap, "launch: a reference local size "
				 "without its global size");
			rc = -1;
		}
	}
	lego_ctx_free(ctx);
	free(text);
	return rc;
}

int tune_shape_equal(const tune_shape *a, const tune_shape *b)
{
	if (a->nargs != b->nargs)
		return 0;
	for (size_t k = 0; k < a->nargs; k++)
		if (a->kind[k] != b->kind[k] || a->elems[k] != b->elems[k] ||
		    a->elem[k] != b->elem[k] || a->out[k] != b->out[k] ||
		    a->i64[k] != b->i64[k])
			return 0;
	return 1;
}

const void *tune_shape_scalar(const tune_shape *s, size_t a, size_t *bytes)
{
	switch (s->kind[a]) {
	case TUNE_ARG_INT32:
		*bytes = sizeof s->i32[a];
		return &s->i32[a];
	case TUNE_ARG_INT64:
		*bytes = sizeof s->i64[a];
		return &s->i64[a];
	default:
		return NULL;
	}
}

/* Whether NAME is one of s's scalar arguments. */
static int is_scalar(const tune_shape *s, const char *name)
{
	for (size_t a = 0; a < s->nargs; a++)
		if (s->kind[a] != TUNE_ARG_BUFFER && !strcmp(s->names[a], name))
			return 1;
	return 0;
}

char *tune_define_options(const lego_define *defs, size_t ndefs,
			  const tune_shape *s)
{
	lego_sbuf b = {0};
	lego_sbuf_puts(&b, "");
	for (size_t i = 0; i < ndefs; i++)
		if (!is_scalar(s, defs[i].name))
			lego_sbuf_printf(&b, "%s-D%s=%lld", b.len ? " " : "",
					 defs[i].name,
					 (long long)defs[i].value);
	return lego_sbuf_take(&b);
}

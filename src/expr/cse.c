/* cse.c - several expressions printed with shared subexpressions named
 * once, temporaries defined before their first use. */
#include <stdlib.h>

#include "core/core.h"
#include "expr/print.h"

/* Whether a C-like root (a temporary or a value) of generated code needs
 * 64 bits. */
static int wide(const lego_printer *p, const lego_expr *e)
{
	lego_expr *root = (lego_expr *)e;
	return p->sized && p->d->c_syntax && !lego_exprs_fit_int32(1, &root);
}

static void define_temps(lego_printer *p, const lego_expr *e, size_t *next)
{
	lego_memo_entry *u = lego_memo_get(p->uses, e);
	int temp = lego_expr_is_temp(p->uses, e);
	if (!e->nargs || (temp && (u->tag >> 1)))
		return;
	for (uint32_t i = 0; i < e->nargs; i++)
		define_temps(p, e->args[i], next);
	if (!temp)
		return;
	size_t k = (*next)++;
	if (p->indent)
		lego_sbuf_puts(p->out, p->indent);
	p->widen = wide(p, e);
	int in_int = p->sized && !p->widen;
	u->ptr = in_int ? NULL : (void *)e; /* lego_expr_temp_is_wide */
	if (p->d->c_syntax)
		lego_sbuf_printf(p->out, "const %s ",
				 in_int ? p->d->int32_type : p->d->int_type);
	lego_sbuf_printf(p->out, "%s%zu = ", p->prefix, k);
	p->self = e;
	lego_print_node(p, e, 0);
	p->self = NULL;
	p->widen = 0;
	lego_sbuf_puts(p->out, p->d->c_syntax ? ";\n" : "\n");
	u->tag |= (k + 1) << 1;
}

/* Use counts, less the temporaries that must not be computed ahead of
 * their guards: a node shared by both arms of a select, say, is computed
 * only where the select's condition holds; as a temporary defined before
 * the statement it would be computed everywhere, a division by zero
 * included.  Such nodes are printed where they stand.  roots_run: every
 * root is computed (straight-line assignments), so what a root always
 * computes may be hoisted too; a template line may guard its
 * placeholders, so there nothing is taken for granted. */
static int count_hoistable(lego_ctx *ctx, const lego_printer *p,
			   lego_memo *uses, size_t n, lego_expr *const *es,
			   int roots_run)
{
	int lazy = !p->d->tensors, rc = LEGO_ENOMEM;
	lego_memo safe, always = {0};
	if (lego_expr_count_uses(uses, n, es, p) != LEGO_OK ||
	    lego_memo_init(&safe, 64) != LEGO_OK)
		return LEGO_ENOMEM;
	if (lego_memo_init(&always, 64) != LEGO_OK)
		goto out;
	for (size_t i = 0; i < n && roots_run; i++)
		if (lego_expr_mark_always(&always, es[i], lazy) != LEGO_OK)
			goto out;
	for (size_t i = 0; i < uses->cap; i++) {
		lego_memo_entry *u = &uses->slots[i];
		if (u->key && u->n > 1 && u->key->nargs &&
		    !lego_memo_get(&always, u->key) &&
		    !lego_expr_hoistable(ctx, &safe, u->key, lazy))
			u->n = 1;
	}
	rc = LEGO_OK;
out:
	lego_memo_free(&always);
	lego_memo_free(&safe);
	return rc;
}

char *lego_exprs_print(lego_ctx *ctx, size_t n, lego_expr *const *es,
		       const char *const *names, const char *prefix,
		       lego_lang lang)
{
	return lego_exprs_print_dialect(ctx, n, es, names, prefix,
					lego_dialect_of_lang(lang));
}

char *lego_exprs_print_dialect(lego_ctx *ctx, size_t n,
			       lego_expr *const *es, const char *const *names,
			       const char *prefix, lego_dialect d)
{
	if (!ctx || !es || !names || !prefix)
		return lego_fail_null(ctx, "lego_exprs_print: NULL argument");
	for (size_t i = 0; i < n; i++)
		if (!es[i] || !names[i])
			return lego_fail_null(ctx, "lego_exprs_print: "
						   "missing expression or name");
	lego_memo uses;
	if (lego_memo_init(&uses, 64) != LEGO_OK)
		return lego_fail_null(ctx, "out of memory");
	lego_sbuf b = {0};
	lego_printer p = {ctx, lego_dialect_get(d), &b, &uses,
			  prefix ? prefix : "t", NULL, NULL, 0, 0};
	if (count_hoistable(ctx, &p, &uses, n, es, 1) != LEGO_OK)
		b.oom = 1;
	size_t next = 0;
	for (size_t i = 0; i < n && !b.oom; i++)
		define_temps(&p, es[i], &next);
	for (size_t i = 0; i < n && !b.oom; i++) {
		lego_sbuf_printf(&b, "%s = ", names[i]);
		lego_print_node(&p, es[i], 0);
		lego_sbuf_puts(&b, p.d->c_syntax ? ";\n" : "\n");
	}
	lego_memo_free(&uses);
	char *s = lego_sbuf_take(&b);
	return s ? s : lego_fail_null(ctx, "out of memory");
}

/* The inline text of e over the temporaries already defined. */
static char *print_value(lego_printer *p, const lego_expr *e)
{
	lego_sbuf b = {0};
	lego_printer v = *p;
	v.out = &b;
	v.widen = wide(p, e);
	lego_print_node(&v, e, 0);
	return lego_sbuf_take(&b);
}

int lego_print_shared_groups(lego_ctx *ctx, size_t n, lego_expr *const *es,
			     size_t ngroups, const size_t *group_end,
			     const char *prefix, const char *indent,
			     lego_dialect d, char **prelude, size_t *group_at,
			     char **values)
{
	lego_memo uses;
	if (lego_memo_init(&uses, 64) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	lego_sbuf b = {0};
	lego_printer p = {ctx, lego_dialect_get(d), &b, &uses,
			  prefix ? prefix : "t", NULL, indent, 1, 0};
	if (count_hoistable(ctx, &p, &uses, n, es, 0) != LEGO_OK)
		b.oom = 1;
	size_t next = 0, i = 0;
	for (size_t g = 0; g < ngroups; g++) {
		group_at[g] = b.len;
		for (; i < group_end[g] && !b.oom; i++)
			define_temps(&p, es[i], &next);
	}
	group_at[ngroups] = b.len;
	int ok = !b.oom;
	for (i = 0; i < n; i++) {
		values[i] = ok ? print_value(&p, es[i]) : NULL;
		ok = ok && values[i];
	}
	lego_memo_free(&uses);
	lego_sbuf_puts(&b, "");
	*prelude = lego_sbuf_take(&b);
	if (ok && *prelude)
		return LEGO_OK;
	free(*prelude);
	*prelude = NULL;
	for (i = 0; i < n; i++) {
		free(values[i]);
		values[i] = NULL;
	}
	return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
}

int lego_print_shared(lego_ctx *ctx, size_t n, lego_expr *const *es,
		      const char *prefix, const char *indent, lego_dialect d,
		      char **prelude, char **values)
{
	size_t at[2];
	return lego_print_shared_groups(ctx, n, es, 1, &n, prefix, indent, d,
					prelude, at, values);
}

/* pipe.c - double-buffered local copies: the rounds of a reduceSeqPipe.
 *
 * reduceSeqPipe(f, init) $ a is reduceSeq(f, init) $ a, each round's
 * toLocal copies (those applied at the round's level, not inside its
 * loops) software-pipelined: a copy has two slots of local memory, slot
 * i % 2 read by round i.  Round i loads round i + 1's data into private
 * memory (each work-item its own elements) before its work and stores
 * them into the other slot after it, so that the global loads' latency
 * is hidden by the work; the first round's data is copied before the
 * loop.  One barrier a round suffices: slot (i + 1) % 2 was last read by
 * round i - 1, which every work-item finished at that round's barrier.
 *
 * The next round's copy is the round's own code with the round index
 * renamed to one set to i + 1 (`const int i_2n = i_2 + 1;`), so that
 * every access of it is the same LEGO view, simplified once.  A copy is
 * therefore restricted to what it may read early: the kernel's inputs,
 * never the accumulator or a buffer; its function is a nest of maps
 * around id or a user function (computed at the load), optionally
 * followed by written-side views (join, split, transpose), which the
 * store from private memory applies. */
#include <stdlib.h>
#include <string.h>

#include "core/word.h"
#include "lift/value.h"

enum { PIPE_MAX_COPIES = 8 };

typedef struct lift_pipe {
	const lift_fun *f;          /* the reduceSeqPipe */
	lego_expr *i;               /* the round's index */
	const char *name, *len;     /* its name and the rounds, as text */
	const char *acc;            /* the accumulator's buffer, or NULL */
	size_t mark;                /* where the round loop opens */
	int depth;                  /* cc->nloops inside the round */
	lego_sbuf first;            /* the first round's copies */
	lego_sbuf next;             /* the next round's stores */
	lift_buf *bufs[PIPE_MAX_COPIES];
	int ncopies;
} lift_pipe;

int lift_pipe_here(const lift_cc *cc)
{
	return cc->pipe && !cc->probing && cc->nloops == cc->pipe->depth;
}

int lift_pipe_open(lift_cc *cc, const lift_fun *f, lego_expr *i,
		   const char *name, const char *len, const char *acc)
{
	if (cc->pipe) {
		lift_err(cc, f->at, "reduceSeqPipe inside the round of another "
			 "reduceSeqPipe: only one level is double-buffered");
		return -1;
	}
	lift_pipe *p = lego_arena_alloc(&cc->ctx->arena, sizeof *p);
	if (!p)
		return -1;
	*p = (lift_pipe){.f = f, .name = name, .len = len, .acc = acc,
			 .mark = cc->out.len};
	if (lift_loop_open(cc, PAT_MAPSEQ, 0, i, name, len))
		return -1;
	p->i = i;
	p->depth = cc->nloops;
	cc->pipe = p;
	return 0;
}

/* Emits `if (i + 1 < len) { const int in = i + 1;` before what gen emits
 * for the next round, or with first, `if (0 < len) { const int i = 0;`
 * for round 0 before the loop (where no i is declared yet); returns where
 * that code starts, for pipe_rebind_end. */
static size_t pipe_rebind(lift_cc *cc, const lift_pipe *p, int first)
{
	if (first) {
		lift_emit(cc, "if (0 < %s) {", p->len);
		cc->indent++;
		lift_emit(cc, "const int %s = 0;", p->name);
	} else {
		lift_emit(cc, "if (%s + 1 < %s) {", p->name, p->len);
		cc->indent++;
		lift_emit(cc, "const int %sn = %s + 1;", p->name, p->name);
	}
	return cc->out.len;
}

/* Renames the word name to name + "n" in b from offset from on. */
static void rename_index(lego_sbuf *b, size_t from, const char *name)
{
	char *code = b->oom ? NULL : strdup(b->s + from);
	if (!code) {
		b->oom = 1;
		return;
	}
	b->len = from;
	b->s[from] = 0;
	const char *s = code, *w;
	for (; (w = lego_word_find(code, s, name)); s = w + strlen(name))
		lego_sbuf_printf(b, "%.*s%sn", (int)(w - s), s, name);
	lego_sbuf_puts(b, s);
	free(code);
}

/* Closes pipe_rebind's block.  The next round's code, emitted from from
 * on with the round's own index i (the same LEGO views, simplified
 * once), gets i renamed to in: a block redeclaring i would shadow it.
 * Generated names are words, i_N (no user's name starts with i_), so the
 * renaming is exact; the copies emit no barriers, so no offset recorded
 * inside that code moves. */
static void pipe_rebind_end(lift_cc *cc, const lift_pipe *p, size_t from,
			    int first)
{
	if (!first)
		rename_index(&cc->out, from, p->name);
	cc->indent--;
	lift_emit(cc, "}");
}

/* The nest of maps of a copy's function (to->f = views o nest), or NULL
 * if it is not of that form. */
static const lift_fun *copy_nest(const lift_fun *f)
{
	while (f->kind == FUN_COMPOSE) {
		if (lift_fun_writes(f->f))
			return NULL;
		f = f->g;
	}
	const lift_fun *n = f;
	while (f->kind == FUN_PATTERN &&
	       (f->pat == PAT_MAP || f->pat == PAT_MAPSEQ || f->pat == PAT_MAPLCL))
		f = f->f;
	if (f->kind == FUN_USER || (f->kind == FUN_PATTERN && f->pat == PAT_ID))
		return n;
	return NULL;
}

/* f with its nest's innermost function replaced by id: the store of
 * what the nest computed, through the same maps and views. */
static lift_fun *with_id(lift_cc *cc, const lift_fun *f)
{
	lift_fun *c = lego_arena_alloc(&cc->ctx->arena, sizeof *c);
	if (!c)
		return NULL;
	*c = *f;
	if (f->kind == FUN_COMPOSE)
		c->g = with_id(cc, f->g);
	else if (f->kind == FUN_PATTERN && f->pat != PAT_ID && f->f)
		c->f = with_id(cc, f->f);
	else
		*c = (lift_fun){.kind = FUN_PATTERN, .at = f->at, .pat = PAT_ID,
				.ndata = 1};
	if ((f->kind == FUN_COMPOSE && !c->g) ||
	    (c->kind == FUN_PATTERN && c->pat != PAT_ID && !c->f))
		return NULL;
	return c;
}

/* Every argument an array (or a tuple of them) of the kernel's inputs. */
static int reads_inputs(const lift_val *v)
{
	if (v->kind == VAL_TUPLE) {
		for (size_t k = 0; k < v->nelems; k++)
			if (!reads_inputs(v->elems[k]))
				return 0;
		return 1;
	}
	return v->kind == VAL_ARRAY && lift_view_reads_params(v->view);
}

/* Whether a copy's code reads its reduction's accumulator: the buffer
 * acc, or (acc NULL) a scalar one, a word acc_N of the generated code;
 * the parser refuses user names acc_... (lift.h), so that no
 * user's name (my_acc_0, acc_sum) is taken for one.  The code is searched
 * because an accumulator may reach the copy inside arguments that
 * reads_inputs accepts (a closure a lazy map applies, value(acc, n)),
 * whose views are src/lift/view.c's to open.  Conservative: an outer
 * reduction's scalar accumulator, which the rounds do not change, is
 * refused too. */
static int reads_acc(const char *code, const char *acc)
{
	if (acc)
		return lego_word_find(code, code, acc) != NULL;
	const size_t n = strlen(LIFT_NAME_ACC);
	for (const char *s = strstr(code, LIFT_NAME_ACC); s;
	     s = strstr(s + 1, LIFT_NAME_ACC)) {
		size_t d = strspn(s + n, "0123456789");
		if ((s == code || !lego_word_char(s[-1])) && d &&
		    !lego_word_char(s[n + d]))
			return 1;
	}
	return 0;
}

/* Runs a store with the output diverted into dst; the store must not
 * emit barriers (a nest of maps does not). */
static lift_type *divert(lift_cc *cc, lego_sbuf *dst, lift_fun *f,
			 lift_val **args, size_t n, lift_buf *b,
			 lego_expr *slot, const lift_type *root,
			 const lift_ast *at, int first)
{
	lego_sbuf saved = cc->out;
	lift_barrier *barriers = cc->barriers;
	cc->out = *dst;
	if (first)
		cc->indent--;
	size_t from = pipe_rebind(cc, cc->pipe, first);
	lift_type *t = lift_store_at(cc, f, args, n, b, &slot, 1, root, at);
	pipe_rebind_end(cc, cc->pipe, from, first);
	if (first)
		cc->indent++;
	*dst = cc->out;
	cc->out = saved;
	if (t && cc->barriers != barriers)
		return lift_err(cc, at, "a double-buffered toLocal's copy "
				"needs no barrier of its own");
	return t;
}

lift_val *lift_pipe_copy(lift_cc *cc, const lift_fun *to, lift_val **args,
			 size_t n)
{
	lego_ctx *ctx = cc->ctx;
	lift_pipe *p = cc->pipe;
	const lift_fun *nest = copy_nest(to->f);
	if (!nest)
		return lift_err(cc, to->at, "a double-buffered toLocal copies "
				"with a nest of maps around id or a user "
				"function (then views only)");
	for (size_t k = 0; k < n; k++)
		if (!reads_inputs(args[k]))
			return lift_err(cc, to->at, "a double-buffered toLocal "
					"copies the kernel's inputs only (the "
					"next round's are loaded early)");
	if (p->ncopies == PIPE_MAX_COPIES)
		return lift_err(cc, to->at, "more than %d double-buffered "
				"toLocal's in a round", PIPE_MAX_COPIES);
	if (lift_local_site(cc, "toLocal", to->at))
		return NULL;
	lift_fun *store = with_id(cc, to->f), *load = with_id(cc, nest);
	lift_buf *b = lift_buf_new(cc, SPACE_LOCAL, to->at);
	lift_buf *r = lift_buf_new(cc, SPACE_PRIVATE, to->at);
	if (!store || !load || !b || !r)
		return NULL;
	/* The next round's data, loaded (and computed) into r now. */
	size_t mark = cc->out.len;
	size_t from = pipe_rebind(cc, p, 0);
	lift_type *tr = lift_store(cc, (lift_fun *)nest, args, n, r, to->at);
	pipe_rebind_end(cc, p, from, 0);
	if (!tr)
		return NULL;
	if (reads_acc(cc->out.s + mark, p->acc))
		return lift_err(cc, to->at, "a double-buffered toLocal copies "
				"the kernel's inputs only, not the accumulator "
				"of its reduceSeqPipe");
	/* Slot i % 2 of b: this round's; the copies write the slot of the
	 * round their block rebinds i to.  root's element is not used by
	 * the stores (only its length, the two slots). */
	lego_expr *slot = lego_mod(ctx, p->i, lego_const(ctx, 2));
	lift_type *root = lift_type_array(ctx, tr, lego_const(ctx, 2));
	lift_val *rv = lift_val_array(cc, tr, lift_view_buf(cc, r));
	lift_type *t = slot && root && rv
		? divert(cc, &p->first, to->f, args, n, b, slot, root, to->at, 1)
		: NULL;
	if (!t || !divert(cc, &p->next, store, &rv, 1, b, slot, root,
			  to->at, 0))
		return NULL;
	long long rs = lift_buf_size(cc, to, r, tr);
	long long bs = rs < 0 ? -1 : lift_buf_size(cc, to, b, t);
	if (bs < 0)
		return NULL;
	lift_type_kind k = LIFT_FLOAT;
	for (const lift_type *e = t; e->kind == LIFT_ARRAY; e = e->elems[0])
		k = e->elems[0]->kind;
	if (k != LIFT_FLOAT && k != LIFT_INT)
		return lift_err(cc, to->at, "tuples in local or private memory "
				"are not supported yet");
	lift_buf_declare(cc, r, k, rs);
	lift_buf_declare(cc, b, k, 2 * bs);
	p->bufs[p->ncopies++] = b;
	lift_type *bt = lift_type_array(ctx, t, lego_const(ctx, 2));
	lift_val *whole = bt ? lift_val_array(cc, bt, lift_view_buf(cc, b))
			     : NULL;
	return whole ? lift_view_get(cc, whole, slot) : NULL;
}

void lift_pipe_drop(lift_cc *cc)
{
	if (!cc->pipe)
		return;
	free(lego_sbuf_take(&cc->pipe->first));
	free(lego_sbuf_take(&cc->pipe->next));
	cc->pipe = NULL;
}

int lift_pipe_close(lift_cc *cc)
{
	lift_pipe *p = cc->pipe;
	cc->pipe = NULL;
	if (!p->ncopies) {
		lift_err(cc, p->f->at, "reduceSeqPipe without a toLocal of its "
			 "round's data to double-buffer");
		return -1;
	}
	char *next = lego_sbuf_take(&p->next);
	char *first = lego_sbuf_take(&p->first);
	if (next)
		lego_sbuf_puts(&cc->out, next);
	for (int k = 0; k < p->ncopies; k++)
		lift_barrier_emit(cc, p->bufs[k]);
	lift_loop_close(cc);
	/* the first round's copies and their barrier, before the loop */
	int rc = next && first ? 0 : -1;
	for (int k = p->ncopies - 1; !rc && k >= 0; k--)
		rc = lift_barrier_insert(cc, p->mark, p->bufs[k]);
	if (!rc)
		lift_out_insert(cc, p->mark, first);
	free(next);
	free(first);
	return rc;
}

/* mem.c - address spaces, memory allocation and barriers (seed 004).
 *
 * Address spaces follow the seed's Algorithm 1 on the push side: a write
 * goes to the space of its destination (the kernel's result is global),
 * and toGlobal, toLocal, toPrivate change it for their function.  Memory
 * is allocated only where a function writes: a view under toLocal stays a
 * view.  A buffer's size comes from the type written, which must be a
 * constant (local and private arrays are sized when the kernel is
 * compiled); it is declared at the top of the kernel, as OpenCL wants
 * local arrays.
 *
 * Barriers: a local buffer is written by the mapLcl's of its function
 * and read later by other work-items, so a barrier follows the write,
 * and one precedes it when a loop encloses it (the previous round's
 * readers must be done).  As in the seed, every barrier is emitted and
 * then eliminated where the data is not shared: when every coordinate a
 * mapLcl writes is read only at the index of a mapLcl of the same
 * dimension (parallel loops stride by the local size, so element k is
 * written and read by work-item k mod size) and no join, split or
 * transpose regroups the writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/value.h"

lift_space lift_space_of(lift_pat to)
{
	return to == PAT_TOLOCAL ? SPACE_LOCAL
	       : to == PAT_TOPRIVATE ? SPACE_PRIVATE : SPACE_GLOBAL;
}

void lift_buf_touch(lift_buf *b, int *rec, size_t c, int thread)
{
	if (c >= LIFT_MAX_COORDS) {
		b->regrouped = 1;
		return;
	}
	if (c >= b->ncoords) {
		for (size_t k = b->ncoords; k <= c; k++)
			b->wr[k] = b->rd[k] = THREAD_UNSET;
		b->ncoords = c + 1;
	}
	if (rec[c] == THREAD_UNSET)
		rec[c] = thread;
	else if (rec[c] != thread)
		rec[c] = THREAD_MIXED;
}

int lift_loop_thread(lift_cc *cc, lego_expr *e)
{
	e = lego_simplify(cc->ctx, e);
	for (int k = 0; k < cc->nloops; k++)
		if (cc->loops[k].pat == PAT_MAPLCL && cc->loops[k].i == e)
			return cc->loops[k].dim;
	return THREAD_SEQ;
}

/* Lift's private memory is the work-item's: a coordinate written by a
 * mapLcl is read only by the same work-item (at that mapLcl's index).
 * Where the work-group's size is declared it is replicated, each
 * work-item holding the elements of its iterations (i = lid + t * L, so
 * t = i / L: 0 alone where the length is at most L, and the buffer stays
 * in registers); without it every work-item holds the whole buffer,
 * which is as correct and larger. */

/* Is coordinate c of b replicated: a mapLcl's, of a declared size? */
static int replicated(lift_cc *cc, const lift_buf *b, size_t c)
{
	return c < LIFT_MAX_COORDS && b->own[c] > 0 &&
	       cc->p->local[b->own[c] - 1];
}

/* The length a work-item holds of coordinate c of b: ceil(len / L) where
 * it is replicated over a mapLcl of size L. */
static lego_expr *held_len(lift_cc *cc, const lift_buf *b, size_t c,
			   lego_expr *len)
{
	lego_ctx *ctx = cc->ctx;
	if (!replicated(cc, b, c))
		return len;
	lego_expr *l = lego_const(ctx, cc->p->local[b->own[c] - 1]);
	return lego_div(ctx, lego_add(ctx, len, lego_sub(ctx, l,
				      lego_const(ctx, 1))), l);
}

int lift_buf_private(lift_cc *cc, lift_buf *b, lego_expr **ix, lego_expr **ln,
		     size_t n, const int *th, const lift_ast *at)
{
	lego_ctx *ctx = cc->ctx;
	if (b->space != SPACE_PRIVATE)
		return 0;
	for (size_t c = 0; c < n && c < LIFT_MAX_COORDS; c++) {
		int d = th ? th[c] : lift_loop_thread(cc, ix[c]);
		int own = d >= 0 ? d + 1 : -1;
		if (th && !b->own[c]) {
			b->own[c] = own;
		} else if (th && b->own[c] != own) {
			lift_err(cc, at, "private memory written here by %s and "
				 "elsewhere by %s: each work-item keeps its own",
				 own > 0 ? "a mapLcl" : "another loop",
				 own > 0 ? "another loop" : "a mapLcl");
			return -1;
		} else if (!th && b->own[c] > 0 && own != b->own[c]) {
			lift_err(cc, at, "private memory of mapLcl(%d)'s work-items "
				 "read at an index that is not the reading "
				 "work-item's own", b->own[c] - 1);
			return -1;
		}
		if (replicated(cc, b, c)) {
			ix[c] = lego_div(ctx, ix[c], lego_const(ctx,
					 cc->p->local[b->own[c] - 1]));
			ln[c] = held_len(cc, b, c, ln[c]);
		}
	}
	return 0;
}

/* Does a work-item read what another wrote? */
static int shared(const lift_buf *b)
{
	int parallel = 0;
	if (b->regrouped)
		return 1;
	for (size_t c = 0; c < b->ncoords; c++) {
		if (b->wr[c] == THREAD_MIXED || b->rd[c] == THREAD_MIXED)
			return 1;
		if (b->wr[c] >= 0) {
			parallel = 1;
			if (b->rd[c] != THREAD_UNSET && b->rd[c] != b->wr[c])
				return 1;
		}
	}
	/* Written by no mapLcl: every work-item writes all of it. */
	return !parallel;
}

void lift_barrier_emit(lift_cc *cc, lift_buf *b)
{
	lift_barrier *r = lego_arena_alloc(&cc->ctx->arena, sizeof *r);
	if (!r)
		return;
	r->at = cc->out.len;
	r->buf = b;
	r->next = cc->barriers;
	cc->barriers = r;
	lift_emit(cc, "%s", cc->tgt->barrier);
}

void lift_out_truncate(lift_cc *cc, size_t mark)
{
	if (cc->out.s && cc->out.len > mark) {
		cc->out.len = mark;
		cc->out.s[mark] = '\0';
	}
	while (cc->barriers && cc->barriers->at >= mark)
		cc->barriers = cc->barriers->next;
}

void lift_out_insert(lift_cc *cc, size_t mark, const char *text)
{
	size_t n = strlen(text);
	lego_sbuf_puts(&cc->out, text);   /* room, then moved into place */
	if (cc->out.oom || !n)
		return;
	memmove(cc->out.s + mark + n, cc->out.s + mark,
		cc->out.len - n - mark);
	memcpy(cc->out.s + mark, text, n);
	for (lift_barrier *r = cc->barriers; r && r->at >= mark; r = r->next)
		r->at += n;
}

int lift_barrier_insert(lift_cc *cc, size_t mark, lift_buf *b)
{
	lego_sbuf line = {0};
	lift_indent(cc, &line);
	lego_sbuf_printf(&line, "%s\n", cc->tgt->barrier);
	char *text = lego_sbuf_take(&line);
	lift_barrier *r = lego_arena_alloc(&cc->ctx->arena, sizeof *r);
	if (!text || !r) {
		free(text);
		return -1;
	}
	lift_out_insert(cc, mark, text);
	free(text);
	/* the list stays ordered, the last in the text first */
	lift_barrier **at = &cc->barriers;
	while (*at && (*at)->at > mark)
		at = &(*at)->next;
	*r = (lift_barrier){.at = mark, .buf = b, .next = *at};
	*at = r;
	return 0;
}

char *lift_body_finish(lift_cc *cc)
{
	for (lift_buf *b = cc->bufs; b; b = b->next)
		if (b->in_place && b->space == SPACE_LOCAL && shared(b)) {
			free(lego_sbuf_take(&cc->out));
			return lift_err(cc, b->at, "a reduction's accumulator in "
					"local memory is read by other work-items "
					"than the one that writes it: the in-place "
					"update would race");
		}
	char *text = lego_sbuf_take(&cc->out);
	if (!text)
		return NULL;
	/* Remove the barriers of unshared buffers, last first. */
	size_t len = strlen(text);
	for (lift_barrier *r = cc->barriers; r; r = r->next) {
		if (shared(r->buf))
			continue;
		char *nl = strchr(text + r->at, '\n');
		size_t end = nl ? (size_t)(nl - text) + 1 : len;
		memmove(text + r->at, text + end, len - end + 1);
		len -= end - r->at;
	}
	/* A barrier right after another synchronises nothing more. */
	const char *barrier_text = cc->tgt->barrier;
	size_t bl = strlen(barrier_text);
	int after_barrier = 0;
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
		char *t = line + strspn(line, "\t");
		int is_barrier = !strncmp(t, barrier_text, bl) && t[bl] == '\n';
		if (is_barrier && after_barrier) {
			memmove(line, line + n, strlen(line + n) + 1);
			continue;
		}
		after_barrier = is_barrier;
		line += n;
	}
	return text;
}

/* A target's spelling of a work-item id or stride in dimension dim. */
static void spell(char *out, size_t cap, const lift_target *t,
		  const char *fmt, int dim)
{
	char c = t->dims[dim];
	snprintf(out, cap, fmt, c, c, c);
}

int lift_loop_open(lift_cc *cc, lift_pat pat, int dim, lego_expr *i,
		   const char *name, const char *len)
{
	if (cc->nloops == LIFT_MAX_LOOPS) {
		lift_err(cc, NULL, "loops nested too deeply");
		return -1;
	}
	cc->loops[cc->nloops++] = (lift_loop){.i = i, .pat = pat, .dim = dim};
	int k = pat == PAT_MAPGLB ? 0 : pat == PAT_MAPWRG ? 1
		: pat == PAT_MAPLCL ? 2 : -1;
	if (k >= 0) {
		char id[96], step[96];
		spell(id, sizeof id, cc->tgt, cc->tgt->id[k], dim);
		spell(step, sizeof step, cc->tgt, cc->tgt->step[k], dim);
		if (k == 2 && cc->p->local[dim])   /* a declared local size */
			snprintf(step, sizeof step, "%d", cc->p->local[dim]);
		if (dim + 1 > cc->ndims)
			cc->ndims = dim + 1;
		if (k == 2 && cc->p->local[dim] && !strcmp(len, step)) {
			/* as many iterations as work-items: each its one
			 * (straight-line code for the target compiler) */
			lift_emit(cc, "{");
			cc->indent++;
			lift_emit(cc, "const int %s = %s; (void)%s;", name, id,
				  name);
			return 0;
		}
		lift_emit(cc, "for (int %s = %s; %s < %s; %s += %s) {", name, id,
			  name, len, name, step);
		if (k < 2 && !cc->range[dim]) {
			cc->range[dim] = lego_arena_strdup(&cc->ctx->arena, len);
			cc->range_wrg[dim] = k == 1;
		}
	} else {
		lift_emit(cc, "for (int %s = 0; %s < %s; %s++) {", name, name,
			  len, name);
	}
	cc->indent++;
	return 0;
}

void lift_loop_close(lift_cc *cc)
{
	cc->nloops--;
	cc->indent--;
	lift_emit(cc, "}");
}

int lift_fun_writes(const lift_fun *f)
{
	switch (f->kind) {
	case FUN_USER:
	case FUN_LAMBDA:
		return 1;
	case FUN_COMPOSE:
		return lift_fun_writes(f->f) || lift_fun_writes(f->g);
	case FUN_PATTERN:
		break;
	}
	switch (f->pat) {
	case PAT_MAP:
	case PAT_MAPSEQ:
	case PAT_MAPGLB:
	case PAT_MAPWRG:
	case PAT_MAPLCL:
	case PAT_TOGLOBAL:
	case PAT_TOLOCAL:
	case PAT_TOPRIVATE:
		return lift_fun_writes(f->f);
	case PAT_ITERATE:
		return lift_fun_writes(f->f);
	case PAT_ID:          /* Lift's id is the copying user function */
	case PAT_REDUCESEQ:
	case PAT_REDUCE:
	case PAT_MAPVEC:
		return 1;
	default:
		return 0;
	}
}

/* Local memory is the work-group's: it is written by all its work-items
 * together, so not from inside one work-item's loop. */
int lift_local_site(lift_cc *cc, const char *what, const lift_ast *at)
{
	for (int k = 0; k < cc->nloops; k++)
		if (cc->loops[k].pat == PAT_MAPLCL ||
		    cc->loops[k].pat == PAT_MAPGLB) {
			lift_err(cc, at, "%s inside %s: local memory is "
				 "shared by the work-group, write it outside the "
				 "work-items' maps", what,
				 cc->loops[k].pat == PAT_MAPLCL ? "mapLcl"
								: "mapGlb");
			return -1;
		}
	return 0;
}

lift_buf *lift_buf_new(lift_cc *cc, lift_space sp, const lift_ast *at)
{
	lift_buf *b = lego_arena_alloc(&cc->ctx->arena, sizeof *b);
	char name[32];
	snprintf(name, sizeof name, "%s%d",
		 sp == SPACE_LOCAL ? LIFT_NAME_LOCAL : LIFT_NAME_PRIVATE,
		 cc->nvars++);
	if (!b || !(b->name = lego_arena_strdup(&cc->ctx->arena, name)))
		return NULL;
	b->space = sp;
	b->at = at;
	b->next = cc->bufs;
	cc->bufs = b;
	return b;
}

void lift_buf_declare(lift_cc *cc, const lift_buf *b, lift_type_kind k,
		      long long size)
{
	if (b->space == SPACE_LOCAL)
		cc->local_bytes += size * 4;
	lego_sbuf_printf(&cc->decls, "\t%s%s %s[%lld];\n",
			 b->space == SPACE_LOCAL ? cc->tgt->local : "",
			 k == LIFT_INT ? "int" : "float", b->name, size);
}

static lift_type_kind base_kind(const lift_type *t)
{
	while (t->kind == LIFT_ARRAY)
		t = t->elems[0];
	return t->kind;
}

long long lift_buf_size(lift_cc *cc, const lift_fun *to, const lift_buf *b,
			    const lift_type *t)
{
	lego_ctx *ctx = cc->ctx;
	lego_expr *n = lego_const(ctx, 1);
	for (size_t c = 0; t->kind == LIFT_ARRAY; t = t->elems[0], c++)
		n = lego_mul(ctx, n, held_len(cc, b, c, t->len));
	lego_expr *s = lego_simplify(ctx, n);
	int64_t k;
	if (s && lego_expr_is_const(s, &k) && k > 0)
		return (long long)k;
	char *txt = s ? lego_expr_print(ctx, s, LEGO_LANG_C) : NULL;
	lift_err(cc, to->at, "%s: the size %s is not a constant (local and "
		 "private arrays are sized when the kernel is compiled)",
		 to->pat == PAT_TOLOCAL ? "toLocal" : "toPrivate",
		 txt ? txt : "?");
	free(txt);
	return -1;
}

lift_val *lift_materialise(lift_cc *cc, const lift_fun *to, lift_val **args,
			   size_t n)
{
	lift_space sp = lift_space_of(to->pat);
	if (!lift_fun_writes(to->f))
		return lift_apply(cc, to->f, args, n);
	if (sp == SPACE_LOCAL && lift_pipe_here(cc))
		return lift_pipe_copy(cc, to, args, n);
	if (sp == SPACE_GLOBAL)
		return lift_err(cc, to->at, "toGlobal of a value that is read "
				"again: only the kernel's result is global "
				"memory");
	if (sp == SPACE_LOCAL && lift_local_site(cc, "toLocal", to->at))
		return NULL;
	lift_buf *b = lift_buf_new(cc, sp, to->at);
	if (!b)
		return NULL;
	if (sp == SPACE_LOCAL && cc->nloops)
		lift_barrier_emit(cc, b);
	lift_type *t = lift_store(cc, to->f, args, n, b, to->at);
	if (!t)
		return NULL;
	if (sp == SPACE_LOCAL)
		lift_barrier_emit(cc, b);
	lift_type_kind k = base_kind(t);
	const lift_type *bt = t;
	while (bt->kind == LIFT_ARRAY)
		bt = bt->elems[0];
	if (k == LIFT_TUPLE || bt->width > 1)
		return lift_err(cc, to->at, "%s in local or private memory are "
				"not supported yet", k == LIFT_TUPLE ? "tuples"
								    : "vectors");
	long long size = lift_buf_size(cc, to, b, t);
	if (size < 0)
		return NULL;
	lift_buf_declare(cc, b, k, size);
	if (t->kind == LIFT_ARRAY)
		return lift_val_array(cc, t, lift_view_buf(cc, b));
	size_t len = strlen(b->name) + 4;
	char *text = lego_arena_alloc(&cc->ctx->arena, len);
	if (!text)
		return NULL;
	snprintf(text, len, "%s[0]", b->name);
	return lift_val_scalar(cc, k, text);
}

/* explore.c - the exploration driver: every sequence of rewrites up to a
 * depth (each rule at each of its sites, split sizes from a small set),
 * each program parsed afresh, rewritten and compiled; the distinct ones
 * that compile are reported with the path that made them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/lift.h"

/* The split sizes tried by split-join and reduce-split, the tile sides
 * by tiling, the widths by vectorize. */
static const int64_t split_sizes[] = {2, 4};
#define NSPLITS (sizeof split_sizes / sizeof split_sizes[0])

lift_program *lift_program_rewritten(lego_ctx *ctx, const char *file,
				     const char *text, size_t len,
				     const lift_step *steps, size_t nsteps,
				     int as_template)
{
	lift_program *p = lift_parse(ctx, file, text, len);
	if (p)
		p->as_template = as_template;
	for (size_t k = 0; p && k < nsteps; k++) {
		char name[32];
		snprintf(name, sizeof name, "SPLIT%zu", p->ntunes + 1);
		/* (a rule whose size is not tunable keeps its number) */
		p = lift_rewrite(ctx, p, steps[k].rule, steps[k].site,
				 steps[k].n, as_template ? name : NULL);
	}
	return p;
}

typedef struct explorer {
	const char *file, *text;
	size_t len;
	int depth;
	lift_target_kind target;
	int as_template;
	lift_explore_fn fn;
	void *user;
	lift_step path[16];
	char **seen;               /* bodies reported, to skip repeats */
	size_t nseen, cap;
	size_t tried;
} explorer;

static int seen_before(explorer *e, const char *body)
{
	for (size_t k = 0; k < e->nseen; k++)
		if (!strcmp(e->seen[k], body))
			return 1;
	if (e->nseen == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 64;
		char **s = realloc(e->seen, cap * sizeof *s);
		if (!s)
			return 1;
		e->seen = s;
		e->cap = cap;
	}
	char *copy = strdup(body);
	if (copy)
		e->seen[e->nseen++] = copy;
	return 0;
}

/* Compiles the program of path[0..n); 1 if it compiles and is new. */
static int visit(explorer *e, size_t n, size_t *nsites)
{
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		return -1;
	lift_program *p = lift_program_rewritten(ctx, e->file, e->text, e->len,
						 e->path, n, e->as_template);
	lift_kernel k;
	int ok = p && !lift_compile(ctx, p, e->target, &k);
	e->tried++;
	if (ok) {
		lift_kernel_free(&k);
		for (int r = 0; r < LIFT_NRULES; r++)
			nsites[r] = lift_rewrite_sites(ctx, p, (lift_rule)r);
		char *body = lift_ast_print(p->body);
		ok = body && !seen_before(e, body);
		if (ok && n)
			e->fn(e->user, e->path, n, body);
		free(body);
	}
	lego_ctx_free(ctx);
	return ok;
}

static void explore(explorer *e, size_t n)
{
	size_t nsites[LIFT_NRULES];
	if (visit(e, n, nsites) != 1 || (int)n == e->depth)
		return;
	for (int r = 0; r < LIFT_NRULES; r++)
		for (size_t s = 0; s < nsites[r]; s++)
			for (size_t z = 0; z < (lift_rule_takes_size((lift_rule)r) &&
						!(e->as_template &&
						  lift_rule_size_tunable((lift_rule)r))
							? NSPLITS : 1);
			     z++) {
				e->path[n] = (lift_step){(lift_rule)r, s,
							 split_sizes[z]};
				explore(e, n + 1);
			}
}

size_t lift_explore(const char *file, const char *text, size_t len,
		    int depth, lift_target_kind target, int as_template,
		    lift_explore_fn fn, void *user)
{
	explorer e = {.file = file, .text = text, .len = len,
		      .depth = depth < 16 ? depth : 16, .target = target,
		      .as_template = as_template, .fn = fn, .user = user};
	explore(&e, 0);
	for (size_t k = 0; k < e.nseen; k++)
		free(e.seen[k]);
	free(e.seen);
	return e.tried;
}

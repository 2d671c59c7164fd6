/* check.c - `lego check`: bijectivity and the inverse, exhaustively. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "proof/proof.h"

static void print_witness(const lego_layout *l, const lego_check_report *r)
{
	size_t rank = lego_layout_rank(l);
	size_t shown = rank < 16 ? rank : 16;
	printf("  witness: logical (");
	for (size_t k = 0; k < shown; k++)
		printf(k ? ", %lld" : "%lld", (long long)r->witness_idx[k]);
	printf(") -> physical %lld (other: %lld)\n", (long long)r->witness_flat,
	       (long long)r->witness_other);
}

/* The layout name of s's spec, reported as shown (a choice's alternative:
 * "NAME=k"). */
static int check_one(cli_session *s, const char *name, const char *shown)
{
	lego_layout *l = lego_spec_layout(s->spec, name);
	name = shown;
	int64_t size;
	char needs[512];
	switch (cli_concrete_size(s, l, &size, needs, sizeof needs)) {
	case SIZE_ERROR:
		printf("%s: error\n", name);
		return cli_ctx_fail(s->ctx);
	case SIZE_SYMBOLIC:
		printf("%s: skipped: symbolic sizes (needs%s)\n", name, needs);
		return CLI_SKIPPED;
	case SIZE_OVERFLOW:
		printf("%s: FAILED: its size does not fit in 64 bits\n", name);
		return CLI_FAIL;
	case SIZE_CONCRETE:
		break;
	}
	lego_check_report r = {0};
	int rc = lego_layout_check(s->ctx, l, NULL, &r);
	if (rc == LEGO_OK && r.bijective && r.inverse_ok) {
		printf("%s: bijective on %lld elements, inv(apply(i)) == i: ok\n",
		       name, (long long)r.size);
		return CLI_OK;
	}
	if (rc != LEGO_EBIJECT) {
		printf("%s: error\n", name);
		return cli_ctx_fail(s->ctx);
	}
	if (!r.bijective)
		printf("%s: NOT a bijection on %lld elements: %s\n", name,
		       (long long)r.size, lego_ctx_error(s->ctx));
	else
		printf("%s: bijective on %lld elements, inv(apply(i)) == i: "
		       "FAILED: %s\n", name, (long long)r.size,
		       lego_ctx_error(s->ctx));
	print_witness(l, &r);
	return CLI_FAIL;
}

/* The --prove run: its --timeout bounds all layouts together. */
typedef struct prove_run {
	double start, deadline;
	unsigned limit_ms;
} prove_run;

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Proofs for symbolic sizes under the spec's assumptions, each property
 * with its argument (docs/proof.md); a refutation or inconsistent
 * assumptions fail, an unknown is not a pass either.  The layout gets its
 * share of the time left: what is left over `left` layouts.  Progress on
 * stderr, one line per layout (stdout keeps the report). */
static int prove_one(cli_session *s, const char *name, const char *shown,
		     prove_run *run, size_t k, size_t n)
{
	lego_layout_proof p;
	lego_layout *l = lego_spec_layout(s->spec, name);
	name = shown;
	double ms = (run->deadline - seconds()) * 1000.0 / (double)(n - k);
	fprintf(stderr, "lego check --prove: %s: layout %zu of %zu, %.1f s "
		"elapsed\n", name, k + 1, n, seconds() - run->start);
	if (ms < 1) {
		/* The total limit is spent: nothing is tried, and it says so. */
		memset(&p, 0, sizeof p);
		p.assumptions = p.verdict = LEGO_UNKNOWN;
		for (int i = 0; i < LEGO_VP_COUNT; i++) {
			p.status[i] = LEGO_UNKNOWN;
			snprintf(p.why[i], sizeof p.why[i], "not tried, the "
				 "total limit of %u ms was spent",
				 run->limit_ms);
		}
		lego_layout_proof_print(stdout, name, &p);
		return CLI_SKIPPED;
	}
	if (lego_layout_prove(s->ctx, l, (unsigned)ms, &p) != LEGO_OK) {
		printf("%s: error\n", name);
		return cli_ctx_fail(s->ctx);
	}
	lego_layout_proof_print(stdout, name, &p);
	return p.verdict == LEGO_REFUTED ? CLI_FAIL
	       : p.verdict == LEGO_UNKNOWN ? CLI_SKIPPED : CLI_OK;
}

/* `lego check --prove [SPEC] TEMPLATE`: a template (a file with a {{
 * placeholder) is proved placeholder by placeholder (docs/proof.md,
 * "Templates"): its spec is SPEC or its {% lego %} block, as for lego
 * gen.  -1 when the arguments name no template. */
static int prove_template(const cli_args *a)
{
	const char *path = a->pos[a->npos - 1];
	size_t len;
	lego_ctx *ctx = a->prove ? lego_ctx_new() : NULL;
	/* quietly: the last argument may be a layout's NAME */
	char *text = ctx ? lego_read_file(ctx, path, &len) : NULL;
	if (!text || !strstr(text, "{{")) {
		free(text);
		lego_ctx_free(ctx);
		return -1;
	}
	lego_gen_opts o = {NULL, a->npos == 2 ? a->pos[0] : NULL, a->defs,
			   a->ndefs, NULL};
	lego_proof verdict = LEGO_UNKNOWN;
	int rc = proof_template(ctx, path, text, len, &o, a->timeout_ms,
				stdout, &verdict);
	if (rc != LEGO_OK)
		rc = cli_ctx_fail(ctx);
	else
		rc = verdict == LEGO_REFUTED ? CLI_FAIL
		     : verdict == LEGO_UNKNOWN ? CLI_SKIPPED : CLI_OK;
	lego_ctx_free(ctx);
	free(text);
	return rc;
}

/* A failure outranks a skip, which outranks a pass. */
static int worse(int rc, int one)
{
	if (one == CLI_SKIPPED && rc == CLI_OK)
		return CLI_SKIPPED;
	if (one != CLI_OK && one != CLI_SKIPPED)
		return CLI_FAIL;
	return rc;
}

/* The alternatives of `tune layout NAME in {L0, ..}` to check: all of
 * them, or the one a -D fixed. */
static size_t choice_count(const lego_tune_param *tp)
{
	return !tp->is_layout ? 0 : tp->fixed >= 0 ? 1 : tp->nvalues;
}

/* Each alternative of a layout choice is a layout of the file as much as
 * a `layout` is: it is checked in the spec read with -D NAME=k, and
 * reported as "NAME=k".  *k counts the layouts of the run done. */
static int check_choice(const cli_args *a, const lego_tune_param *tp,
			prove_run *run, size_t *k, size_t n)
{
	size_t first = tp->fixed >= 0 ? (size_t)tp->fixed : 0;
	lego_define *defs = malloc((a->ndefs + 1) * sizeof *defs);
	if (!defs)
		return cli_fail("out of memory");
	for (size_t d = 0; d < a->ndefs; d++)
		defs[d] = a->defs[d];
	cli_args b = *a;
	b.defs = defs;
	b.ndefs = a->ndefs + (tp->fixed < 0);
	int rc = CLI_OK;
	for (size_t v = first; v < first + choice_count(tp); v++) {
		char shown[160];
		snprintf(shown, sizeof shown, "%.100s=%zu", tp->name, v);
		defs[a->ndefs] = (lego_define){tp->name, (int64_t)v};
		cli_session s;
		int one = cli_open(&s, &b, NULL);
		if (one == CLI_OK)
			one = a->prove ? prove_one(&s, tp->name, shown, run,
						   (*k)++, n)
				       : check_one(&s, tp->name, shown);
		cli_close(&s);
		rc = worse(rc, one);
	}
	free(defs);
	return rc;
}

int cmd_check(const cli_args *a)
{
	int t = prove_template(a);
	if (t >= 0)
		return t;
	cli_session s;
	const char *only = a->npos > 1 ? a->pos[1] : NULL;
	int rc = cli_open(&s, a, only);
	if (!rc && a->prove && !lego_smt_available())
		printf("note: Z3 is not available (left out of the build, or "
		       "libz3 not installed): only layouts whose sizes are "
		       "all known can be proved (by enumeration)\n");
	size_t nlayouts = rc ? 0 : only ? 1 : lego_spec_nlayouts(s.spec);
	size_t ntunes = rc || only ? 0 : lego_spec_ntunes(s.spec), n = nlayouts;
	for (size_t i = 0; i < ntunes; i++)
		n += choice_count(lego_spec_tune(s.spec, i));
	if (!rc && !n)
		printf("%s: no layouts\n", s.file);
	prove_run run = {seconds(), 0, a->timeout_ms};
	run.deadline = run.start + a->timeout_ms / 1000.0;
	size_t k = 0;
	for (; k < nlayouts; k++) {
		const char *name = only ? only : lego_spec_layout_name(s.spec, k);
		rc = worse(rc, a->prove ? prove_one(&s, name, name, &run, k, n)
					: check_one(&s, name, name));
	}
	for (size_t i = 0; i < ntunes; i++)
		if (choice_count(lego_spec_tune(s.spec, i)))
			rc = worse(rc, check_choice(a, lego_spec_tune(s.spec, i),
						    &run, &k, n));
	cli_close(&s);
	return rc;
}

/* cmd_analyze.c - `lego analyze banks|coalesce`: the shared-memory bank
 * conflicts or global-memory sectors of one warp access to a layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands_extra.h"

static const char analyze_help[] =
	"Usage: lego analyze banks|coalesce FILE NAME E1 .. Ed [--tid NAME]\n"
	"       lego analyze banks|coalesce FILE NAME --thread-layout TNAME\n"
	"         [--elem-bytes B] [--access-bytes A] [--threads N]\n"
	"         [--active COND] [--base BYTES]\n"
	"         [--sweep SYM=LO:HI] [-v] [-D NAME=VALUE]...\n\n"
	"Thread t of a warp (t = 0 .. N-1) accesses one element of a buffer laid\n"
	"out by layout NAME, at the logical index (E1, .., Ed): expressions in\n"
	"the thread id (named tid unless --tid says otherwise); with\n"
	"--access-bytes, a vector of A bytes from that element on.\n"
	"  banks     shared memory, 32 banks of 4 bytes: wavefronts of the\n"
	"            request against the ideal, and the threads colliding in\n"
	"            the worst bank\n"
	"  coalesce  global memory: 32-byte sectors touched against the ideal\n"
	"            ceil(bytes requested / 32)\n"
	"docs/analysis.md states the hardware model.\n\n"
	"Options:\n"
	"  --tid NAME        the thread-id symbol of the expressions (tid)\n"
	"  --thread-layout TNAME  instead of E1 .. Ed: thread t accesses\n"
	"                    the logical index TNAME.inv(t) (a layout of FILE)\n"
	"  --elem-bytes B    element size: 1, 2, 4 (default), 8 or 16\n"
	"  --access-bytes A  bytes each thread accesses (a vector of A / B\n"
	"                    consecutive elements): 1..16, a multiple of B,\n"
	"                    aligned (default B)\n"
	"  --threads N       threads of the warp taking part, 1..32 (32)\n"
	"  --active COND     only threads where COND (in tid) is non-zero\n"
	"  --base BYTES      byte address of element 0 (0: 128-byte aligned)\n"
	"  --sweep S=LO:HI   repeat for S = LO .. HI-1, one line each, and total\n"
	"  -v                print every thread's offset and bank\n"
	"  -D NAME=VALUE     a value for a declared sym of FILE, or for another\n"
	"                    name of the expressions (repeatable)\n"
	"  -h, --help        show this help\n";

typedef struct analyze_args {
	const char *tid, *elem, *access, *threads, *active, *base, *sweep;
	const char *tlayout;
	int verbose, banks;
} analyze_args;

/* A parsed run: session, access and the values of expression names. */
typedef struct analyze_run {
	cli_session s;
	lego_env *env;
	lego_warp_access access;
	lego_expr **index;
	lego_expr *sweep_sym;
	long long lo, hi;
} analyze_run;

/* ------------------------------------------------------------ options */

/* The thread id takes every value 0 .. N-1 in turn: a value given for it
 * would be overwritten, so it is an error. */
static int not_tid(const analyze_run *r, const lego_expr *sym,
		   const char *opt)
{
	if (sym != r->access.tid)
		return CLI_OK;
	return cli_usage("analyze", "%s %s: %s is the thread id, which takes "
			 "every value 0 .. N-1 (--tid NAME names another "
			 "symbol as the thread id)", opt,
			 lego_expr_name(sym), lego_expr_name(sym));
}

static int parse_sweep(analyze_run *r, const char *text)
{
	const char *eq = strchr(text, '='), *colon = eq ? strchr(eq, ':') : NULL;
	char *end;
	if (!eq || !colon)
		return cli_usage("analyze", "--sweep expects SYM=LO:HI, got "
				 "'%s'", text);
	r->lo = strtoll(eq + 1, &end, 10);
	if (end != colon)
		return cli_usage("analyze", "--sweep %s: LO is not an integer",
				 text);
	r->hi = strtoll(colon + 1, &end, 10);
	if (*end || end == colon + 1 || r->hi <= r->lo)
		return cli_usage("analyze", "--sweep %s: HI must be an integer "
				 "above LO", text);
	char name[128];
	snprintf(name, sizeof name, "%.*s", (int)(eq - text), text);
	r->sweep_sym = lego_sym_find(r->s.ctx, name);
	if (!r->sweep_sym)
		return cli_usage("analyze", "--sweep: '%s' is not a name of the "
				 "expressions", name);
	return not_tid(r, r->sweep_sym, "--sweep");
}

static int access_numbers(const analyze_args *aa, lego_warp_access *acc)
{
	long long v;
	acc->elem_bytes = 4;
	if (aa->elem && extra_int("analyze", "--elem-bytes", aa->elem, &v))
		return CLI_USAGE;
	if (aa->elem)
		acc->elem_bytes = v;
	if (aa->access && extra_int("analyze", "--access-bytes", aa->access,
				    &v))
		return CLI_USAGE;
	if (aa->access)
		acc->access_bytes = v;
	if (aa->base && extra_int("analyze", "--base", aa->base, &v))
		return CLI_USAGE;
	if (aa->base)
		acc->base_bytes = v;
	if (aa->threads && extra_int("analyze", "--threads", aa->threads, &v))
		return CLI_USAGE;
	if (aa->threads && (v < 1 || v > LEGO_WARP))
		return cli_usage("analyze", "--threads expects 1 to 32");
	acc->nthreads = aa->threads ? (int)v : LEGO_WARP;
	return CLI_OK;
}

/* ----------------------------------------------------------- defines */

static int bind_expr_defines(analyze_run *r, const lego_define *defs,
			     size_t n)
{
	for (size_t k = 0; k < n; k++) {
		lego_expr *sym = lego_sym_find(r->s.ctx, defs[k].name);
		if (!sym)
			return cli_usage("analyze", "-D %s: not declared in %s "
					 "and not a name of the expressions",
					 defs[k].name, r->s.file);
		if (not_tid(r, sym, "-D") != CLI_OK)
			return CLI_USAGE;
		if (lego_env_bind(r->env, sym, defs[k].value) != LEGO_OK)
			return cli_ctx_fail(r->s.ctx);
	}
	return CLI_OK;
}

/* -------------------------------------------------------------- setup */

static lego_expr *parse_expr(analyze_run *r, const char *text)
{
	lego_expr *e = lego_spec_parse_expr(r->s.spec, text, NULL);
	if (!e)
		cli_ctx_fail(r->s.ctx);
	return e;
}

/* Thread t accesses TNAME.inv(t). */
static int thread_layout(analyze_run *r, const cli_args *a, const char *name)
{
	if (a->npos != 2)
		return cli_usage("analyze", "--thread-layout replaces the index "
				 "expressions; give FILE NAME only");
	r->access.threads = lego_spec_layout(r->s.spec, name);
	lego_suggest hint;
	if (!r->access.threads)
		return cli_fail("%s: no layout named '%s'%s", r->s.file, name,
				cli_layout_hint(&hint, r->s.spec, name));
	return CLI_OK;
}

static int index_exprs(analyze_run *r, const cli_args *a)
{
	size_t rank = lego_layout_rank(r->s.layout);
	if (a->npos - 2 != rank)
		return cli_usage("analyze", "layout %s has %zu logical dims; "
				 "%zu index expressions given", a->pos[1], rank,
				 a->npos - 2);
	r->index = calloc(rank, sizeof *r->index);
	if (!r->index)
		return cli_fail("out of memory");
	for (size_t k = 0; k < rank; k++)
		if (!(r->index[k] = parse_expr(r, a->pos[2 + k])))
			return CLI_FAIL;
	r->access.index = r->index;
	return CLI_OK;
}

static int parse_index(analyze_run *r, const cli_args *a,
		       const analyze_args *aa)
{
	int rc = aa->tlayout ? thread_layout(r, a, aa->tlayout)
			     : index_exprs(r, a);
	if (rc != CLI_OK)
		return rc;
	if (aa->active && !(r->access.active = parse_expr(r, aa->active)))
		return CLI_FAIL;
	r->access.tid = lego_sym(r->s.ctx, aa->tid ? aa->tid : "tid");
	if (!r->access.tid)
		return cli_ctx_fail(r->s.ctx);
	r->access.layout = r->s.layout;
	r->access.env = r->env;
	return CLI_OK;
}

static int setup(analyze_run *r, const cli_args *a, const analyze_args *aa)
{
	/* -D names FILE does not declare are names of the expressions. */
	lego_define *expr_defs = calloc(a->ndefs + 1, sizeof *expr_defs);
	size_t nexpr = 0;
	int rc = expr_defs ? cli_open_rest(&r->s, a, a->pos[1], expr_defs,
					   &nexpr)
			   : cli_fail("out of memory");
	if (rc == CLI_OK && !(r->env = lego_env_new(r->s.ctx)))
		rc = cli_ctx_fail(r->s.ctx);
	if (rc == CLI_OK)
		rc = parse_index(r, a, aa);
	if (rc == CLI_OK)
		rc = bind_expr_defines(r, expr_defs, nexpr);
	if (rc == CLI_OK && aa->sweep)
		rc = parse_sweep(r, aa->sweep);
	free(expr_defs);
	return rc;
}

/* ------------------------------------------------------------ reports */

static int popcount(uint32_t x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

static void print_threads(const lego_warp_access *acc, uint32_t active,
			  const int64_t *offset)
{
	for (int t = 0; t < LEGO_WARP; t++) {
		if (!(active >> t & 1))
			continue;
		long long byte = (long long)(acc->base_bytes +
					     offset[t] * acc->elem_bytes);
		printf("thread %d: offset %lld, byte %lld, bank %lld\n", t,
		       (long long)offset[t], byte, byte / 4 % LEGO_BANKS);
	}
}

/* "4-byte elements" or "2-byte elements in 16-byte accesses". */
static void print_width(const lego_warp_access *acc)
{
	printf("%lld-byte elements", (long long)acc->elem_bytes);
	if (acc->access_bytes && acc->access_bytes != acc->elem_bytes)
		printf(" in %lld-byte accesses", (long long)acc->access_bytes);
}

static void print_banks(const analyze_run *r, const char *name,
			const lego_bank_report *b, int verbose)
{
	printf("banks: %s, ", name);
	print_width(&r->access);
	printf(", %d of %d threads active, %d phase%s\n", popcount(b->active),
	       r->access.nthreads, b->phases, b->phases == 1 ? "" : "s");
	printf("wavefronts: %lld (ideal %lld)\n", (long long)b->wavefronts,
	       (long long)b->ideal);
	if (b->ways <= 1) {
		puts("conflicts: none");
	} else {
		printf("conflicts: %lld-way in bank %d of phase %d: threads",
		       (long long)b->ways, b->worst_bank, b->worst_phase);
		for (int k = 0; k < b->ncolliders; k++)
			printf(" %d", b->colliders[k]);
		putchar('\n');
	}
	if (verbose)
		print_threads(&r->access, b->active, b->offset);
}

static void print_coalesce(const analyze_run *r, const char *name,
			   const lego_coalesce_report *c, int verbose)
{
	printf("coalesce: %s, ", name);
	print_width(&r->access);
	printf(", %d of %d threads active, base %lld\n", popcount(c->active),
	       r->access.nthreads, (long long)r->access.base_bytes);
	printf("sectors: %lld (ideal %lld)\n", (long long)c->sectors,
	       (long long)c->ideal);
	printf("lines: %lld\nbytes: %lld\n", (long long)c->lines,
	       (long long)c->bytes);
	if (c->sectors)
		printf("efficiency: %.1f%%\n",
		       100.0 * (double)c->bytes / (double)(c->sectors * 32));
	if (verbose)
		print_threads(&r->access, c->active, c->offset);
}

/* One analysis; *cost and *ideal receive its headline numbers. */
static int analyze_once(analyze_run *r, const analyze_args *aa,
			const char *name, int quiet, int64_t *cost,
			int64_t *ideal)
{
	lego_bank_report b;
	lego_coalesce_report c;
	int rc = aa->banks ? lego_analyze_banks(r->s.ctx, &r->access, &b)
			   : lego_analyze_coalesce(r->s.ctx, &r->access, &c);
	if (rc != LEGO_OK)
		return cli_ctx_fail(r->s.ctx);
	*cost = aa->banks ? b.wavefronts : c.sectors;
	*ideal = aa->banks ? b.ideal : c.ideal;
	if (!quiet && aa->banks)
		print_banks(r, name, &b, aa->verbose);
	else if (!quiet)
		print_coalesce(r, name, &c, aa->verbose);
	return CLI_OK;
}

static int sweep(analyze_run *r, const analyze_args *aa, const char *name)
{
	const char *unit = aa->banks ? "wavefronts" : "sectors";
	int64_t cost, ideal, total = 0, total_ideal = 0;
	for (long long v = r->lo; v < r->hi; v++) {
		if (lego_env_bind(r->env, r->sweep_sym, v) != LEGO_OK)
			return cli_ctx_fail(r->s.ctx);
		int rc = analyze_once(r, aa, name, 1, &cost, &ideal);
		if (rc != CLI_OK)
			return rc;
		printf("%s=%lld: %s %lld (ideal %lld)\n",
		       lego_expr_name(r->sweep_sym), v, unit, (long long)cost,
		       (long long)ideal);
		total += cost;
		total_ideal += ideal;
	}
	printf("total: %s %lld (ideal %lld) over %lld values\n", unit,
	       (long long)total, (long long)total_ideal, r->hi - r->lo);
	return CLI_OK;
}

static int run(const cli_args *a, const analyze_args *aa)
{
	analyze_run r = {0};
	int64_t cost, ideal;
	int rc = access_numbers(aa, &r.access);
	if (rc == CLI_OK)
		rc = setup(&r, a, aa);
	if (rc == CLI_OK)
		rc = aa->sweep ? sweep(&r, aa, a->pos[1])
			       : analyze_once(&r, aa, a->pos[1], 0, &cost,
					      &ideal);
	free(r.index);
	lego_env_free(r.env);
	if (r.s.ctx)
		cli_close(&r.s);
	return rc;
}

int lego_cmd_analyze(int argc, char **argv)
{
	analyze_args aa = {0};
	const extra_opt opts[] = {
		{"--tid", &aa.tid, NULL},         {"--elem-bytes", &aa.elem, NULL},
		{"--access-bytes", &aa.access, NULL},
		{"--threads", &aa.threads, NULL}, {"--active", &aa.active, NULL},
		{"--base", &aa.base, NULL},       {"--sweep", &aa.sweep, NULL},
		{"-v", NULL, &aa.verbose},
		{"--thread-layout", &aa.tlayout, NULL},
	};
	const char *sub = argc > 0 ? argv[0] : "";
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		fputs(analyze_help, stdout);
		return CLI_OK;
	}
	if (strcmp(sub, "banks") && strcmp(sub, "coalesce"))
		return cli_usage("analyze", "expected 'banks' or 'coalesce', "
				 "got '%s'", sub);
	aa.banks = !strcmp(sub, "banks");
	argc--;
	argv++;
	int rc = extra_take_opts("analyze", &argc, argv, opts,
				 sizeof opts / sizeof opts[0]);
	if (rc != CLI_OK)
		return rc;
	cli_args a;
	rc = cli_args_parse(&a, "analyze", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(analyze_help, stdout);
	else if (rc == CLI_OK && a.npos < 3 - !!aa.tlayout)
		rc = cli_usage("analyze", "expected FILE NAME and index "
				 "expressions");
	else if (rc == CLI_OK)
		rc = run(&a, &aa);
	cli_args_free(&a);
	return rc;
}

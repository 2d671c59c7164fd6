/* tune.c - `lego tune`: search the tunable parameters of a template for
 * the fastest kernel, every measurement kept in a cache. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_tune.h"
#include "commands_extra.h"
#include "tune/tune.h"

static const char tune_help[] =
	"Usage: lego tune [SPEC] TEMPLATE --run CMD [options] [-D SYM=VALUE]...\n"
	"       lego tune [SPEC] TEMPLATE --runner opencl|cuda --kernel NAME\n"
	"                 --args ARGS --global SIZES --reference FILE [options]\n"
	"       lego tune [SPEC] TEMPLATE --space|--list [-D SYM=VALUE]...\n"
	"       lego tune [SPEC] TEMPLATE --show [--csv FILE] [-D SYM=VALUE]...\n\n"
	"Search the tunable parameters of the spec (`tune` declarations,\n"
	"docs/tuning.md) for the configuration whose kernel runs fastest.  Each\n"
	"configuration proposed is expanded like `lego gen` with its values\n"
	"as -D and measured by CMD, in which {kernel} is the path of the\n"
	"generated kernel and {NAME} the value of NAME; CMD prints the time in\n"
	"ms last.  A candidate that fails (non-zero exit, no time, time limit)\n"
	"is recorded and skipped.  Every result is kept in the cache, keyed by\n"
	"device, template, problem (-D values) and configuration: a re-run or a\n"
	"resumed run measures nothing twice.  Progress and the best so far go\n"
	"to stderr; the best configuration to stdout.\n\n"
	"The built-in runners measure in this process: --runner opencl (any\n"
	"OpenCL device: PoCL, GPUs) or cuda (NVRTC and the driver API).  They\n"
	"launch kernel NAME over the arguments of ARGS (\"a:M*K c:M*N:out M:int\":\n"
	"a buffer NAME:SIZE in elements, an expression of the -D values and\n"
	"parameters, :out when the kernel writes it, :i32 (say) when its type\n"
	"is not --elem's; a scalar NAME:int or NAME:long, the value of NAME,\n"
	"or NAME:int=EXPR) on SIZES work-items\n"
	"(\"M*N/TM\" or \"N, M\"), check each output against the kernel of the\n"
	"same name in the reference FILE (compiled with the -D values as\n"
	"macros) and keep the fastest of --reps timed launches.\n"
	"Candidates compile --jobs at a time.\n\n"
	"Options:\n"
	"  --run CMD         the measuring command\n"
	"  --runner R        opencl or cuda: measure in this process\n"
	"  --kernel NAME     the kernel's entry point (built-in runners)\n"
	"  --args ARGS       its arguments (buffers, scalars), in order\n"
	"  --global SIZES    work-items (threads) per dimension\n"
	"  --local SIZES     work-group (block) size per dimension\n"
	"  --reference FILE  the reference kernel's source\n"
	"  --ref-global SIZES, --ref-local SIZES  the reference's work-items\n"
	"                    and work-group size (default: the candidates')\n"
	"  --elem T          the buffers' element type: f32 (default), f16,\n"
	"                    i32 or i64 (compared exactly)\n"
	"  --reps N          timed launches of each candidate (default 5)\n"
	"  --jobs N          candidates compiled at once (default: 2)\n"
	"  --device-index N  the runner's device (default 0)\n"
	"  --model M         the cost model (the spec's model_ lets, an H100):\n"
	"                    order the search by it, prune what it predicts\n"
	"                    slower than --prune F (1.5) times the best, or off\n"
	"                    (default); with --list: the order and predictions\n"
	"  --model-banks L   layouts whose bank conflicts count (L1,L2)\n"
	"  --space           print the size of the space and the time taken\n"
	"  --list            print every configuration of the space\n"
	"  --show            print the best configuration and the history\n"
	"  --strategy S      exhaustive, random, anneal or bandit (default)\n"
	"  --evals N         at most N evaluations (default: the whole space)\n"
	"  --seconds S       stop after S seconds\n"
	"  --seed N          the seed of the random strategies (default 1)\n"
	"  --remeasure K     after the search, time the K fastest again in\n"
	"                    interleaved rounds and choose on the median of\n"
	"                    their rounds (default 4; 0: the search's best)\n"
	"  --rounds R        the rounds of --remeasure (default 5)\n"
	"  --db FILE         the cache (default lego-tune.db)\n"
	"  --device NAME     the device key (default: the command)\n"
	"  --timeout S       time limit of one measurement, or of one launch\n"
	"                    with a built-in runner (default 60)\n"
	"  --target T        c, cuda, opencl, triton (default) or mlir\n"
	"  --ext .EXT        suffix of the kernel file (default from the target)\n"
	"  --csv FILE        write the history as CSV (with --run or --show)\n"
	"  -q, --quiet       no progress on stderr\n"
	"  -D NAME=VALUE     a sym's value (problem sizes), or fixes a parameter\n"
	"  -h, --help        show this help\n";

/* 16 bytes a configuration of 8 parameters: 256 MiB at most. */
#define MAX_CONFIGS (1u << 24)

typedef struct tune_cli {
	const char *run, *strategy, *evals, *seconds, *seed, *db, *device;
	const char *timeout, *target, *ext, *csv;
	const char *runner, *kernel, *args, *global, *local, *reference;
	const char *elem, *reps, *jobs, *device_index, *ref_global, *ref_local;
	const char *model, *model_banks, *prune, *remeasure, *rounds;
	int space, list, show, quiet;
} tune_cli;

typedef struct tmpl_src {
	lego_ctx *ctx;
	const char *path, *spec_path, *target;
	char *text;
	size_t len;
	const lego_define *defs; /* the problem's: parameters added per run */
	size_t ndefs;
} tmpl_src;

/* One configuration's kernel, in a context of its own (every
 * instantiation declares the same names with other values). */
static char *instantiate(void *user, const lego_define *defs, size_t ndefs,
			 char *why, size_t cap)
{
	tmpl_src *t = user;
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx) {
		snprintf(why, cap, "out of memory");
		return NULL;
	}
	lego_gen_opts o = {t->target, t->spec_path, defs, ndefs, NULL};
	char *text = lego_gen(ctx, t->path, t->text, t->len, &o);
	if (!text)
		snprintf(why, cap, "%s", lego_ctx_error(ctx));
	lego_ctx_free(ctx);
	return text;
}

static int write_csv(const char *path, const lego_tune_record *r, size_t n)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return cli_fail("%s: cannot write: %s", path, strerror(errno));
	double best = INFINITY;
	fputs("eval,ms,best_ms,config,device,error\n", f);
	for (size_t i = 0; i < n; i++) {
		if (r[i].ms < best)
			best = r[i].ms;
		if (isfinite(r[i].ms))
			fprintf(f, "%zu,%.6g,", i + 1, r[i].ms);
		else
			fprintf(f, "%zu,,", i + 1);
		if (isfinite(best))
			fprintf(f, "%.6g", best);
		fprintf(f, ",\"%s\",\"%s\",\"%s\"\n", r[i].config,
			r[i].device, r[i].why ? r[i].why : "");
	}
	return fclose(f) ? cli_fail("%s: cannot write", path) : CLI_OK;
}

/* The re-measured configurations: each one's median and rounds. */
static void print_finals(const lego_tune_record *r, size_t n)
{
	if (!n)
		return;
	printf("re-measured in interleaved rounds: %zu\n", n);
	for (size_t i = 0; i < n; i++)
		printf("       %12.6g ms  %s  (median of %s)\n", r[i].ms,
		       r[i].config, r[i].why ? r[i].why : "");
}

static void print_history(const lego_tune_record *r, size_t n)
{
	printf("history: %zu evaluations\n", n);
	for (size_t i = 0; i < n; i++) {
		if (isfinite(r[i].ms))
			printf("%5zu  %12.6g ms  %s\n", i + 1, r[i].ms,
			       r[i].config);
		else
			printf("%5zu  %15s  %s: %s\n", i + 1, "failed",
			       r[i].config, r[i].why ? r[i].why : "");
	}
}

/* The choice (lego_tune_cache_best: the re-measured when there are),
 * the re-measured configurations and the history. */
static int print_all(lego_tune_cache *cache, const lego_tune_key *k,
		     const lego_tune_record *r, size_t n)
{
	char *config = NULL;
	double ms;
	lego_tune_record *f;
	size_t nf;
	int found = lego_tune_cache_best(cache, k, &config, &ms);
	if (found < 0 || lego_tune_cache_finals(cache, k, &f, &nf))
		return cli_fail("cannot read the tuning cache");
	if (found)
		printf("best: %s  %.6g ms%s\n", config, ms,
		       nf ? " (median)" : "");
	else
		printf("no successful measurement of this template and problem "
		       "(%zu recorded)\n", n);
	free(config);
	print_finals(f, nf);
	lego_tune_records_free(f, nf);
	print_history(r, n);
	return CLI_OK;
}

/* --show: the best configuration and the history on stdout (print) and
 * in the CSV file csv (when given). */
static int show(lego_tune_cache *cache, const lego_tune_key *k,
		const char *csv, int print)
{
	lego_tune_record *r;
	size_t n;
	if (lego_tune_cache_history(cache, k, &r, &n))
		return cli_fail("cannot read the tuning cache");
	int rc = print ? print_all(cache, k, r, n) : CLI_OK;
	if (!rc && csv)
		rc = write_csv(csv, r, n);
	lego_tune_records_free(r, n);
	return rc;
}

static const char *default_ext(const char *target)
{
	static const char *const exts[][2] = {
		{"c", ".c"}, {"cuda", ".cu"}, {"opencl", ".cl"},
		{"triton", ".py"}, {"mlir", ".mlir"}};
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
		if (!strcmp(target, exts[i][0]))
			return exts[i][1];
	return "";
}

typedef enum model_use { MODEL_OFF, MODEL_ORDER, MODEL_PRUNE } model_use;

/* The search and runner options, parsed. */
typedef struct run_opts {
	lego_tune_opts o;
	model_use model;
	double timeout;
	lego_tune_launch launch;    /* built-in runners; reference: a path */
	long long device_index;
} run_opts;

/* A positive integer option, or CLI_USAGE. */
static int positive(const char *opt, const char *text, long long *out)
{
	if (extra_int("tune", opt, text, out))
		return CLI_USAGE;
	return *out < 1 ? cli_usage("tune", "%s must be positive", opt)
			: CLI_OK;
}

/* The built-in runners' options. */
static int parse_launch(const tune_cli *c, run_opts *ro)
{
	long long v;
	int has = c->kernel || c->args || c->global || c->local ||
		  c->reference || c->elem || c->reps || c->ref_global ||
		  c->ref_local;
	if (!c->runner)
		return has ? cli_usage("tune", "--kernel, --args, --global, "
				       "--local, --reference, --elem and --reps "
				       "go with --runner") : CLI_OK;
	if (strcmp(c->runner, "opencl") && strcmp(c->runner, "cuda"))
		return cli_usage("tune", "unknown runner '%s' (opencl or cuda)",
				 c->runner);
	if (c->run)
		return cli_usage("tune", "give --run or --runner, not both");
	if (!c->kernel || !c->args || !c->global || !c->reference)
		return cli_usage("tune", "--runner needs --kernel, --args, "
				 "--global and --reference");
	ro->launch = (lego_tune_launch){.kernel = c->kernel, .args = c->args,
					.global = c->global, .local = c->local,
					.reference = c->reference,
					.ref_global = c->ref_global,
					.ref_local = c->ref_local,
					.timeout_s = ro->timeout};
	if (c->elem && lego_tune_elem_parse(c->elem, strlen(c->elem),
					    &ro->launch.elem))
		return cli_usage("tune", "--elem: f32, f16, i32 or i64, not "
				 "'%s'", c->elem);
	if (c->reps && positive("--reps", c->reps, &v))
		return CLI_USAGE;
	ro->launch.reps = c->reps ? (int)(v < 1000 ? v : 1000) : 0;
	return CLI_OK;
}

static int parse_opts(const tune_cli *c, run_opts *ro)
{
	long long v;
	lego_tune_opts *o = &ro->o;
	*ro = (run_opts){.o = {.method = LEGO_TUNE_BANDIT, .seed = 1,
			       .progress = !c->quiet && isatty(2), .jobs = 2,
			       .remeasure = 4, .rounds = 5},
			 .timeout = 60};
	if (c->strategy && lego_tune_method_parse(c->strategy, &o->method))
		return cli_usage("tune", "unknown strategy '%s'", c->strategy);
	if (c->evals) {
		if (positive("--evals", c->evals, &v))
			return CLI_USAGE;
		o->max_evals = (size_t)v;
	}
	if (c->remeasure) {
		if (extra_int("tune", "--remeasure", c->remeasure, &v) ||
		    v < 0 || v > 64)
			return cli_usage("tune", "--remeasure: 0 to 64");
		o->remeasure = (size_t)v;
	}
	if (c->rounds) {
		if (positive("--rounds", c->rounds, &v))
			return CLI_USAGE;
		o->rounds = v < 1000 ? (int)v : 1000;
	}
	if (c->seed) {
		if (extra_int("tune", "--seed", c->seed, &v))
			return CLI_USAGE;
		o->seed = (uint64_t)v;
	}
	if (c->jobs) {
		if (positive("--jobs", c->jobs, &v))
			return CLI_USAGE;
		o->jobs = v < 64 ? (int)v : 64;
	}
	if (c->device_index && extra_int("tune", "--device-index",
					 c->device_index, &ro->device_index))
		return CLI_USAGE;
	char *end;
	if (c->seconds && ((o->max_seconds = strtod(c->seconds, &end)) <= 0 ||
			   *end))
		return cli_usage("tune", "--seconds: expected a positive number");
	if (c->timeout && ((ro->timeout = strtod(c->timeout, &end)) <= 0 ||
			   *end))
		return cli_usage("tune", "--timeout: expected a positive number");
	static const char *const uses[] = {"off", "order", "prune"};
	for (ro->model = MODEL_OFF; c->model && strcmp(c->model, uses[ro->model]);)
		if (++ro->model > MODEL_PRUNE)
			return cli_usage("tune", "--model: off, order or prune, "
					 "not '%s'", c->model);
	ro->o.prune = 1.5;
	if (c->prune && ((ro->o.prune = strtod(c->prune, &end)) < 1 || *end))
		return cli_usage("tune", "--prune: expected a factor >= 1");
	return parse_launch(c, ro);
}

/* The options' values, checked before anything is opened or written. */
static int check_opts(const tune_cli *c)
{
	run_opts ro;
	return parse_opts(c, &ro);
}

/* The spec of one configuration, as instantiate reads it. */
static lego_spec *spec_of(void *user, lego_ctx *ctx, const lego_define *defs,
			  size_t ndefs)
{
	tmpl_src *t = user;
	lego_gen_opts o = {t->target, t->spec_path, defs, ndefs, NULL};
	return lego_gen_spec(ctx, t->path, t->text, t->len, &o);
}

/* The cost model's predictions for the space (malloc'ed); NULL after a
 * message. */
static double *predictions(tmpl_src *t, const lego_tune_space *s,
			   const char *banks)
{
	double *pred = malloc((s->nconfigs + 1) * sizeof *pred);
	lego_tune_gpu gpu = lego_tune_gpu_h100();
	if (!pred) {
		cli_fail("out of memory");
	} else if (lego_tune_model_predict(t->ctx, s, &gpu, banks, t->defs,
					   t->ndefs, spec_of, t, pred)) {
		cli_ctx_fail(t->ctx);
		free(pred);
		pred = NULL;
	}
	return pred;
}

/* The runner the options name; NULL after a message. */
static lego_tune_runner *make_runner(const tune_cli *c, run_opts *ro,
				     const char *target)
{
	if (!c->runner) {
		lego_tune_runner *r = lego_tune_runner_cmd(
			c->run, c->ext ? c->ext : default_ext(target),
			ro->timeout);
		if (!r)
			cli_fail("cannot set up the runner (out of memory or no "
				 "temporary directory)");
		return r;
	}
	size_t len;
	char err[512];
	char *ref = cli_read_file(ro->launch.reference, &len);
	if (!ref)
		return NULL;
	ro->launch.reference = ref;
	int dev = ro->device_index < 0 || ro->device_index > 1024
			  ? -1 : (int)ro->device_index;
	lego_tune_runner *r =
		!strcmp(c->runner, "cuda")
			? lego_tune_runner_cuda(&ro->launch, dev, err, sizeof err)
			: lego_tune_runner_opencl(&ro->launch, dev, err,
						  sizeof err);
	free(ref);
	if (!r)
		cli_fail("%s", err);
	return r;
}

static int search(const tune_cli *c, tmpl_src *t, const lego_tune_space *s,
		  lego_tune_cache *cache, lego_tune_key *k)
{
	run_opts ro;
	int rc = parse_opts(c, &ro); /* checked before: quiet */
	if (rc)
		return rc;
	lego_tune_opts o = ro.o;
	double *pred = NULL;
	if (ro.model != MODEL_OFF) {
		if (!(pred = predictions(t, s, c->model_banks)))
			return CLI_FAIL;
		o.prior = pred;
		o.prune = ro.model == MODEL_PRUNE ? ro.o.prune : 0;
	}
	lego_tune_runner *r = make_runner(c, &ro, t->target);
	if (!r) {
		free(pred);
		return CLI_FAIL;
	}
	k->device = c->device ? c->device : r->device;
	k->driver = r->driver;
	lego_tune_result res;
	if (lego_tune_run(t->ctx, s, &o, r, cache, k, t->defs, t->ndefs,
			  instantiate, t, &res))
		rc = cli_ctx_fail(t->ctx);
	r->free(r);
	free(pred);
	if (rc)
		return rc;
	fprintf(stderr, "tune: %s, %zu evaluations (%zu measured, %zu failed) "
		"in %.2f s\n", lego_tune_method_name(o.method), res.evals,
		res.measured, res.failed, res.seconds);
	if (res.finalists)
		fprintf(stderr, "tune: the best %zu re-measured in %d interleaved "
			"rounds (%zu measured), chosen on the median\n",
			res.finalists, res.rounds, res.remeasured);
	if (res.best == SIZE_MAX)
		return cli_fail("no configuration could be measured");
	char *best = lego_tune_space_describe(s, res.best, 0);
	char *label = lego_tune_space_describe(s, res.best, 1);
	printf("best: %s  %.6g ms%s\n", best ? best : "", res.best_ms,
	       res.finalists ? " (median)" : "");
	if (label && best && strcmp(label, best))
		printf("      %s\n", label);
	free(best);
	free(label);
	if (c->csv) {
		lego_tune_key all = *k;
		all.device = NULL;
		return show(cache, &all, c->csv, 0);
	}
	return CLI_OK;
}

/* --list: one configuration a line, as -D values; with a model, in the
 * order of its predictions, each after the configuration. */
static int list(const tune_cli *c, tmpl_src *t, const lego_tune_space *s)
{
	run_opts ro;
	double *pred = NULL;
	int rc = parse_opts(c, &ro); /* checked before */
	if (!rc && ro.model != MODEL_OFF &&
	    !(pred = predictions(t, s, c->model_banks)))
		rc = CLI_FAIL;
	lego_tune_search *q = rc ? NULL
			: lego_tune_search_new(s, LEGO_TUNE_EXHAUSTIVE, 1);
	if (!rc && !q)
		rc = cli_fail("out of memory");
	if (q && pred)
		lego_tune_search_prior(q, pred, ro.model == MODEL_PRUNE
						 ? ro.o.prune : 0);
	for (size_t i; q && (i = lego_tune_search_next(q)) != SIZE_MAX;) {
		char *cfg = lego_tune_space_describe(s, i, 0);
		if (!cfg) {
			rc = cli_fail("out of memory");
			break;
		}
		if (pred)
			printf("%s  %.4g\n", cfg, pred[i]);
		else
			puts(cfg);
		free(cfg);
		lego_tune_search_tell(q, i, 0);
	}
	lego_tune_search_free(q);
	free(pred);
	return rc;
}

static int tune(const tune_cli *c, const cli_args *a)
{
	tmpl_src t = {.path = a->pos[a->npos - 1],
		      .spec_path = a->npos == 2 ? a->pos[0] : NULL,
		      .target = c->target ? c->target : "triton",
		      .defs = a->defs, .ndefs = a->ndefs};
	if (!(t.text = cli_read_file(t.path, &t.len)))
		return CLI_FAIL;
	char hash[17];
	int rc = lego_tune_template_hash(t.text, t.len, t.spec_path, hash)
			 ? cli_fail("%s: cannot read: %s", t.spec_path,
				    strerror(errno))
			 : CLI_OK;
	lego_tune_space s = {0};
	lego_tune_cache *cache = NULL;
	char *problem = lego_tune_problem_key(a->defs, a->ndefs);
	t.ctx = lego_ctx_new();
	lego_gen_opts o = {t.target, t.spec_path, a->defs, a->ndefs, NULL};
	lego_spec *spec = rc || !t.ctx || !problem
				  ? NULL
				  : lego_gen_spec(t.ctx, t.path, t.text, t.len, &o);
	if (rc) {
	} else if (!t.ctx || !problem) {
		rc = cli_fail("out of memory");
	} else if (!spec || lego_tune_space_build(t.ctx, spec, MAX_CONFIGS, &s)) {
		rc = cli_ctx_fail(t.ctx);
	} else if (c->space) {
		printf("space: %zu configurations of %zu parameters (cross "
		       "product %.4g), %zu constraint checks, %.4f s\n",
		       s.nconfigs, s.nparams, s.raw, s.checks, s.seconds);
	} else if (c->list) {
		rc = list(c, &t, &s);
	} else {
		char err[512];
		cache = lego_tune_cache_open(c->db ? c->db : "lego-tune.db", err,
					     sizeof err);
		lego_tune_key k = {c->device, NULL, hash, problem};
		if (!cache)
			rc = cli_fail("%s", err);
		else if (c->show)
			rc = show(cache, &k, c->csv, 1);
		else
			rc = search(c, &t, &s, cache, &k);
	}
	lego_tune_cache_close(cache);
	lego_tune_space_free(&s);
	lego_ctx_free(t.ctx);
	free(problem);
	free(t.text);
	return rc;
}

int lego_cmd_tune(int argc, char **argv)
{
	tune_cli c = {0};
	const extra_opt opts[] = {
		{"--run", &c.run, NULL},         {"--strategy", &c.strategy, NULL},
		{"--evals", &c.evals, NULL},     {"--seconds", &c.seconds, NULL},
		{"--seed", &c.seed, NULL},       {"--db", &c.db, NULL},
		{"--device", &c.device, NULL},   {"--timeout", &c.timeout, NULL},
		{"--target", &c.target, NULL},   {"--ext", &c.ext, NULL},
		{"--csv", &c.csv, NULL},         {"--space", NULL, &c.space},
		{"--show", NULL, &c.show},       {"--quiet", NULL, &c.quiet},
		{"-q", NULL, &c.quiet},          {"--list", NULL, &c.list},
		{"--runner", &c.runner, NULL},   {"--kernel", &c.kernel, NULL},
		{"--args", &c.args, NULL},       {"--global", &c.global, NULL},
		{"--local", &c.local, NULL},     {"--elem", &c.elem, NULL},
		{"--reference", &c.reference, NULL},
		{"--reps", &c.reps, NULL},       {"--jobs", &c.jobs, NULL},
		{"--device-index", &c.device_index, NULL},
		{"--ref-global", &c.ref_global, NULL},
		{"--ref-local", &c.ref_local, NULL},
		{"--model", &c.model, NULL},     {"--prune", &c.prune, NULL},
		{"--model-banks", &c.model_banks, NULL},
		{"--remeasure", &c.remeasure, NULL},
		{"--rounds", &c.rounds, NULL},
	};
	cli_args a;
	int rc = extra_take_opts("tune", &argc, argv, opts,
				 sizeof opts / sizeof opts[0]);
	if (rc != CLI_OK)
		return rc;
	rc = cli_args_parse(&a, "tune", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(tune_help, stdout);
	else if (rc == CLI_OK && (a.npos < 1 || a.npos > 2))
		rc = cli_usage("tune", "expected [SPEC] TEMPLATE, got %zu "
			       "arguments", a.npos);
	else if (rc == CLI_OK && !c.run && !c.runner && !c.space && !c.list &&
		 !c.show)
		rc = cli_usage("tune", "give --run CMD, --runner R, --space, "
			       "--list or --show");
	else if (rc == CLI_OK)
		rc = check_opts(&c);
	if (rc == CLI_OK && !a.help)
		rc = tune(&c, &a);
	cli_args_free(&a);
	return rc;
}

/* gen.c - `lego gen`: expand a template's placeholders for a target. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_gen.h"
#include "commands_extra.h"
#include "tune/tune.h"

static const char gen_help[] =
	"Usage: lego gen [SPEC] TEMPLATE [-o OUT] [--target c|cuda|opencl|triton|mlir]\n"
	"                [--smt] [-D SYM=VALUE]...\n\n"
	"Replace every {{ ... }} placeholder of TEMPLATE by its simplified\n"
	"expression printed for the target (default triton).  A placeholder is an\n"
	"expression over the names of the spec in which layout L appears as\n"
	"L[i, .., :, s:e, NAME = :], L.inv(e)[k] or L.size; names it does not\n"
	"declare are index variables over the dim they index.  Subexpressions\n"
	"shared on a line are defined once before it.  The spec is the file SPEC\n"
	"or the lines between {% lego %} and {% end %} in TEMPLATE\n"
	"(docs/templates.md).\n\n"
	"Options:\n"
	"  -o OUT          write to OUT (a file is replaced whole, never\n"
	"                  half-written; docs/limits.md)\n"
	"  --target T      c, cuda, opencl, triton (default) or mlir\n"
	"  --smt           let Z3 prove what the range reasoning cannot\n"
	"  --tuned DB      add the best configuration `lego tune` recorded in the\n"
	"                  cache DB for this template and these -D values\n"
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n"
	"  -h, --help      show this help\n";

/* --tuned: the -D values followed by those of the best configuration
 * recorded for this template and problem (*out, malloc'ed; their names
 * live in *names, to free after). */
static int tuned_defines(const cli_args *a, const char *db, const char *text,
			 size_t len, lego_define **out, size_t *n,
			 lego_define **names)
{
	const char *spec = a->npos == 2 ? a->pos[0] : NULL;
	char hash[17], err[512], *config = NULL;
	double ms;
	if (lego_tune_template_hash(text, len, spec, hash))
		return cli_fail("%s: cannot read: %s", spec, strerror(errno));
	char *problem = lego_tune_problem_key(a->defs, a->ndefs);
	lego_tune_cache *cache = lego_tune_cache_open(db, err, sizeof err);
	lego_tune_key k = {NULL, NULL, hash, problem};
	int found = problem && cache ? lego_tune_cache_best(cache, &k, &config,
							    &ms) : -1;
	size_t nc = 0;
	lego_define *cfg = found == 1 ? lego_tune_config_parse(config, &nc)
				      : NULL;
	*out = cfg ? malloc((a->ndefs + nc) * sizeof **out) : NULL;
	int rc = CLI_OK;
	if (!cache)
		rc = cli_fail("%s", err);
	else if (found == 0)
		rc = cli_fail("%s: no tuned configuration for this template and "
			      "problem (%s): run lego tune first", db,
			      problem);
	else if (!*out)
		rc = cli_fail("%s: cannot read the tuned configuration", db);
	if (!rc) {
		fprintf(stderr, "lego gen: tuned: %s (%.6g ms)\n", config, ms);
		memcpy(*out, a->defs, a->ndefs * sizeof **out);
		memcpy(*out + a->ndefs, cfg, nc * sizeof **out);
		*n = a->ndefs + nc;
		*names = cfg;
	}
	if (rc) {
		free(cfg);
		free(*out);
		*out = NULL;
	}
	free(config);
	free(problem);
	lego_tune_cache_close(cache);
	return rc;
}

static int generate(const cli_args *a, const char *target, const char *out,
		    const char *tuned)
{
	const char *tpl = a->pos[a->npos - 1];
	size_t len;
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		return cli_fail("out of memory");
	char *text = lego_read_file(ctx, tpl, &len);
	if (!text) {
		int rc = cli_ctx_fail(ctx);
		lego_ctx_free(ctx);
		return rc;
	}
	lego_define *defs = NULL, *names = NULL;
	size_t ndefs = 0;
	if (tuned && tuned_defines(a, tuned, text, len, &defs, &ndefs, &names)) {
		free(text);
		lego_ctx_free(ctx);
		return CLI_FAIL;
	}
	lego_gen_opts o = {target, a->npos == 2 ? a->pos[0] : NULL,
			   defs ? defs : a->defs, defs ? ndefs : a->ndefs,
			   stderr};
	char *result = a->smt && lego_ctx_use_smt(ctx, 1) != LEGO_OK
			       ? NULL
			       : lego_gen(ctx, tpl, text, len, &o);
	int rc = result ? cli_write_output(out, result, a->pos, a->npos)
			: cli_ctx_fail(ctx);
	free(result);
	free(text);
	lego_ctx_free(ctx);
	free(defs);
	free(names);
	return rc;
}

int lego_cmd_gen(int argc, char **argv)
{
	const char *out = NULL, *target = NULL, *tuned = NULL;
	const extra_opt opts[] = {
		{"-o", &out, NULL},
		{"--target", &target, NULL},
		{"--tuned", &tuned, NULL},
	};
	cli_args a;
	int rc = extra_take_opts("gen", &argc, argv, opts,
				 sizeof opts / sizeof opts[0]);
	if (rc != CLI_OK)
		return rc;
	rc = cli_args_parse(&a, "gen", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(gen_help, stdout);
	else if (rc == CLI_OK && (a.npos < 1 || a.npos > 2))
		rc = cli_usage("gen", "expected [SPEC] TEMPLATE, got %zu "
			       "arguments", a.npos);
	else if (rc == CLI_OK)
		rc = generate(&a, target ? target : "triton", out, tuned);
	cli_args_free(&a);
	return rc;
}

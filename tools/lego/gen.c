/* gen.c - `lego gen`: expand a template's placeholders for a target. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd_gen.h"
#include "commands_extra.h"

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
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n"
	"  -h, --help      show this help\n";

static int generate(const cli_args *a, const char *target, const char *out)
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
	lego_gen_opts o = {target, a->npos == 2 ? a->pos[0] : NULL, a->defs,
			   a->ndefs, stderr};
	char *result = a->smt && lego_ctx_use_smt(ctx, 1) != LEGO_OK
			       ? NULL
			       : lego_gen(ctx, tpl, text, len, &o);
	int rc = result ? cli_write_output(out, result, a->pos, a->npos)
			: cli_ctx_fail(ctx);
	free(result);
	free(text);
	lego_ctx_free(ctx);
	return rc;
}

int lego_cmd_gen(int argc, char **argv)
{
	const char *out = NULL, *target = NULL;
	const extra_opt opts[] = {
		{"-o", &out, NULL},
		{"--target", &target, NULL},
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
		rc = generate(&a, target ? target : "triton", out);
	cli_args_free(&a);
	return rc;
}

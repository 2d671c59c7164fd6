/* gen.c - `lego gen`: expand a template's placeholders for a target. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	"  -o OUT          write to OUT (replaced whole, never half-written)\n"
	"  --target T      c, cuda, opencl, triton (default) or mlir\n"
	"  --smt           let Z3 prove what the range reasoning cannot\n"
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n"
	"  -h, --help      show this help\n";

/* The whole file, NUL-terminated, in a malloc'ed buffer. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t cap = 0;
	*len = 0;
	while (f) {
		if (cap - *len < 2) {
			char *grown = realloc(text, cap ? 2 * cap : 8192);
			if (!grown)
				break;
			text = grown;
			cap = cap ? 2 * cap : 8192;
		}
		size_t got = fread(text + *len, 1, cap - *len - 1, f);
		*len += got;
		if (got == 0) {
			int bad = ferror(f);
			fclose(f);
			if (bad)
				break;
			text[*len] = '\0';
			return text;
		}
	}
	if (f)
		fclose(f);
	free(text);
	return NULL;
}

static int generate(const cli_args *a, const char *target, const char *out)
{
	const char *tpl = a->pos[a->npos - 1];
	size_t len;
	char *text = slurp(tpl, &len);
	if (!text)
		return cli_fail("%s: cannot read: %s", tpl, strerror(errno));
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx) {
		free(text);
		return cli_fail("out of memory");
	}
	lego_gen_opts o = {target, a->npos == 2 ? a->pos[0] : NULL, a->defs,
			   a->ndefs, stderr};
	char *result = a->smt && lego_ctx_use_smt(ctx, 1) != LEGO_OK
			       ? NULL
			       : lego_gen(ctx, tpl, text, len, &o);
	int rc = result ? cli_write_output(out, result) : cli_ctx_fail(ctx);
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

/* infer.c - `lego infer`: the layouts of a tile program inferred from its
 * anchors, described, or the program written as a CUDA kernel. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd_infer.h"
#include "commands_extra.h"
#include "synth/synth.h"

static const char infer_help[] =
	"Usage: lego infer FILE [--cuda] [-o OUT]\n\n"
	"Infer the layouts of the tile program FILE (docs/synthesis.md): the\n"
	"mma fixes the TV layouts of its operands and accumulator, casts carry\n"
	"them, each load gets the widest ldmatrix that gives its registers\n"
	"their layout, and each shared tile the layout `lego synth` chooses for\n"
	"its copy and its load.  Conflicting constraints are errors at both\n"
	"places (file:line:col).\n\n"
	"Prints the inferred layouts in words, or with --cuda the program as a\n"
	"CUDA kernel (a cp.async pipeline of the program's stages, ldmatrix,\n"
	"mma.sync) and its launch function, every index from those layouts.\n\n"
	"Options:\n"
	"  --cuda          write the CUDA kernel\n"
	"  -o OUT          write to OUT (replaced only when complete)\n"
	"  -h, --help      show this help\n";

static int infer(const char *file, int cuda, const char *out)
{
	cli_source src;
	if (cli_source_open(&src, file))
		return CLI_FAIL;
	lego_ctx *ctx = src.ctx;
	synth_prog *p = synth_prog_parse(ctx, file, src.text, src.len);
	char *res = p && !synth_prog_infer(ctx, p)
			    ? (cuda ? synth_prog_cuda : synth_prog_report)(ctx, p)
			    : NULL;
	int rc = res ? cli_write_output(out, res, &file, 1) : cli_ctx_fail(ctx);
	free(res);
	cli_source_close(&src);
	return rc;
}

int lego_cmd_infer(int argc, char **argv)
{
	const char *out = NULL;
	int cuda = 0;
	const extra_opt opts[] = {{"-o", &out, NULL}, {"--cuda", NULL, &cuda}};
	cli_args a;
	int rc = extra_take_opts("infer", &argc, argv, opts, 2);
	if (rc != CLI_OK)
		return rc;
	rc = cli_args_parse(&a, "infer", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(infer_help, stdout);
	else if (rc == CLI_OK && (a.npos != 1 || a.ndefs))
		rc = cli_usage("infer", "expected FILE, got %zu arguments",
			       a.npos);
	else if (rc == CLI_OK)
		rc = infer(a.pos[0], cuda, out);
	cli_args_free(&a);
	return rc;
}

/* mlir.c - `lego mlir`: a layout's index functions as an MLIR module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_mlir.h"
#include "commands_extra.h"
#include "gen/mlir.h"

static const char mlir_help[] =
	"Usage: lego mlir FILE NAME [-o OUT] [--smt] [-D SYM=VALUE]...\n\n"
	"Write the index functions of layout NAME as MLIR (arith dialect on\n"
	"index values, func.func), ready for mlir-opt:\n"
	"  func.func @NAME_apply(%i0: index, .., %S: index, ..) -> index\n"
	"  func.func @NAME_inv(%i_flat: index, %S: index, ..) -> (index, ..)\n"
	"S.. are the sizes left symbolic, sorted by name.  docs/mlir.md.\n\n"
	"Options:\n"
	"  -o OUT          write to OUT (replaced only when complete)\n"
	"  --smt           let Z3 prove what the range reasoning cannot\n"
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n"
	"  -h, --help      show this help\n";

static int emit(const cli_args *a, const char *out)
{
	cli_session s;
	int rc = cli_open(&s, a, a->pos[1]);
	if (rc == CLI_OK) {
		char *text = lego_mlir_module(s.ctx, s.spec, a->pos[1]);
		rc = text ? cli_write_output(out, text) : cli_ctx_fail(s.ctx);
		free(text);
	}
	if (s.ctx)
		cli_close(&s);
	return rc;
}

int lego_cmd_mlir(int argc, char **argv)
{
	const char *out = NULL;
	const extra_opt opts[] = {{"-o", &out, NULL}};
	cli_args a;
	int rc = extra_take_opts("mlir", &argc, argv, opts, 1);
	if (rc != CLI_OK)
		return rc;
	rc = cli_args_parse(&a, "mlir", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(mlir_help, stdout);
	else if (rc == CLI_OK && a.npos != 2)
		rc = cli_usage("mlir", "expected FILE NAME, got %zu arguments",
			       a.npos);
	else if (rc == CLI_OK)
		rc = emit(&a, out);
	cli_args_free(&a);
	return rc;
}

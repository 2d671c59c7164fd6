/* accessor.c - `lego accessor`: a layout as a C/CUDA/OpenCL header. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_accessor.h"
#include "commands_extra.h"
#include "gen/accessor.h"

static const char accessor_help[] =
	"Usage: lego accessor FILE NAME [--target c|cuda|opencl] [-o OUT.h]\n"
	"                     [--smt] [-D SYM=VALUE]...\n\n"
	"Write a header that indexes a buffer through layout NAME:\n"
	"  NAME_at(i0, .., S..)          the physical offset of (i0, ..)\n"
	"  NAME_inv(x, S.., &i0, ..)     the logical index of offset x\n"
	"S.. are the sizes left symbolic, sorted by name.  For CUDA also\n"
	"NAME_arr<T>{base, S..}: a[i][j] is base[NAME_at(i, j, S..)] (the\n"
	"paper's Arr2D), so a kernel's body is unchanged.  docs/accessors.md.\n\n"
	"Options:\n"
	"  --target T      c (default), cuda or opencl\n"
	"  -o OUT          write to OUT (replaced only when complete)\n"
	"  --smt           let Z3 prove what the range reasoning cannot\n"
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n"
	"  -h, --help      show this help\n";

static int target_of(const char *t, lego_target *out)
{
	static const char *const names[] = {"c", "cuda", "opencl"};
	static const lego_target targets[] = {
		LEGO_TARGET_C, LEGO_TARGET_CUDA, LEGO_TARGET_OPENCL};
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(t ? t : "c", names[i])) {
			*out = targets[i];
			return CLI_OK;
		}
	return cli_usage("accessor", "unknown target '%s' (c, cuda, opencl)",
			 t);
}

static int emit(const cli_args *a, lego_target target, const char *out)
{
	cli_session s;
	int rc = cli_open(&s, a, a->pos[1]);
	if (rc == CLI_OK) {
		char *text = lego_accessor_header(s.ctx, s.layout, a->pos[1],
						  target);
		rc = text ? cli_write_output(out, text) : cli_ctx_fail(s.ctx);
		free(text);
	}
	if (s.ctx)
		cli_close(&s);
	return rc;
}

int lego_cmd_accessor(int argc, char **argv)
{
	const char *out = NULL, *tname = NULL;
	const extra_opt opts[] = {{"-o", &out, NULL},
				  {"--target", &tname, NULL}};
	cli_args a;
	lego_target target = LEGO_TARGET_C;
	int rc = extra_take_opts("accessor", &argc, argv, opts, 2);
	if (rc != CLI_OK)
		return rc;
	rc = cli_args_parse(&a, "accessor", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(accessor_help, stdout);
	else if (rc == CLI_OK && a.npos != 2)
		rc = cli_usage("accessor", "expected FILE NAME, got %zu "
					   "arguments", a.npos);
	else if (rc == CLI_OK && (rc = target_of(tname, &target)) == CLI_OK)
		rc = emit(&a, target, out);
	cli_args_free(&a);
	return rc;
}

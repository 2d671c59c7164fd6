/* lift.c - `lego lift`: a Lift program compiled to an OpenCL kernel (or
 * its host launch code). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_lift.h"
#include "commands_extra.h"
#include "lift/lift.h"

static const char lift_help[] =
	"Usage: lego lift FILE [--target opencl|cuda] [--host | --type] [-o OUT]\n\n"
	"Compile the Lift program FILE (docs/lift.md): its kernel's patterns\n"
	"become loops over the work-items, its views index\n"
	"expressions through LEGO layouts.  The kernel takes its arrays, then\n"
	"`out`, then the size symbols as ints.\n\n"
	"Options:\n"
	"  --target T      opencl (the default) or cuda\n"
	"  --host          write the host code instead: NAME_out_len(sizes)\n"
	"                  and NAME_launch: for OpenCL (queue, kernel, args..,\n"
	"                  global, local), a C header to include after\n"
	"                  <CL/cl.h>; for CUDA (args.., grid, block, stream),\n"
	"                  to include after the kernel in one .cu file\n"
	"  --type          print the kernel's result type and exit\n"
	"  -o OUT          write to OUT (replaced only when complete)\n"
	"  -h, --help      show this help\n";

static int compile(const char *file, lift_target_kind target, int host,
		   int type, const char *out)
{
	size_t len;
	char *text = cli_read_file(file, &len);
	if (!text)
		return CLI_FAIL;
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx) {
		free(text);
		return cli_fail("out of memory");
	}
	lift_program *p = lift_parse(ctx, file, text, len);
	lift_kernel k;
	int rc = p && !lift_compile(ctx, p, target, &k) ? CLI_OK : cli_ctx_fail(ctx);
	if (rc == CLI_OK) {
		char *t = type ? lift_type_print(ctx, k.result) : NULL;
		if (t) {
			size_t n = strlen(t);
			char *line = realloc(t, n + 2);
			if (line) {
				memcpy(line + n, "\n", 2);
				t = line;
			}
		}
		rc = cli_write_output(out, type ? (t ? t : "?\n")
						: host ? k.host : k.source,
				      &file, 1);
		free(t);
		lift_kernel_free(&k);
	}
	lego_ctx_free(ctx);
	free(text);
	return rc;
}

int lego_cmd_lift(int argc, char **argv)
{
	const char *out = NULL, *target = NULL;
	int host = 0, type = 0;
	const extra_opt opts[] = {{"-o", &out, NULL},
				  {"--target", &target, NULL},
				  {"--host", NULL, &host},
				  {"--type", NULL, &type}};
	cli_args a;
	int rc = extra_take_opts("lift", &argc, argv, opts, 4);
	if (rc != CLI_OK)
		return rc;
	rc = cli_args_parse(&a, "lift", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(lift_help, stdout);
	else if (rc == CLI_OK && a.npos != 1)
		rc = cli_usage("lift", "expected FILE, got %zu arguments",
			       a.npos);
	else if (rc == CLI_OK && a.ndefs)
		rc = cli_usage("lift", "-D is not supported: sizes are kernel "
				       "arguments");
	else if (rc == CLI_OK && target && strcmp(target, "opencl") &&
		 strcmp(target, "cuda"))
		rc = cli_usage("lift", "unknown target '%s' (opencl, cuda)",
			       target);
	else if (rc == CLI_OK)
		rc = compile(a.pos[0],
			     target && !strcmp(target, "cuda") ? LIFT_TARGET_CUDA
							       : LIFT_TARGET_OPENCL,
			     host, type, out);
	cli_args_free(&a);
	return rc;
}

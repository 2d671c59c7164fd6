/* mdh.c - `lego mdh`: an MDH program lowered to OpenCL or CUDA kernels,
 * their host code, or the template that `lego tune` searches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_mdh.h"
#include "commands_extra.h"
#include "mdh/mdh.h"

static const char mdh_help[] =
	"Usage: lego mdh FILE [--target opencl|cuda|nvrtc] [--host] [--template]\n"
	"                [--max-wg N] [-D NAME=VALUE]... [-o OUT]\n\n"
	"Lower the MDH program FILE (docs/mdh.md: sizes, md_hom with one\n"
	"combine operator per dimension, input and output views, a scalar\n"
	"function in C) to OpenCL or CUDA: the kernel NAME (and NAME_grid\n"
	"when a reduction may span work-groups), every index from LEGO\n"
	"layouts.\n"
	"The kernel takes the input buffers, the output buffers, a scratch\n"
	"buffer per output when the program reduces, then the sizes as\n"
	"ints.\n\n"
	"-D gives sizes (they become constants) and the parameters of the\n"
	"low-level form, per dimension d: L_d work-items per work-group, P_d\n"
	"elements per work-item, O_d the order of the two (1 to 3), and more\n"
	"(docs/mdh.md: G_d, R_d, M_X, M_2, W_d, B_ord, B_sm).  Those not\n"
	"given take defaults (all 1, L = 32 along the last ++ dim).\n\n"
	"Options:\n"
	"  --target T      opencl (default) or cuda (the kernels, then\n"
	"                  NAME_BUF_len(sizes) and NAME_launch(buffers..,\n"
	"                  sizes..), which takes device pointers), or nvrtc\n"
	"                  (the CUDA kernels alone, extern \"C\", no includes:\n"
	"                  for lego tune --runner cuda)\n"
	"  --host          OpenCL: write the host code instead:\n"
	"                  NAME_BUF_len(sizes) and NAME_launch(queue, kernel\n"
	"                  [, grid], buffers.., sizes..), a C header to\n"
	"                  include after <CL/cl.h>\n"
	"  --template      write the template (spec block with the tunable\n"
	"                  parameters, and placeholders) instead of code: the\n"
	"                  input of `lego tune` and `lego gen`\n"
	"  --max-wg N      the largest work-group (default 256), a constraint\n"
	"  -o OUT          write to OUT (replaced only when complete)\n"
	"  -h, --help      show this help\n";

static int compile(const char *file, mdh_target target, int host, int tpl,
		   long long maxwg, const lego_define *defs, size_t ndefs,
		   const char *out)
{
	cli_source src;
	if (cli_source_open(&src, file))
		return CLI_FAIL;
	lego_ctx *ctx = src.ctx;
	mdh_program *p = mdh_parse(ctx, file, src.text, src.len);
	mdh_templates t = {0};
	int rc = p && !mdh_lower(ctx, p, target, maxwg, &t) ? CLI_OK
							      : cli_ctx_fail(ctx);
	if (rc == CLI_OK) {
		const char *which = host ? t.host : t.kernel;
		char *code = tpl ? NULL
				 : mdh_instantiate(ctx, p, which,
						   host ? "c" : target == MDH_OPENCL
								? "opencl" : "cuda",
						   defs,
						   ndefs);
		if (!tpl && !code)
			rc = cli_ctx_fail(ctx);
		else
			rc = cli_write_output(out, tpl ? which : code, &file, 1);
		free(code);
		mdh_templates_free(&t);
	}
	cli_source_close(&src);
	return rc;
}

int lego_cmd_mdh(int argc, char **argv)
{
	const char *out = NULL, *target = NULL, *maxwg_text = NULL;
	int host = 0, tpl = 0;
	const extra_opt opts[] = {{"-o", &out, NULL},
				  {"--target", &target, NULL},
				  {"--max-wg", &maxwg_text, NULL},
				  {"--host", NULL, &host},
				  {"--template", NULL, &tpl}};
	cli_args a;
	long long maxwg = 256;
	int rc = extra_take_opts("mdh", &argc, argv, opts, 5);
	if (rc != CLI_OK)
		return rc;
	if (maxwg_text && (rc = extra_int("mdh", "--max-wg", maxwg_text,
					  &maxwg)) != CLI_OK)
		return rc;
	if (maxwg < 1 || maxwg > 65536)
		return cli_usage("mdh", "--max-wg must be in [1, 65536]");
	rc = cli_args_parse(&a, "mdh", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(mdh_help, stdout);
	else if (rc == CLI_OK && a.npos != 1)
		rc = cli_usage("mdh", "expected FILE, got %zu arguments", a.npos);
	else if (rc == CLI_OK && target && strcmp(target, "opencl") &&
		 strcmp(target, "cuda") && strcmp(target, "nvrtc"))
		rc = cli_usage("mdh", "unknown target '%s' (opencl, cuda or "
				      "nvrtc)", target);
	else if (rc == CLI_OK && host && target && strcmp(target, "opencl"))
		rc = cli_usage("mdh", "--host is for OpenCL: the CUDA launch "
				      "function is in the kernel file");
	else if (rc == CLI_OK && tpl && a.ndefs)
		rc = cli_usage("mdh", "--template takes no -D: give them to "
				      "lego gen or lego tune");
	else if (rc == CLI_OK)
		rc = compile(a.pos[0], !target || !strcmp(target, "opencl")
				 ? MDH_OPENCL : !strcmp(target, "cuda") ? MDH_CUDA
				 : MDH_NVRTC, host, tpl, maxwg,
			     a.defs, a.ndefs, out);
	cli_args_free(&a);
	return rc;
}

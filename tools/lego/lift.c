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
	"Usage: lego lift FILE [--target opencl|cuda]\n"
	"                      [--host | --type | --template | --macros]\n"
	"                      [--rewrite STEPS | --explore DEPTH] [-o OUT]\n\n"
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
	"  --template      write a template for `lego tune`: the split sizes\n"
	"                  of the --rewrite steps (SPLIT1, ...) and the\n"
	"                  work-group sizes (LOCAL0, ...) tune parameters with\n"
	"                  their constraints, every size a macro; with\n"
	"                  --explore, explore with those parameters\n"
	"  --macros        the kernel with its sizes macros, not arguments\n"
	"                  (a reference for `lego tune`: -DN=... defines them)\n"
	"  --rewrite STEPS apply rewrite rules first: RULE:SITE[:N],...\n"
	"                  (rules: fusion, split-join, reduce-split, to-seq,\n"
	"                  to-glb, to-wrg, to-lcl, tiling, vectorize, unroll;\n"
	"                  SITE counts the rule's sites in pre-order from 0;\n"
	"                  N the split size, tile side or vector width)\n"
	"  --explore DEPTH print every distinct program that up to DEPTH\n"
	"                  rewrites make and that compiles, with its steps\n"
	"  -o OUT          write to OUT (replaced only when complete)\n"
	"  -h, --help      show this help\n";

/* "RULE:SITE[:N],..." into steps; -1 after a usage message. */
static int parse_steps(const char *s, lift_step *steps, size_t cap,
		       size_t *n)
{
	*n = 0;
	while (s && *s) {
		char rule[32];
		size_t len = strcspn(s, ":,");
		if (*n == cap || len >= sizeof rule || s[len] != ':')
			return cli_usage("lift", "--rewrite: expected RULE:SITE"
					 "[:N], got '%s'", s), -1;
		memcpy(rule, s, len);
		rule[len] = '\0';
		int r = lift_rule_find(rule);
		if (r < 0)
			return cli_usage("lift", "--rewrite: unknown rule '%s'",
					 rule), -1;
		char *end;
		long long site = strtoll(s + len + 1, &end, 10), sz = 2;
		if (end == s + len + 1 || site < 0)
			return cli_usage("lift", "--rewrite: bad site in '%s'", s),
			       -1;
		if (*end == ':') {
			const char *z = end + 1;
			sz = strtoll(z, &end, 10);
			if (end == z || sz < 1)
				return cli_usage("lift", "--rewrite: bad size in "
						 "'%s'", s), -1;
		}
		if (*end && *end != ',')
			return cli_usage("lift", "--rewrite: unexpected '%s'",
					 end), -1;
		steps[(*n)++] = (lift_step){(lift_rule)r, (size_t)site, sz};
		s = *end ? end + 1 : end;
	}
	return 0;
}

static void print_explored(void *user, const lift_step *path, size_t n,
			   const char *body)
{
	const int *as_template = user;
	fputs("--rewrite ", stdout);
	for (size_t k = 0; k < n; k++) {
		printf("%s%s:%zu", k ? "," : "", lift_rule_name(path[k].rule),
		       path[k].site);
		if (lift_rule_takes_size(path[k].rule) &&
		    !(*as_template && lift_rule_size_tunable(path[k].rule)))
			printf(":%lld", (long long)path[k].n);
	}
	printf("\n\t%s\n", body);
}

static int explore(const char *file, lift_target_kind target,
		   const char *depth, int as_template)
{
	char *end;
	long d = strtol(depth, &end, 10);
	if (*end || d < 0 || d > 4)
		return cli_usage("lift", "--explore: expected a depth from 0 "
				 "to 4, got '%s'", depth);
	cli_source src;
	if (cli_source_open(&src, file))
		return CLI_FAIL;
	lift_kernel k;
	lift_program *p = lift_parse(src.ctx, file, src.text, src.len);
	int rc = p && !lift_compile(src.ctx, p, target, &k)
			 ? CLI_OK : cli_ctx_fail(src.ctx);
	if (rc == CLI_OK) {
		lift_kernel_free(&k);
		size_t tried = lift_explore(file, src.text, src.len, (int)d,
					    target, as_template, print_explored,
					    &as_template);
		printf("# %zu rewritten programs compiled\n", tried);
	}
	cli_source_close(&src);
	return rc;
}

/* What `lego lift` writes. */
typedef enum { OUT_KERNEL, OUT_HOST, OUT_TYPE, OUT_TEMPLATE, OUT_MACROS }
	out_kind;

/* The text of the compiled program, or NULL after an error in ctx. */
static char *compiled(lego_ctx *ctx, const char *file, const char *text,
		      size_t len, lift_target_kind target, out_kind what,
		      const lift_step *steps, size_t nsteps)
{
	if (what == OUT_TEMPLATE)
		return lift_template(ctx, file, text, len, steps, nsteps,
				     target);
	lift_program *p = lift_program_rewritten(ctx, file, text, len, steps,
						 nsteps, what == OUT_MACROS);
	lift_kernel k;
	if (!p || lift_compile(ctx, p, target, &k))
		return NULL;
	char *s = NULL;
	if (what == OUT_TYPE) {
		char *t = lift_type_print(ctx, k.result);
		size_t n = t ? strlen(t) : 0;
		if (t && (s = realloc(t, n + 2)))
			memcpy(s + n, "\n", 2);
		else
			free(t);
	} else {
		s = what == OUT_HOST ? k.host : k.source;
		*(what == OUT_HOST ? &k.host : &k.source) = NULL;
	}
	lift_kernel_free(&k);
	if (!s)
		lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	return s;
}

static int compile(const char *file, lift_target_kind target, out_kind what,
		   const char *out, const lift_step *steps, size_t nsteps)
{
	cli_source src;
	if (cli_source_open(&src, file))
		return CLI_FAIL;
	char *s = compiled(src.ctx, file, src.text, src.len, target, what,
			   steps, nsteps);
	int rc = s ? cli_write_output(out, s, &file, 1) : cli_ctx_fail(src.ctx);
	free(s);
	cli_source_close(&src);
	return rc;
}

int lego_cmd_lift(int argc, char **argv)
{
	const char *out = NULL, *target = NULL, *rewrite = NULL, *depth = NULL;
	int host = 0, type = 0, tpl = 0, macros = 0;
	const extra_opt opts[] = {{"-o", &out, NULL},
				  {"--target", &target, NULL},
				  {"--host", NULL, &host},
				  {"--type", NULL, &type},
				  {"--rewrite", &rewrite, NULL},
				  {"--explore", &depth, NULL},
				  {"--template", NULL, &tpl},
				  {"--macros", NULL, &macros}};
	lift_step steps[64];
	size_t nsteps = 0;
	cli_args a;
	int rc = extra_take_opts("lift", &argc, argv, opts, 8);
	if (rc != CLI_OK)
		return rc;
	lift_target_kind tgt = target && !strcmp(target, "cuda")
				       ? LIFT_TARGET_CUDA : LIFT_TARGET_OPENCL;
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
	else if (rc == CLI_OK && host + type + tpl + macros > 1)
		rc = cli_usage("lift", "--host, --type, --template and --macros "
				       "exclude each other");
	else if (rc == CLI_OK && parse_steps(rewrite, steps, 64, &nsteps))
		rc = CLI_USAGE;
	else if (rc == CLI_OK && depth)
		rc = explore(a.pos[0], tgt, depth, tpl);
	else if (rc == CLI_OK)
		rc = compile(a.pos[0], tgt,
			     tpl ? OUT_TEMPLATE : macros ? OUT_MACROS
			     : host ? OUT_HOST : type ? OUT_TYPE : OUT_KERNEL,
			     out, steps, nsteps);
	cli_args_free(&a);
	return rc;
}

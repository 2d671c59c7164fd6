/* main.c - `lego`: command dispatch, help and version. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_mlir.h"
#include "cmd_gen.h"
#include "cmd_accessor.h"
#include "cmd_lift.h"
#include "cmd_mdh.h"
#include "cmd_tune.h"
#include "cmd_synth.h"
#include "cmd_infer.h"
#include "commands_extra.h"

typedef struct command {
	const char *name;
	int (*run)(const cli_args *a);
	size_t min_pos, max_pos; /* positional arguments; 0: any number */
	const char *usage;
	const char *help;
} command;

#define COMMON_OPTS                                                        \
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n" \
	"  -h, --help      show this help\n"
#define LANG_OPT                                                           \
	"  --lang c|python print expressions in C (default) or Python\n"     \
	"  --smt           let Z3 prove what the range reasoning cannot\n"

static const command commands[] = {
	{"table", cmd_table, 2, 2, "lego table FILE NAME [-D SYM=VALUE]...",
	 "Print, on one line, the physical flat index of every logical index of\n"
	 "layout NAME, logical indices in row-major order over its dims (-1 for\n"
	 "the padding of a padded layout).  Every size must be concrete (use -D\n"
	 "for declared syms).\n\n"
	 "Options:\n" COMMON_OPTS},
	{"apply", cmd_apply, 3, 0,
	 "lego apply FILE NAME E1 .. Ed [--lang c|python] [-D SYM=VALUE]...",
	 "Print the simplified flat index of the logical index (E1, .., Ed),\n"
	 "one expression per logical dim; an integer when all is concrete.  A\n"
	 "name in Ek that FILE does not declare is an index variable over\n"
	 "[0, dim k).\n\n"
	 "Options:\n" LANG_OPT COMMON_OPTS},
	{"mask", cmd_mask, 3, 0,
	 "lego mask FILE NAME E1 .. Ed [--lang c|python] [-D SYM=VALUE]...",
	 "Print the mask of the logical index (E1, .., Ed) of a padded layout\n"
	 "(a TileBy over cdiv tile counts, docs/partial.md): 1 exactly when the\n"
	 "index lies inside the real tensor; 1 for a layout without padding.\n"
	 "Names in Ek are as for apply.\n\n"
	 "Options:\n" LANG_OPT COMMON_OPTS},
	{"inv", cmd_inv, 3, 3,
	 "lego inv FILE NAME E [--lang c|python] [-D SYM=VALUE]...",
	 "Print the logical index of the flat index E, one simplified coordinate\n"
	 "per line.  A name in E that FILE does not declare is an index variable\n"
	 "over [0, size).\n\n"
	 "Options:\n" LANG_OPT COMMON_OPTS},
	{"check", cmd_check, 1, 2,
	 "lego check FILE [NAME] [--prove [--timeout MS]] [-D SYM=VALUE]...",
	 "For every layout of FILE (or NAME) with concrete sizes, check that it\n"
	 "is a bijection onto [0, size) and that inv(apply(i)) == i for every i,\n"
	 "and print the result; a failure names a witness.  Layouts with\n"
	 "symbolic sizes are skipped and the syms needing -D are listed.\n"
	 "Each choice of a `tune layout NAME` is a layout too, shown NAME=k.\n\n"
	 "With --prove, prove for symbolic sizes under the file's assumptions\n"
	 "(checked for consistency first) that the simplified expressions\n"
	 "equal the semantics, inv(apply(i)) == i, apply(inv(x)) == x and\n"
	 "0 <= apply(i) < size: one line per property, proved, refuted with a\n"
	 "counterexample or unknown, with the argument used (construction,\n"
	 "exhaustive, z3; docs/proof.md) and, when not proved, what was tried.\n"
	 "--timeout MS (default 5000) bounds the whole run, all layouts\n"
	 "together; progress goes to stderr, one line per property.\n"
	 "lego check --prove [SPEC] TEMPLATE (a file with {{ placeholders, its\n"
	 "spec SPEC or its {% lego %} block) proves of each placeholder that\n"
	 "the emitted expression equals its definition and that the indices of\n"
	 "its layout references are in range; MS is then each query's budget.\n\n"
	 "Exit status: 0 every layout checked (or proved) and correct; 1 a\n"
	 "check failed, a property was refuted, the assumptions are\n"
	 "inconsistent, or an error; 2 usage error;\n"
	 "3 nothing failed, but a layout was skipped (symbolic sizes: give\n"
	 "the listed -D) or, with --prove, a property is unknown.\n\n"
	 "Options:\n" COMMON_OPTS},
	{"exprs", cmd_exprs, 2, 2,
	 "lego exprs FILE NAME [--lang c|python] [-D SYM=VALUE]...",
	 "Print apply (in index variables i0..) and inv (of i_flat) of layout\n"
	 "NAME as statements, common subexpressions named once.\n\n"
	 "Options:\n" LANG_OPT COMMON_OPTS},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Commands that parse their own arguments (and --help). */
typedef struct raw_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} raw_command;

static const raw_command raw_commands[] = {
	{"show", lego_cmd_show, "lego show FILE NAME [-o OUT] [--svg] ..."},
	{"analyze", lego_cmd_analyze,
	 "lego analyze banks|coalesce FILE NAME E1 .. Ed [--tid NAME] ..."},
	{"mlir", lego_cmd_mlir, "lego mlir FILE NAME [-o OUT] [-D SYM=VALUE]..."},
	{"accessor", lego_cmd_accessor, "lego accessor FILE NAME [--target c|cuda|opencl] [-o OUT.h] ..."},
	{"gen", lego_cmd_gen, "lego gen [SPEC] TEMPLATE [-o OUT] [--target T] ..."},
	{"lift", lego_cmd_lift, "lego lift FILE [--target opencl] [--host | --type] [-o OUT]"},
	{"mdh", lego_cmd_mdh, "lego mdh FILE [--target opencl|cuda] [--host | --template] [-D NAME=VALUE]... [-o OUT]"},
	{"tune", lego_cmd_tune, "lego tune [SPEC] TEMPLATE --run CMD|--space|--show ..."},
	{"synth", lego_cmd_synth, "lego synth FILE TV... --tile ROWSxCOLS [--space F,..] [-o OUT] ..."},
	{"infer", lego_cmd_infer, "lego infer FILE [--cuda] [-o OUT]"},
};
#define NRAW (sizeof raw_commands / sizeof raw_commands[0])

static void usage(FILE *out)
{
	fputs("Usage: lego COMMAND [ARGS]...\n"
	      "The LEGO layout algebra: mappings and index expressions of the\n"
	      "layouts declared in a .lego file.\n\nCommands:\n",
	      out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %s\n", commands[i].usage);
	for (size_t i = 0; i < NRAW; i++)
		fprintf(out, "  %s\n", raw_commands[i].usage);
	fputs("\nOptions:\n  -h, --help      show this help\n"
	      "  --version       show the version\n\n"
	      "'lego COMMAND --help' describes a command.  Exit status: 0 ok,\n"
	      "1 error in the input or a failed check, 2 usage error, 3 (lego\n"
	      "check) nothing failed but something was skipped or unknown.\n",
	      out);
}

static int run(const command *c, int argc, char **argv)
{
	cli_args a;
	int rc = cli_args_parse(&a, c->name, argc, argv);
	if (rc == CLI_OK && a.help) {
		printf("Usage: %s\n\n%s", c->usage, c->help);
	} else if (rc == CLI_OK && (a.npos < c->min_pos ||
				    (c->max_pos && a.npos > c->max_pos))) {
		rc = cli_usage(c->name, "%s arguments\nUsage: %s",
			       a.npos < c->min_pos ? "missing" : "too many",
			       c->usage);
	} else if (rc == CLI_OK) {
		rc = c->run(&a);
	}
	cli_args_free(&a);
	return rc;
}

/* What stdio buffered is written only now: a full disk or a closed pipe
 * shows at the flush, and must not end in exit status 0. */
static int finish(int rc)
{
	int bad = ferror(stdout) != 0;
	bad |= fclose(stdout) != 0;
	if (bad) {
		int st = cli_fail("standard output: cannot write: %s",
				  strerror(errno));
		return rc ? rc : st;
	}
	return rc;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage(NULL, "no command given");
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("lego %s\n", LEGO_VERSION);
		return CLI_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(cmd, commands[i].name))
			return run(&commands[i], argc - 2, argv + 2);
	for (size_t i = 0; i < NRAW; i++)
		if (!strcmp(cmd, raw_commands[i].name))
			return raw_commands[i].run(argc - 2, argv + 2);
	lego_suggest s;
	lego_suggest_init(&s, cmd);
	for (size_t i = 0; i < NCOMMANDS; i++)
		lego_suggest_add(&s, commands[i].name);
	for (size_t i = 0; i < NRAW; i++)
		lego_suggest_add(&s, raw_commands[i].name);
	return cli_usage(NULL, "unknown command '%s'%s", cmd,
			 lego_suggest_hint(&s));
}

int main(int argc, char **argv)
{
	return finish(dispatch(argc, argv));
}

/* args.c - options common to every command: -D, --lang, --help. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("lego: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'lego %s%s--help'.\n", cmd ? cmd : "",
		cmd ? " " : "");
	return CLI_USAGE;
}

/* The message after its "...: error: " prefix; returns CLI_FAIL. */
static int vfail(const char *fmt, va_list ap)
{
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return CLI_FAIL;
}

int cli_fail(const char *fmt, ...)
{
	va_list ap;
	fputs("lego: error: ", stderr);
	va_start(ap, fmt);
	int rc = vfail(fmt, ap);
	va_end(ap);
	return rc;
}

int cli_fail_at(const cli_session *s, const char *name, const char *fmt, ...)
{
	va_list ap;
	int line, col;
	if (lego_spec_where(s->spec, name, &line, &col))
		fprintf(stderr, "%s:%d:%d: error: ", s->file, line, col);
	else
		fputs("lego: error: ", stderr);
	va_start(ap, fmt);
	int rc = vfail(fmt, ap);
	va_end(ap);
	return rc;
}

int cli_ctx_fail(lego_ctx *ctx)
{
	const char *msg = lego_ctx_error(ctx);
	if (strstr(msg, ": error: "))
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "lego: error: %s\n", *msg ? msg : "failed");
	return CLI_FAIL;
}

/* NAME=VALUE with VALUE a whole decimal integer. */
static int parse_define(cli_args *a, const char *cmd, const char *text)
{
	const char *eq = strchr(text, '=');
	char *end;
	if (!eq || eq == text)
		return cli_usage(cmd, "-D expects NAME=VALUE, got '%s'", text);
	errno = 0;
	long long v = strtoll(eq + 1, &end, 10);
	if (errno || end == eq + 1 || *end)
		return cli_usage(cmd, "-D %s: the value must be an integer",
				 text);
	char *name = strndup(text, (size_t)(eq - text));
	if (!name)
		return cli_fail("out of memory");
	a->defs[a->ndefs++] = (lego_define){name, (int64_t)v};
	return CLI_OK;
}

static int parse_lang(cli_args *a, const char *cmd, const char *text)
{
	if (!strcmp(text, "c"))
		a->lang = LEGO_LANG_C;
	else if (!strcmp(text, "python"))
		a->lang = LEGO_LANG_PYTHON;
	else
		return cli_usage(cmd, "--lang expects c or python, got '%s'",
				 text);
	return CLI_OK;
}

/* An option's value: glued ("-DM=4", "--lang=c") or the next argument. */
static const char *value_of(const char *arg, size_t prefix, int *i, int argc,
			    char **argv)
{
	if (arg[prefix] == '=' && prefix > 2)
		return arg + prefix + 1;
	if (arg[prefix])
		return arg + prefix;
	return *i + 1 < argc ? argv[++*i] : NULL;
}

/* A negative number is a positional argument (an index), not an option. */
static int is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] && !(arg[1] >= '0' && arg[1] <= '9');
}

/* The commands that print simplified expressions through cli_open. */
static int takes_smt(const char *cmd)
{
	static const char *const cmds[] = {"apply", "inv", "exprs",
					   "accessor", "mlir", "gen"};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(cmd, cmds[i]))
			return 1;
	return 0;
}

static int parse_option(cli_args *a, const char *cmd, int *i, int argc,
			char **argv)
{
	const char *arg = argv[*i], *v;
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		a->help = 1;
		return CLI_OK;
	}
	if (!strncmp(arg, "-D", 2)) {
		if (!(v = value_of(arg, 2, i, argc, argv)))
			return cli_usage(cmd, "-D needs NAME=VALUE");
		return parse_define(a, cmd, v);
	}
	if (!strncmp(arg, "--lang", 6) && (arg[6] == '=' || !arg[6])) {
		if (!(v = value_of(arg, 6, i, argc, argv)))
			return cli_usage(cmd, "--lang needs c or python");
		return parse_lang(a, cmd, v);
	}
	if (!strcmp(arg, "--smt") && takes_smt(cmd)) {
		a->smt = 1;
		return CLI_OK;
	}
	if (!strcmp(cmd, "check") && !strcmp(arg, "--prove")) {
		a->prove = 1;
		return CLI_OK;
	}
	if (!strcmp(cmd, "check") && !strncmp(arg, "--timeout", 9) &&
	    (arg[9] == '=' || !arg[9])) {
		char *end;
		if (!(v = value_of(arg, 9, i, argc, argv)))
			return cli_usage(cmd, "--timeout needs milliseconds");
		unsigned long ms = strtoul(v, &end, 10);
		if (*end || !ms || ms > 3600000)
			return cli_usage(cmd, "--timeout expects 1..3600000 "
					 "milliseconds, got '%s'", v);
		a->timeout_ms = (unsigned)ms;
		return CLI_OK;
	}
	lego_suggest s;
	lego_suggest_init(&s, arg);
	lego_suggest_add(&s, "--help");
	lego_suggest_add(&s, "--lang");
	if (takes_smt(cmd))
		lego_suggest_add(&s, "--smt");
	if (!strcmp(cmd, "check")) {
		lego_suggest_add(&s, "--prove");
		lego_suggest_add(&s, "--timeout");
	}
	return cli_usage(cmd, "unknown option '%s'%s", arg,
			 lego_suggest_hint(&s));
}

int cli_args_parse(cli_args *a, const char *cmd, int argc, char **argv)
{
	/* Room for one entry per argument. */
	*a = (cli_args){.cmd = cmd, .lang = LEGO_LANG_C, .timeout_ms = 5000};
	a->pos = calloc((size_t)argc + 1, sizeof *a->pos);
	a->defs = calloc((size_t)argc + 1, sizeof *a->defs);
	if (!a->pos || !a->defs)
		return cli_fail("out of memory");
	int only_pos = 0;
	for (int i = 0; i < argc; i++) {
		if (!only_pos && !strcmp(argv[i], "--")) {
			only_pos = 1;
		} else if (!only_pos && is_option(argv[i])) {
			int rc = parse_option(a, cmd, &i, argc, argv);
			if (rc)
				return rc;
		} else {
			a->pos[a->npos++] = argv[i];
		}
	}
	return CLI_OK;
}

void cli_args_free(cli_args *a)
{
	for (size_t i = 0; i < a->ndefs; i++)
		free((char *)a->defs[i].name);
	free(a->defs);
	free(a->pos);
}

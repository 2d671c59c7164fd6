/* cli.h - the `lego` command-line tool (internal). */
#ifndef LEGO_CLI_H
#define LEGO_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "lego.h"

/* Exit statuses: a stable contract. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_args {
	const char *cmd;
	const char **pos;     /* positional arguments after the command */
	size_t npos;
	lego_define *defs;    /* -D NAME=VALUE, in order */
	size_t ndefs;
	lego_lang lang;
	int help;
} cli_args;

/* Parses the arguments after the command; CLI_OK or CLI_USAGE (reported).
 * The arrays are malloc'ed: release them with cli_args_free(). */
int cli_args_parse(cli_args *a, const char *cmd, int argc, char **argv);
void cli_args_free(cli_args *a);

/* "lego: error: ..." and a hint on stderr; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "lego: error: ..." on stderr; returns CLI_FAIL. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The context's message (already "file:line:col: error: ..." for input
 * errors) on stderr; returns CLI_FAIL. */
int cli_ctx_fail(lego_ctx *ctx);

/* A loaded file and, when a name was asked for, one of its layouts. */
typedef struct cli_session {
	lego_ctx *ctx;
	lego_spec *spec;
	lego_layout *layout;
	const char *file;
} cli_session;

int cli_open(cli_session *s, const cli_args *a, const char *layout_name);
void cli_close(cli_session *s);
/* 1 with the layout's size if it is an integer; 0 if it is symbolic, with
 * `needs` holding the symbols that need values (" -D M=.. -D K=.."); -1 on
 * error (message in the context). */
int cli_concrete_size(cli_session *s, const lego_layout *l, int64_t *size,
		      char *needs, size_t cap);
/* Prints e simplified in the chosen language, with a newline. */
int cli_print_expr(cli_session *s, lego_expr *e, lego_lang lang);

int cmd_table(const cli_args *a);
int cmd_apply(const cli_args *a);
int cmd_inv(const cli_args *a);
int cmd_exprs(const cli_args *a);
int cmd_check(const cli_args *a);

#endif

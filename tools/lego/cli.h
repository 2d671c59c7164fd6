/* cli.h - the `lego` command-line tool (internal). */
#ifndef LEGO_CLI_H
#define LEGO_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "lego.h"
#include "suggest/suggest.h"

/* Exit statuses, a stable contract.  CLI_SKIPPED: nothing failed, but something was not
 * checked (lego check: a layout with symbolic sizes, a property unknown). */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_SKIPPED = 3 };

typedef struct cli_args {
	const char *cmd;
	const char **pos;     /* positional arguments after the command */
	size_t npos;
	lego_define *defs;    /* -D NAME=VALUE, in order */
	size_t ndefs;
	lego_lang lang;
	int help;
	int prove;            /* check --prove: translation validation */
	int smt;              /* --smt: Z3 behind the simplifier */
	unsigned timeout_ms;  /* --prove: the whole run, in total */
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
/* "FILE:LINE:COL: error: ..." on stderr, at the declaration of name in
 * the session's spec (any "lego: error: ..." when it is not declared
 * there); returns CLI_FAIL.  For errors about what the file declares. */
struct cli_session;
int cli_fail_at(const struct cli_session *s, const char *name,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
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

/* Loads a->pos[0] with every -D of a in effect for the whole parse, and
 * the layout layout_name when not NULL; CLI_OK or CLI_FAIL (reported).
 * The one way commands read a spec file. */
int cli_open(cli_session *s, const cli_args *a, const char *layout_name);
/* The same, except that a -D naming no sym of the file is not refused but
 * put in rest (room for a->ndefs), *nrest their number: for a command
 * whose other inputs have names (lego analyze's expressions). */
int cli_open_rest(cli_session *s, const cli_args *a, const char *layout_name,
		  lego_define *rest, size_t *nrest);
/* " (did you mean 'X'?)" for a misspelt layout name of spec, or "";
 * the text lives in s. */
const char *cli_layout_hint(lego_suggest *s, const lego_spec *spec,
			    const char *name);
void cli_close(cli_session *s);
/* Whether a layout can be enumerated. */
typedef enum cli_size {
	SIZE_CONCRETE,  /* every dim an integer; *size set */
	SIZE_SYMBOLIC,  /* `needs` lists the syms to give (" -D M=.. -D K=..") */
	SIZE_OVERFLOW,  /* integers, but the size does not fit in 64 bits */
	SIZE_ERROR      /* message in the context */
} cli_size;

cli_size cli_concrete_size(cli_session *s, const lego_layout *l,
			   int64_t *size, char *needs, size_t cap);
/* An index given on the command line must lie in [0, hi) when both are
 * integers; CLI_OK or CLI_FAIL (reported). */
int cli_check_range(lego_expr *e, lego_expr *hi, const char *what);
/* text to stdout (path NULL) or to path: a regular file (or a new path)
 * is replaced only when complete, through a link its target; a FIFO or a
 * device is written in place.  An output that is one of the ninputs
 * files is refused.  CLI_OK or CLI_FAIL (reported). */
int cli_write_output(const char *path, const char *text,
		     const char *const *inputs, size_t ninputs);
/* The whole file, NUL-terminated, in a malloc'ed buffer (caller frees),
 * read by lego_read_file (its size limit); NULL when it cannot be read,
 * the reason reported. */
char *cli_read_file(const char *path, size_t *len);
/* A program's source file, read whole, and the context it is compiled in. */
typedef struct cli_source {
	char *text;
	size_t len;
	lego_ctx *ctx;
} cli_source;
/* CLI_OK, or CLI_FAIL with the reason reported and nothing to close. */
int cli_source_open(cli_source *s, const char *path);
void cli_source_close(cli_source *s);
/* Prints es simplified in the chosen language, one a line; when written
 * as trees they would exceed CLI_INLINE_NODES nodes, their shared parts
 * become temporaries t0, t1, ... and each line reads `names[k] = ...`. */
#define CLI_INLINE_NODES 4096
int cli_print_exprs(cli_session *s, size_t n, lego_expr **es,
		    const char *const *names, lego_lang lang);

int cmd_table(const cli_args *a);
int cmd_apply(const cli_args *a);
int cmd_mask(const cli_args *a);
int cmd_inv(const cli_args *a);
int cmd_exprs(const cli_args *a);
int cmd_check(const cli_args *a);

#endif

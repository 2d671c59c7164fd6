/* commands_extra.h - `lego show` and `lego analyze`, and the option
 * helper they share (internal to the CLI). */
#ifndef LEGO_COMMANDS_EXTRA_H
#define LEGO_COMMANDS_EXTRA_H

#include <stddef.h>

/* Each takes the arguments after the command name; returns the exit
 * status (0 ok, 1 error in the input, 2 usage error). */
int lego_cmd_show(int argc, char **argv);
int lego_cmd_analyze(int argc, char **argv);

/* An option of a command beyond the common ones (-D, --help). */
typedef struct extra_opt {
	const char *name;    /* "--tile" */
	const char **value;  /* set for an option with a value, else NULL */
	int *flag;           /* set to 1 for an option without a value */
} extra_opt;

/* Removes the options in opts (and their values: "--tile 4" or
 * "--tile=4") from argv, keeping the order of the rest; stops at "--".
 * Returns 0, or 2 after a usage message. */
int extra_take_opts(const char *cmd, int *argc, char **argv,
		    const extra_opt *opts, size_t nopts);

/* A decimal integer option value; 0 or 2 after a usage message. */
int extra_int(const char *cmd, const char *opt, const char *text,
	      long long *out);

#endif

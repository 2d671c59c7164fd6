/* cmd_extra_opts.c - options of `lego show` and `lego analyze` that the
 * common parser (args.c) does not know: taken out of argv first. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands_extra.h"

/* The option named by arg ("--x" or "--x=v"), or NULL. */
static const extra_opt *find_opt(const char *arg, const extra_opt *opts,
				 size_t nopts)
{
	for (size_t k = 0; k < nopts; k++) {
		size_t n = strlen(opts[k].name);
		if (!strncmp(arg, opts[k].name, n) &&
		    (!arg[n] || (arg[n] == '=' && opts[k].value)))
			return &opts[k];
	}
	return NULL;
}

int extra_take_opts(const char *cmd, int *argc, char **argv,
		    const extra_opt *opts, size_t nopts)
{
	int kept = 0, i = 0;
	for (; i < *argc && strcmp(argv[i], "--"); i++) {
		const extra_opt *o = find_opt(argv[i], opts, nopts);
		if (!o && argv[i][0] == '-' && argv[i][1] == '-') {
			/* A misspelt option of this command is reported here,
			 * where its options are known; others go on to the
			 * common parser. */
			lego_suggest s;
			lego_suggest_init(&s, argv[i]);
			for (size_t k = 0; k < nopts; k++)
				lego_suggest_add(&s, opts[k].name);
			if (*lego_suggest_hint(&s))
				return cli_usage(cmd, "unknown option '%s'%s",
						 argv[i], lego_suggest_hint(&s));
		}
		if (!o) {
			argv[kept++] = argv[i];
			continue;
		}
		if (!o->value) {
			*o->flag = 1;
			continue;
		}
		const char *eq = strchr(argv[i], '=');
		if (!eq && i + 1 >= *argc)
			return cli_usage(cmd, "%s needs a value", o->name);
		*o->value = eq ? eq + 1 : argv[++i];
	}
	while (i < *argc)
		argv[kept++] = argv[i++];
	*argc = kept;
	return CLI_OK;
}

int extra_int(const char *cmd, const char *opt, const char *text,
	      long long *out)
{
	char *end;
	errno = 0;
	*out = strtoll(text, &end, 10);
	if (errno || end == text || *end)
		return cli_usage(cmd, "%s expects an integer, got '%s'", opt,
				 text);
	return CLI_OK;
}

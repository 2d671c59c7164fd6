/* output.c - a command's files: reading its input whole, writing its result
 * to stdout or to a file that is replaced only once the whole text is
 * written. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A temporary file beside path, renamed over it: an error never leaves
 * path half-written.  mode: the permissions the file keeps. */
static int write_atomic(const char *path, const char *text, mode_t mode)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 8);
	if (!tmp)
		return cli_fail("out of memory");
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	int fd = mkstemp(tmp);
	/* mkstemp makes the file private; a generated file is not. */
	FILE *f = fd >= 0 && fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
	int bad = !f || fputs(text, f) < 0;
	if (f)
		bad |= fclose(f) != 0;
	else if (fd >= 0)
		close(fd);
	if (!bad && rename(tmp, path) != 0)
		bad = 1;
	int err = errno;
	if (bad && fd >= 0)
		remove(tmp);
	free(tmp);
	return bad ? cli_fail("%s: cannot write: %s", path, strerror(err))
		   : CLI_OK;
}

/* A FIFO, a device, a terminal: written in place, as a shell's `>`. */
static int write_through(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int bad = !f || fputs(text, f) < 0;
	int err = errno;
	if (f && fclose(f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	return bad ? cli_fail("%s: cannot write: %s", path, strerror(err))
		   : CLI_OK;
}

/* Refuses an output that is one of the inputs (same file, whatever the
 * path or link that names it): replacing it would lose the input. */
static int check_not_input(const char *path, const struct stat *st,
			   const char *const *inputs, size_t ninputs)
{
	for (size_t i = 0; i < ninputs; i++) {
		struct stat in;
		if (inputs[i] && stat(inputs[i], &in) == 0 &&
		    in.st_dev == st->st_dev && in.st_ino == st->st_ino)
			return cli_fail("%s: the output is the input %s: "
					"choose another output", path,
					inputs[i]);
	}
	return CLI_OK;
}

static int write_file(const char *path, const char *text,
		      const char *const *inputs, size_t ninputs)
{
	struct stat st, lst;
	if (stat(path, &st) != 0)
		/* A new path, or a dangling link: nothing to preserve. */
		return errno == ENOENT && lstat(path, &lst) != 0
			       ? write_atomic(path, text, 0644)
			       : write_through(path, text);
	if (check_not_input(path, &st, inputs, ninputs))
		return CLI_FAIL;
	if (!S_ISREG(st.st_mode))
		return write_through(path, text);
	if (lstat(path, &lst) == 0 && !S_ISLNK(lst.st_mode))
		return write_atomic(path, text, st.st_mode & 07777);
	/* A link to a regular file: replace its target, keep the link. */
	char *real = realpath(path, NULL);
	int rc = real ? write_atomic(real, text, st.st_mode & 07777)
		      : write_through(path, text);
	free(real);
	return rc;
}

int cli_write_output(const char *path, const char *text,
		     const char *const *inputs, size_t ninputs)
{
	if (path)
		return write_file(path, text, inputs, ninputs);
	return fputs(text, stdout) < 0 ? cli_fail("write failed") : CLI_OK;
}

char *cli_read_file(const char *path, size_t *len)
{
	lego_ctx *ctx = lego_ctx_new();
	char *text = ctx ? lego_read_file(ctx, path, len) : NULL;
	if (!ctx)
		cli_fail("out of memory");
	else if (!text)
		cli_ctx_fail(ctx);
	lego_ctx_free(ctx);
	return text;
}

int cli_source_open(cli_source *s, const char *path)
{
	if (!(s->text = cli_read_file(path, &s->len)))
		return CLI_FAIL;
	if (!(s->ctx = lego_ctx_new())) {
		free(s->text);
		return cli_fail("out of memory");
	}
	return CLI_OK;
}

void cli_source_close(cli_source *s)
{
	lego_ctx_free(s->ctx);
	free(s->text);
}

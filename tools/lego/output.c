/* output.c - a command's files: reading its input whole, writing its result
 * to stdout or to a file that is replaced only once the whole text is
 * written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A temporary file beside path, renamed over it: an error never leaves
 * path half-written. */
static int write_atomic(const char *path, const char *text)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 8);
	if (!tmp)
		return cli_fail("out of memory");
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	int fd = mkstemp(tmp);
	/* mkstemp makes the file private; a generated file is not. */
	FILE *f = fd >= 0 && fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
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

int cli_write_output(const char *path, const char *text)
{
	if (path)
		return write_atomic(path, text);
	return fputs(text, stdout) < 0 ? cli_fail("write failed") : CLI_OK;
}

char *cli_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t cap = 0;
	*len = 0;
	while (f) {
		if (cap - *len < 2) {
			char *grown = realloc(text, cap ? 2 * cap : 8192);
			if (!grown)
				break;
			text = grown;
			cap = cap ? 2 * cap : 8192;
		}
		size_t got = fread(text + *len, 1, cap - *len - 1, f);
		*len += got;
		if (got == 0) {
			int bad = ferror(f);
			fclose(f);
			if (bad)
				break;
			text[*len] = '\0';
			return text;
		}
	}
	if (f)
		fclose(f);
	free(text);
	return NULL;
}

/* file.c - reading an input file whole, up to the documented size limit
 * (a hostile path such as /dev/zero must not grow memory without end). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

int lego_check_input_size(lego_ctx *ctx, const char *filename, size_t len)
{
	if (len <= LEGO_MAX_INPUT_BYTES)
		return LEGO_OK;
	return lego_fail(ctx, LEGO_ERANGE, "%s: error: input larger than %zu "
			 "bytes (the limit of liblego inputs)",
			 filename ? filename : "<input>",
			 (size_t)LEGO_MAX_INPUT_BYTES);
}

char *lego_read_file(lego_ctx *ctx, const char *path, size_t *len)
{
	if (!ctx || !path || !len)
		return lego_fail_arg(ctx, "lego_read_file");
	errno = 0;
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t cap = 0;
	int err = 0;
	*len = 0;
	while (f && !err) {
		if (cap - *len < 2) {
			/* One byte past the limit tells a file at the limit
			 * from a larger one. */
			size_t grown_cap = cap ? 2 * cap : 8192;
			if (grown_cap > LEGO_MAX_INPUT_BYTES + 2)
				grown_cap = LEGO_MAX_INPUT_BYTES + 2;
			char *grown = grown_cap > cap ? realloc(text, grown_cap)
						      : NULL;
			if (!grown) {
				err = cap > LEGO_MAX_INPUT_BYTES ? EFBIG : ENOMEM;
				break;
			}
			text = grown;
			cap = grown_cap;
		}
		size_t got = fread(text + *len, 1, cap - *len - 1, f);
		*len += got;
		if (*len > LEGO_MAX_INPUT_BYTES)
			err = EFBIG;
		else if (got == 0 && ferror(f))
			err = errno ? errno : EIO;
		else if (got == 0)
			break;
	}
	if (!f)
		err = errno ? errno : EIO;
	if (f)
		fclose(f);
	if (err == EFBIG) {
		lego_check_input_size(ctx, path, *len);
	} else if (err) {
		lego_fail(ctx, LEGO_ERR, "%s: error: cannot read: %s", path,
			  strerror(err));
	} else {
		text[*len] = '\0';
		return text;
	}
	free(text);
	*len = 0;
	return NULL;
}

/* key.c - what a measurement is of: the template's hash, the problem,
 * a configuration as -D values.  `lego tune` writes these keys and
 * `lego gen --tuned` reads them back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/launch.h"
#include "tune/tune.h"

static void fnv(uint64_t *h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		*h ^= (unsigned char)s[i];
		*h *= 0x100000001b3ull;
	}
}

int lego_tune_template_hash(const char *tpl, size_t len,
			    const char *spec_path, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits */
	fnv(&h, tpl, len);
	if (spec_path) {
		FILE *f = fopen(spec_path, "rb");
		char buf[8192];
		size_t got;
		if (!f)
			return -1;
		while ((got = fread(buf, 1, sizeof buf, f)) > 0)
			fnv(&h, buf, got);
		int bad = ferror(f);
		fclose(f);
		if (bad)
			return -1;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

static int cmp_define(const void *a, const void *b)
{
	return strcmp(((const lego_define *)a)->name,
		      ((const lego_define *)b)->name);
}

/* Each field, NULL as empty, ended by a NUL so that fields cannot run
 * into each other. */
static void fnv_field(uint64_t *h, const char *s)
{
	fnv(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

void tune_launch_digest(const lego_tune_launch *l, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ull;
	char num[64];
	fnv_field(&h, l->kernel);
	fnv_field(&h, l->args);
	fnv_field(&h, l->global);
	fnv_field(&h, l->local);
	fnv_field(&h, l->reference);
	fnv_field(&h, l->ref_global);
	fnv_field(&h, l->ref_local);
	snprintf(num, sizeof num, "%d %.17g %d", (int)l->elem, l->tolerance,
		 l->reps);
	fnv_field(&h, num);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

char *lego_tune_problem_key(const lego_define *defs, size_t n)
{
	lego_define *d = malloc((n + 1) * sizeof *d);
	size_t cap = 1;
	for (size_t i = 0; i < n; i++)
		cap += strlen(defs[i].name) + 24;
	char *s = malloc(cap), *p = s;
	if (!d || !s) {
		free(d);
		free(s);
		return NULL;
	}
	if (n)
		memcpy(d, defs, n * sizeof *d);
	qsort(d, n, sizeof *d, cmp_define);
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s=%lld", i ? " " : "", d[i].name,
			     (long long)d[i].value);
	free(d);
	return s;
}

lego_define *lego_tune_config_parse(const char *config, size_t *n)
{
	size_t words = 0, len = strlen(config);
	for (const char *s = config; *s; s++)
		words += *s == '=';
	/* the defines, then a copy of the text holding their names */
	lego_define *d = malloc((words + 1) * sizeof *d + len + 1);
	if (!d)
		return NULL;
	char *text = (char *)(d + words + 1);
	memcpy(text, config, len + 1);
	*n = 0;
	for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '='), *end;
		if (!eq || eq == tok)
			goto bad;
		*eq = '\0';
		errno = 0;
		long long v = strtoll(eq + 1, &end, 10);
		if (*end || end == eq + 1 || errno)
			goto bad;
		d[(*n)++] = (lego_define){tok, v};
	}
	return d;
bad:
	free(d);
	return NULL;
}

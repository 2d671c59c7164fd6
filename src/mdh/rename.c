/* rename.c - generated text with some of its names spelled afresh.  A
 * kernel's pieces are written with the names of the loop variables they
 * stand in (mdh_p_d, mdh_t_d, ..); where a piece runs at another point
 * (a run's point, the inner reduced loop's sum, the next round's tile),
 * its names are spelled as that point's own variable, rather than the
 * loop's name redeclared in a block of its own, which would shadow it
 * (-Wshadow). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/word.h"
#include "mdh/lower.h"

void mdh_put_indent(lego_sbuf *b, int depth)
{
	for (int i = 0; i < depth; i++)
		lego_sbuf_puts(b, "\t");
}

void mdh_put_renamed(lego_sbuf *b, const char *text, const char *from,
		     const char *to, int depth)
{
	const char *w = from ? lego_word_find(text, text, from) : NULL;
	int bol = 1;
	for (const char *c = text; *c;) {
		if (bol && *c != '#' && *c != '\n')
			mdh_put_indent(b, depth);
		bol = *c == '\n';
		if (c == w) {
			lego_sbuf_puts(b, to);
			c += strlen(from);
			w = lego_word_find(text, c, from);
			continue;
		}
		lego_sbuf_printf(b, "%c", *c++);
	}
}

void mdh_put_at_point(lego_sbuf *b, const char *text, const char *d,
		      const char *prefix, int depth)
{
	char from[80], to[80];
	snprintf(from, sizeof from, "mdh_p_%s", d);
	snprintf(to, sizeof to, "%s%s", prefix, d);
	mdh_put_renamed(b, text, from, to, depth);
}

/* fmt with @ the dim's name. */
static void dim_name(char *out, size_t size, const char *fmt,
		     const char *d)
{
	const char *at = strchr(fmt, '@');
	snprintf(out, size, "%.*s%s%s", (int)(at - fmt), fmt, d, at + 1);
}

void mdh_put_renamed_dims(lego_sbuf *b, const mdh_program *p,
			  const char *text, const char *from, const char *to,
			  int depth)
{
	char *cur = strdup(text);
	for (size_t k = 0; cur && k < p->ndims; k++) {
		if (!mdh_dim_is_red(&p->dims[k]))
			continue;
		char f[96], t[96];
		dim_name(f, sizeof f, from, p->dims[k].name);
		dim_name(t, sizeof t, to, p->dims[k].name);
		lego_sbuf s = {0};
		mdh_put_renamed(&s, cur, f, t, 0);
		free(cur);
		cur = lego_sbuf_take(&s);
	}
	mdh_put_renamed(b, cur ? cur : "?", NULL, NULL, depth);
	free(cur);
}

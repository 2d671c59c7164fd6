/* splice.c - whether a placeholder's value needs parentheses where it
 * stands in the template line.
 *
 * The value replaces the placeholder as text: `2 * {{ A[i, j] }}` must
 * become `2 * (j + N * i)`, not `2 * j + N * i`.  A value that is a single
 * token (a name, a number, a call or subscript whose spaces are all inside
 * brackets) needs none, nor does a value filling a whole slot: after an
 * opening bracket, a comma, an assignment (also `+=` ...) or a colon, or at
 * the start of the line, and before a closing bracket, a comma, a
 * semicolon or a colon, or at the end of the line.  Everything else is
 * parenthesised. */
#include <string.h>

#include "gen/template.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* One of the characters of set (never the terminating NUL). */
static int one_of(char c, const char *set)
{
	return c != '\0' && strchr(set, c) != NULL;
}

/* One token: no space outside brackets, no leading unary operator (which
 * `**` on its right would outrank in Python). */
static int atomic(const char *v)
{
	int depth = 0;
	if (!*v || one_of(v[0], "-!~"))
		return 0;
	for (const char *p = v; *p; p++) {
		depth += *p == '(' || *p == '[' || *p == '{';
		depth -= *p == ')' || *p == ']' || *p == '}';
		if (depth == 0 && is_space(*p))
			return 0;
	}
	return 1;
}

/* An assignment `=`, `+=`, ...: not a comparison (==, !=, <=, >=; `<<=`
 * and `>>=` look like one too, and get parentheses they do not need). */
static int assigns(const char *line, size_t at)
{
	return line[at] == '=' && !(at > 0 && one_of(line[at - 1], "=!<>"));
}

static int opens_slot(const char *line, size_t open)
{
	size_t at = open;
	while (at > 0 && is_space(line[at - 1]))
		at--;
	if (at == 0)
		return 1;
	return one_of(line[at - 1], "([{,:") || assigns(line, at - 1);
}

static int closes_slot(const char *line, size_t len, size_t close)
{
	size_t at = close;
	while (at < len && is_space(line[at]))
		at++;
	return at == len || one_of(line[at], ")]},;:");
}

int gen_value_needs_parens(const char *line, size_t len, size_t open,
			   size_t close, const char *value)
{
	if (atomic(value))
		return 0;
	return !(opens_slot(line, open) && closes_slot(line, len, close));
}

/*
 * corpus.c - the simplifier against hand-written index expressions.
 *
 * Each line of the corpus (bench/simplify/corpus.txt, fields separated by
 * ';') names a layout of a
 * spec, the index it is applied to (or the flat index it is inverted at),
 * a reference form written by hand and, where known, the operation count
 * of the LEGO authors' generator.  For each: liblego derives and
 * simplifies the expression; the derived form, the reference and the
 * unsimplified derivation (the layout's defining expression) are evaluated
 * at every point of the given ranges (or, beyond MAX_EXHAUSTIVE points, at
 * the corners and SAMPLES random points) and must agree; operations are
 * counted with lego_expr_ops (the printers' cost: an n-ary sum or product
 * n - 1, any other operator 1, shared subexpressions once).
 *
 * Usage: bench-simplify CORPUS [--check] [-v]
 * Prints a markdown table; with --check, also "corpus: N passed, N failed"
 * and exit status 1 when an expression is worse than its reference (or
 * than the authors' where theirs is correct) or differs in value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lego.h"

enum { MAX_FIELDS = 8, MAX_VARS = 16, MAX_ARGS = 16 };
enum { MAX_EXHAUSTIVE = 1 << 16, SAMPLES = 1 << 12 };

typedef struct var {
	char name[32];
	int64_t lo, hi; /* [lo, hi) */
	lego_expr *sym;
} var;

typedef struct entry {
	char *f[MAX_FIELDS]; /* name spec defs form reference authors over */
	size_t nf;
} entry;

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		s[--n] = 0;
	return s;
}

/* Splits s at each sep into at most cap trimmed fields (the last keeps
 * the rest of s). */
static size_t split(char *s, char sep, char **out, size_t cap)
{
	size_t n = 0;
	for (char *p = s; n < cap; n++) {
		char *q = n + 1 < cap ? strchr(p, sep) : NULL;
		if (q)
			*q = 0;
		out[n] = trim(p);
		if (!q)
			return n + 1;
		p = q + 1;
	}
	return n;
}

/* "N=384 BM=128" (or "-") as defines; the names point into s. */
static size_t parse_defs(char *s, lego_define *d, size_t cap)
{
	char *w[MAX_VARS];
	size_t n = 0, nw = strcmp(s, "-") ? split(s, ' ', w, MAX_VARS) : 0;
	for (size_t i = 0; i < nw && n < cap; i++) {
		char *eq = strchr(w[i], '=');
		if (!eq || !*w[i])
			continue;
		*eq = 0;
		d[n++] = (lego_define){w[i], strtoll(eq + 1, NULL, 10)};
	}
	return n;
}

/* "i=0..8 N=16": ranges of index variables, values of sizes (hi = lo+1). */
static size_t parse_over(char *s, var *v, size_t cap)
{
	char *w[MAX_VARS];
	size_t n = 0, nw = split(s, ' ', w, MAX_VARS);
	for (size_t i = 0; i < nw && n < cap; i++) {
		char *eq = strchr(w[i], '='), *dots;
		if (!eq)
			continue;
		*eq = 0;
		snprintf(v[n].name, sizeof v[n].name, "%s", w[i]);
		v[n].lo = strtoll(eq + 1, &dots, 10);
		v[n].hi = strncmp(dots, "..", 2) ? v[n].lo + 1
						 : strtoll(dots + 2, NULL, 10);
		n++;
	}
	return n;
}

static uint64_t next(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 17;
}

/* 1 when the three expressions agree at every point checked (*points
 * counts them, *full says whether that was every point). */
static int agree(lego_ctx *ctx, lego_expr *const *es, const var *v,
		 size_t nv, long *points, int *full)
{
	lego_env *env = lego_env_new(ctx);
	double total = 1;
	int ok = env != NULL;
	for (size_t i = 0; i < nv; i++)
		total *= (double)(v[i].hi - v[i].lo);
	*full = total <= MAX_EXHAUSTIVE;
	long n = *full ? (long)total : (1L << (nv < 16 ? nv : 16)) + SAMPLES;
	uint64_t seed = 1;
	for (long p = 0; ok && p < n; p++) {
		long rest = p;
		for (size_t i = 0; i < nv; i++) {
			int64_t len = v[i].hi - v[i].lo, x;
			if (*full)
				x = rest % len, rest /= len;
			else if (p < (1L << (nv < 16 ? nv : 16)))
				x = (p >> i) & 1 ? len - 1 : 0; /* corners */
			else
				x = (int64_t)(next(&seed) % (uint64_t)len);
			lego_env_bind(env, v[i].sym, v[i].lo + x);
		}
		int64_t r[3];
		for (int k = 0; k < 3 && ok; k++)
			ok = lego_expr_eval(ctx, es[k], env, &r[k]) == LEGO_OK;
		ok = ok && r[0] == r[1] && r[1] == r[2];
		*points = p + 1;
	}
	lego_env_free(env);
	return ok;
}

/* The derived expression of the form "apply L e1, e2" or "inv L e : k",
 * simplified, and its unsimplified definition in *raw. */
static lego_expr *derive(lego_ctx *ctx, lego_spec *spec, char *form,
			 lego_expr **raw)
{
	char *w[3], *args[MAX_ARGS];
	if (split(form, ' ', w, 3) != 3)
		return NULL;
	lego_layout *l = lego_spec_layout(spec, w[1]);
	if (!l)
		return NULL;
	lego_expr *idx[MAX_ARGS];
	if (!strcmp(w[0], "apply")) {
		size_t n = split(w[2], ',', args, MAX_ARGS);
		if (n != lego_layout_rank(l))
			return NULL;
		for (size_t i = 0; i < n; i++)
			if (!(idx[i] = lego_spec_parse_expr(spec, args[i], NULL)))
				return NULL;
		*raw = lego_layout_apply(ctx, l, idx);
	} else if (!strcmp(w[0], "inv")) {
		if (split(w[2], ':', args, 2) != 2)
			return NULL;
		size_t k = strtoul(args[1], NULL, 10);
		lego_expr *flat = lego_spec_parse_expr(spec, args[0], NULL);
		if (!flat || k >= lego_layout_rank(l) ||
		    lego_layout_inv(ctx, l, flat, idx) != LEGO_OK)
			return NULL;
		*raw = idx[k];
	} else {
		return NULL;
	}
	return *raw ? lego_simplify(ctx, *raw) : NULL;
}

/* One corpus line: 1 passed, 0 failed (with the table row printed). */
static int run_entry(entry *en, const char *dir, int verbose)
{
	char path[4096], *authors = en->f[5];
	lego_define defs[MAX_VARS];
	var v[MAX_VARS];
	size_t nd = parse_defs(en->f[2], defs, MAX_VARS);
	size_t nv = parse_over(en->f[6], v, MAX_VARS);
	lego_ctx *ctx = lego_ctx_new();
	snprintf(path, sizeof path, "%s/%s", dir, en->f[1]);
	lego_spec *spec = lego_spec_load(ctx, path, defs, nd);
	lego_expr *raw = NULL;
	lego_expr *got = spec ? derive(ctx, spec, en->f[3], &raw) : NULL;
	lego_expr *ref = spec ? lego_spec_parse_expr(spec, en->f[4], NULL) : NULL;
	int ok = got && ref;
	for (size_t i = 0; ok && i < nv; i++)
		ok = (v[i].sym = lego_sym_find(ctx, v[i].name)) != NULL;
	long points = 0;
	int full = 0;
	lego_expr *es[3] = {raw, got, ref};
	int same = ok && agree(ctx, es, v, nv, &points, &full);
	size_t ours = ok ? lego_expr_ops(&got, 1) : 0;
	size_t theirs = ok ? lego_expr_ops(&ref, 1) : 0;
	/* "15 wrong": their count, not compared (their form is inexact) */
	int a_ok = strcmp(authors, "-") && !strstr(authors, "wrong");
	size_t a_ops = a_ok ? strtoul(authors, NULL, 10) : 0;
	int pass = same && ours <= theirs && (!a_ok || ours <= a_ops);
	if (!ok) {
		printf("| %s | error: %s | | | | FAIL |\n", en->f[0],
		       lego_ctx_error(ctx));
	} else {
		printf("| %s | %zu | %zu | %s | %ld %s | %s |\n", en->f[0],
		       ours, theirs, authors, points,
		       full ? "(all)" : "(sampled)",
		       !same ? "FAIL: values differ"
		       : pass ? (ours < theirs ? "better" : "equal")
			      : "FAIL: more operations");
	}
	if (ok && (verbose || !pass)) {
		char *p = lego_expr_print(ctx, got, LEGO_LANG_C);
		printf("|   liblego: `%s` |\n|   reference: `%s` |\n", p ? p : "?",
		       en->f[4]);
		free(p);
	}
	lego_ctx_free(ctx);
	return pass;
}

int main(int argc, char **argv)
{
	const char *file = NULL;
	int check = 0, verbose = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			check = 1;
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts("usage: bench-simplify CORPUS [--check] [-v]");
			return 0;
		} else
			file = argv[i];
	}
	FILE *in = file ? fopen(file, "r") : NULL;
	if (!in) {
		fprintf(stderr, "usage: bench-simplify CORPUS [--check] [-v]\n");
		return 2;
	}
	char dir[512], line[2048];
	snprintf(dir, sizeof dir, "%s", file);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	int passed = 0, failed = 0;
	puts("| expression | liblego ops | hand-written ops | authors' ops | "
	     "points checked | verdict |");
	puts("|---|---|---|---|---|---|");
	while (fgets(line, sizeof line, in)) {
		entry en;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		en.nf = split(s, ';', en.f, MAX_FIELDS);
		if (en.nf != 7) {
			printf("| bad corpus line: %s | | | | | FAIL |\n", s);
			failed++;
			continue;
		}
		if (run_entry(&en, dir, verbose))
			passed++;
		else
			failed++;
	}
	fclose(in);
	if (check)
		printf("corpus: %d passed, %d failed\n", passed, failed);
	return check && failed ? 1 : 0;
}

/* core.h - the context, its arena and error reporting (internal). */
#ifndef LEGO_CORE_H
#define LEGO_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "lego.h"

/* Bump allocator: objects live until the arena is freed. */
typedef struct lego_arena_chunk lego_arena_chunk;
typedef struct lego_arena {
	lego_arena_chunk *head;
	size_t used; /* bytes used in head */
} lego_arena;

void *lego_arena_alloc(lego_arena *a, size_t size);   /* zeroed, aligned */
char *lego_arena_strdup(lego_arena *a, const char *s);
char *lego_arena_strndup(lego_arena *a, const char *s, size_t n);
void lego_arena_free(lego_arena *a);

/* Per-module state, each defined and owned by its module. */
struct lego_expr_pool;  /* src/expr */
struct lego_facts;      /* src/simplify */
struct lego_smt;        /* src/smt, created on first use */

/* Cleanup hooks of modules whose state is created lazily. */
typedef void (*lego_cleanup_fn)(lego_ctx *ctx);
enum { LEGO_MAX_CLEANUPS = 8 };

struct lego_ctx {
	lego_arena arena;            /* layouts, specs, strings, nodes */
	struct lego_expr_pool *pool; /* hash-consing table and symbols */
	struct lego_facts *facts;    /* assumptions and simplifier caches */
	struct lego_smt *smt;        /* solver state, NULL until needed */
	lego_cleanup_fn cleanups[LEGO_MAX_CLEANUPS];
	int ncleanups;
	char error[2048];
};

/* Module life cycle, called by lego_ctx_new/free. */
int lego_expr_pool_init(lego_ctx *ctx);
void lego_expr_pool_free(lego_ctx *ctx);
int lego_facts_init(lego_ctx *ctx);
void lego_facts_free(lego_ctx *ctx);

/* Run fn when the context is freed (before the pools). */
int lego_ctx_on_free(lego_ctx *ctx, lego_cleanup_fn fn);

/* Set the context's message; returns status so callers can
 * `return lego_fail(ctx, LEGO_ERR, "...")`. */
int lego_fail(lego_ctx *ctx, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int lego_vfail(lego_ctx *ctx, int status, const char *fmt, va_list ap);
/* Same, for functions returning a pointer: always returns NULL. */
void *lego_fail_null(lego_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Refuses an input text longer than LEGO_MAX_INPUT_BYTES (a located
 * message in ctx, LEGO_ERANGE). */
int lego_check_input_size(lego_ctx *ctx, const char *filename, size_t len);

/* The hash of a name, for the name tables (FNV-1a). */
uint32_t lego_hash_name(const char *name);

/* A NULL argument: usually the result of a failed call, whose message
 * the context keeps; a message naming fn when it holds none.  NULL. */
void *lego_fail_arg(lego_ctx *ctx, const char *fn);

/* Allocation that reports exhaustion through ctx. */
void *lego_xalloc(lego_ctx *ctx, size_t size);

#endif

/* sqlite_load.h - libsqlite3 opened with dlopen when the tuning cache is
 * first opened, not linked: linked, the dynamic linker resolves its
 * ~1200 BIND_NOW relocations at every start of every command (0.2-0.4 ms
 * of a 1.5 ms `lego gen`), although only `lego tune` uses it.  A build
 * that links it (a static one: -DLEGO_SQLITE_LINKED) uses it directly.
 *
 * Included after <sqlite3.h> by the cache, it redirects the sqlite3_*
 * names the cache uses to the loaded entry points (internal to
 * src/tune). */
#ifndef LEGO_TUNE_SQLITE_LOAD_H
#define LEGO_TUNE_SQLITE_LOAD_H

#include <sqlite3.h>
#include <stddef.h>

#define TUNE_SQLITE_API(X)                                                 \
	X(open) X(busy_timeout) X(exec) X(errmsg) X(free) X(close)        \
	X(prepare_v2) X(bind_text) X(bind_double) X(bind_null) X(step)    \
	X(column_type) X(column_double) X(column_text) X(finalize)     \
	X(bind_int)

typedef struct tune_sqlite_api {
#define TUNE_SQLITE_FIELD(name) __typeof__(sqlite3_##name) *name;
	TUNE_SQLITE_API(TUNE_SQLITE_FIELD)
#undef TUNE_SQLITE_FIELD
} tune_sqlite_api;

/* 0 once the entry points are there; -1 with a message in err. */
int tune_sqlite_load(char *err, size_t errcap);
/* The entry points (after tune_sqlite_load succeeded). */
const tune_sqlite_api *tune_sqlite(void);

#ifndef TUNE_SQLITE_LOADER
#define sqlite3_open tune_sqlite()->open
#define sqlite3_busy_timeout tune_sqlite()->busy_timeout
#define sqlite3_exec tune_sqlite()->exec
#define sqlite3_errmsg tune_sqlite()->errmsg
#define sqlite3_free tune_sqlite()->free
#define sqlite3_close tune_sqlite()->close
#define sqlite3_prepare_v2 tune_sqlite()->prepare_v2
#define sqlite3_bind_text tune_sqlite()->bind_text
#define sqlite3_bind_double tune_sqlite()->bind_double
#define sqlite3_bind_null tune_sqlite()->bind_null
#define sqlite3_step tune_sqlite()->step
#define sqlite3_column_type tune_sqlite()->column_type
#define sqlite3_column_double tune_sqlite()->column_double
#define sqlite3_column_text tune_sqlite()->column_text
#define sqlite3_finalize tune_sqlite()->finalize
#define sqlite3_bind_int tune_sqlite()->bind_int
#endif

#endif

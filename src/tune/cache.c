/* cache.c - every measurement in an SQLite database, keyed by device,
 * driver, template hash, problem and configuration: a re-run or a
 * resumed run finds what was measured and measures it not again. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/sqlite_load.h"
#include "tune/tune.h"

struct lego_tune_cache {
	sqlite3 *db;
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS results ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" device TEXT NOT NULL, driver TEXT NOT NULL,"
	" template TEXT NOT NULL, problem TEXT NOT NULL,"
	" config TEXT NOT NULL,"
	" ms REAL,"              /* NULL: the candidate failed */
	" why TEXT,"
	" at TEXT DEFAULT CURRENT_TIMESTAMP,"
	" UNIQUE (device, driver, template, problem, config));"
	/* the best re-measured in interleaved rounds: the median decides */
	"CREATE TABLE IF NOT EXISTS remeasured ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" device TEXT NOT NULL, driver TEXT NOT NULL,"
	" template TEXT NOT NULL, problem TEXT NOT NULL,"
	" config TEXT NOT NULL,"
	" ms REAL,"              /* the median; NULL: it failed */
	" rounds INTEGER NOT NULL,"
	" times TEXT,"           /* each round's, in ms */
	" at TEXT DEFAULT CURRENT_TIMESTAMP,"
	" UNIQUE (device, driver, template, problem, config));";

lego_tune_cache *lego_tune_cache_open(const char *path, char *err,
				      size_t errcap)
{
	char why[512];
	if (tune_sqlite_load(why, sizeof why)) {
		snprintf(err, errcap, "%s: error: cannot open the tuning cache: "
			 "%s", path, why);
		return NULL;
	}
	lego_tune_cache *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errcap, "out of memory");
		return NULL;
	}
	char *msg = NULL;
	if (sqlite3_open(path, &c->db) != SQLITE_OK ||
	    sqlite3_busy_timeout(c->db, 10000) != SQLITE_OK ||
	    /* one sync per checkpoint, not per measurement */
	    sqlite3_exec(c->db, "PRAGMA journal_mode=WAL; PRAGMA "
			 "synchronous=NORMAL;", NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(c->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errcap, "%s: error: cannot open the tuning cache: "
			 "%s", path, msg ? msg : sqlite3_errmsg(c->db));
		sqlite3_free(msg);
		lego_tune_cache_close(c);
		return NULL;
	}
	return c;
}

void lego_tune_cache_close(lego_tune_cache *c)
{
	if (!c)
		return;
	sqlite3_close(c->db);
	free(c);
}

static sqlite3_stmt *prepare(lego_tune_cache *c, const char *sql,
			     const lego_tune_key *k, const char *config)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, k->device, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->driver, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->template_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->problem, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, config, -1, SQLITE_STATIC);
	return st;
}

/* A time column: NULL (the candidate failed) reads as infinity. */
static double column_ms(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL
		       ? INFINITY : sqlite3_column_double(st, col);
}

/* Runs st, a query of one time column, into *ms; finalizes st.  Whether a
 * row was found. */
static int fetch_ms(sqlite3_stmt *st, double *ms)
{
	int found = st && sqlite3_step(st) == SQLITE_ROW;
	if (found)
		*ms = column_ms(st, 0);
	sqlite3_finalize(st);
	return found;
}

int lego_tune_cache_get(lego_tune_cache *c, const lego_tune_key *k,
			const char *config, double *ms)
{
	sqlite3_stmt *st = prepare(c, "SELECT ms FROM results WHERE device=?1 "
				   "AND driver=?2 AND template=?3 AND "
				   "problem=?4 AND config=?5", k, config);
	return fetch_ms(st, ms);
}

int lego_tune_cache_put(lego_tune_cache *c, const lego_tune_key *k,
			const char *config, double ms, const char *why)
{
	sqlite3_stmt *st = prepare(c, "INSERT OR REPLACE INTO results (device, "
				   "driver, template, problem, config, ms, why) "
				   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", k,
				   config);
	if (!st)
		return -1;
	if (isfinite(ms))
		sqlite3_bind_double(st, 6, ms);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_text(st, 7, why, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

static char *column(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? strdup((const char *)s) : NULL;
}

/* The records of table matching k, in the order written: sql selects
 * config, ms, a text (why, times), template, problem, device. */
static int records(lego_tune_cache *c, const char *sql,
		   const lego_tune_key *k, lego_tune_record **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, k->template_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->problem, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->device, -1, SQLITE_STATIC);
	int rc = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			lego_tune_record *grown = realloc(*out, cap * sizeof **out);
			if (!grown) {
				rc = -1;
				break;
			}
			*out = grown;
		}
		lego_tune_record *r = &(*out)[(*n)++];
		r->config = column(st, 0);
		r->ms = column_ms(st, 1);
		r->why = column(st, 2);
		r->template_hash = column(st, 3);
		r->problem = column(st, 4);
		r->device = column(st, 5);
	}
	sqlite3_finalize(st);
	return rc;
}

#define MATCH " WHERE (?1 IS NULL OR template=?1) AND (?2 IS NULL OR " \
	"problem=?2) AND (?3 IS NULL OR device=?3) ORDER BY seq"

int lego_tune_cache_history(lego_tune_cache *c, const lego_tune_key *k,
			    lego_tune_record **out, size_t *n)
{
	return records(c, "SELECT config, ms, why, template, problem, device "
		       "FROM results" MATCH, k, out, n);
}

int lego_tune_cache_finals(lego_tune_cache *c, const lego_tune_key *k,
			   lego_tune_record **out, size_t *n)
{
	return records(c, "SELECT config, ms, times, template, problem, "
		       "device FROM remeasured" MATCH, k, out, n);
}

int lego_tune_cache_final_get(lego_tune_cache *c, const lego_tune_key *k,
			      const char *config, int rounds, double *ms)
{
	sqlite3_stmt *st = prepare(c, "SELECT ms FROM remeasured WHERE "
				   "device=?1 AND driver=?2 AND template=?3 "
				   "AND problem=?4 AND config=?5 AND rounds=?6",
				   k, config);
	if (st)
		sqlite3_bind_int(st, 6, rounds);
	return fetch_ms(st, ms);
}

int lego_tune_cache_final_put(lego_tune_cache *c, const lego_tune_key *k,
			      char *const *configs, const double *ms,
			      char *const *times, size_t n, int rounds)
{
	if (sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	sqlite3_stmt *st = prepare(c, "DELETE FROM remeasured WHERE device=?1 "
				   "AND driver=?2 AND template=?3 AND "
				   "problem=?4 AND ?5 IS NULL", k, NULL); /* every config */
	int rc = st && sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	for (size_t i = 0; i < n && !rc; i++) {
		st = prepare(c, "INSERT INTO remeasured (device, driver, "
			     "template, problem, config, ms, rounds, times) "
			     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", k,
			     configs[i]);
		if (st && isfinite(ms[i]))
			sqlite3_bind_double(st, 6, ms[i]);
		if (st) {
			sqlite3_bind_int(st, 7, rounds);
			sqlite3_bind_text(st, 8, times[i], -1, SQLITE_STATIC);
		}
		rc = st && sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(st);
	}
	return sqlite3_exec(c->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL,
			    NULL) == SQLITE_OK ? rc : -1;
}

void lego_tune_records_free(lego_tune_record *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].config);
		free(r[i].why);
		free(r[i].template_hash);
		free(r[i].problem);
		free(r[i].device);
	}
	free(r);
}

/* The lowest successful record of r[0..n): 1 with *config and *ms, the
 * record's config taken from it. */
static int lowest(lego_tune_record *r, size_t n, char **config, double *ms)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (isfinite(r[i].ms) && (best == SIZE_MAX || r[i].ms < r[best].ms))
			best = i;
	if (best != SIZE_MAX) {
		*config = r[best].config;
		*ms = r[best].ms;
		r[best].config = NULL;
	}
	return best != SIZE_MAX;
}

int lego_tune_cache_best(lego_tune_cache *c, const lego_tune_key *k,
			 char **config, double *ms)
{
	lego_tune_record *r;
	size_t n;
	if (lego_tune_cache_finals(c, k, &r, &n))
		return -1;
	int found = lowest(r, n, config, ms);
	lego_tune_records_free(r, n);
	if (found)
		return found;
	if (lego_tune_cache_history(c, k, &r, &n))
		return -1;
	found = lowest(r, n, config, ms);
	lego_tune_records_free(r, n);
	return found;
}

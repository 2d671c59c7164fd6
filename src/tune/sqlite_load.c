/* sqlite_load.c - libsqlite3's entry points, resolved once per process
 * (see sqlite_load.h for why).  The table is process-wide, as the
 * dynamic linker's own tables are: written once under pthread_once
 * before anything reads it, never changed afterwards. */
#define TUNE_SQLITE_LOADER
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "tune/sqlite_load.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static tune_sqlite_api api;
static char why[512];

#ifdef LEGO_SQLITE_LINKED
static void load(void)
{
#define TUNE_SQLITE_TAKE(name) api.name = sqlite3_##name;
	TUNE_SQLITE_API(TUNE_SQLITE_TAKE)
#undef TUNE_SQLITE_TAKE
}
#else
static void load(void)
{
	static const char *const files[] = {"libsqlite3.so.0", "libsqlite3.so"};
	void *lib = NULL;
	for (size_t i = 0; !lib && i < sizeof files / sizeof files[0]; i++)
		lib = dlopen(files[i], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, sizeof why, "SQLite is not installed: %s (on "
			 "Debian: apt-get install libsqlite3-0)", dlerror());
		return;
	}
	/* POSIX: a function pointer survives the round trip through
	 * dlsym's void *.  A missing one leaves the table incomplete. */
#define TUNE_SQLITE_RESOLVE(name)                                          \
	if (!why[0] && !(*(void **)&api.name = dlsym(lib, "sqlite3_" #name)))  \
		snprintf(why, sizeof why, "libsqlite3 has no sqlite3_%s",  \
			 #name);
	TUNE_SQLITE_API(TUNE_SQLITE_RESOLVE)
#undef TUNE_SQLITE_RESOLVE
}
#endif

int tune_sqlite_load(char *err, size_t errcap)
{
	pthread_once(&once, load);
	if (!why[0])
		return 0;
	snprintf(err, errcap, "%s", why);
	return -1;
}

const tune_sqlite_api *tune_sqlite(void)
{
	return &api;
}

/* z3load.c - libz3 opened with dlopen and its entry points resolved on
 * the first use of the solver (see z3load.h for why).
 *
 * The table is process-wide, as the dynamic linker's own tables are: a
 * library is loaded once per process.  It is written once, under
 * pthread_once, before anything reads it, and never changes afterwards. */
#ifdef LEGO_HAVE_Z3
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "smt/smt.h"

/* The soname of the libz3 built against (from the Makefile); a build
 * that does not say (the Python package's) tries the usual ones. */
#ifndef LEGO_Z3_LIB
#define LEGO_Z3_LIB "libz3.so.4"
#endif
#define LEGO_Z3_DEV_LIB "libz3.so"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static smt_z3_api api;
static int failed;
static char why[512];

/* LEGO_Z3_LIB in the environment names another libz3 (a path, or a
 * soname the dynamic linker searches for). */
static void load(void)
{
	const char *file = getenv("LEGO_Z3_LIB");
	int chosen = file && *file;
	if (!chosen)
		file = LEGO_Z3_LIB;
	void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!lib && !chosen) {
		file = LEGO_Z3_DEV_LIB;
		lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib) {
		failed = 1;
		snprintf(why, sizeof why, "Z3 is not installed: %s (on Debian: "
			 "apt-get install libz3-4)", dlerror());
		return;
	}
	/* dlsym returns the functions as void *: POSIX guarantees that a
	 * function pointer survives the round trip. */
#define SMT_Z3_RESOLVE(ret, name, params)                                  \
	if (!failed && !(*(void **)&api.name = dlsym(lib, "Z3_" #name))) { \
		failed = 1;                                                \
		snprintf(why, sizeof why, "%s has no Z3_%s: Z3 too old?",  \
			 file, #name);                                     \
	}
	SMT_Z3_API(SMT_Z3_RESOLVE)
#undef SMT_Z3_RESOLVE
	/* On failure the library stays open: dlclose of libz3 is not
	 * reliably safe (C++ static destructors), and it is mapped once. */
}

int smt_z3_load(void)
{
	pthread_once(&once, load);
	return failed ? -1 : 0;
}

const char *smt_z3_error(void)
{
	return why;
}

const smt_z3_api *smt_z3(void)
{
	return &api;
}
#endif

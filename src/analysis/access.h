/* access.h - the element offsets of a warp access (internal). */
#ifndef LEGO_ANALYSIS_ACCESS_H
#define LEGO_ANALYSIS_ACCESS_H

#include "core/core.h"

/* A warp access resolved to byte addresses of active threads. */
typedef struct warp_addrs {
	int nthreads;
	uint32_t active;               /* bit t: thread t takes part */
	int64_t offset[LEGO_WARP];     /* element offsets */
	int64_t addr[LEGO_WARP];       /* byte addresses */
	int64_t thread_bytes;          /* bytes from addr[t] each accesses */
} warp_addrs;

/* Validates the access and evaluates every thread's address.  `what`
 * names the analysis in messages. */
int warp_addrs_eval(lego_ctx *ctx, const lego_warp_access *a,
		    const char *what, warp_addrs *out);

/* The wavefronts of a warp request whose addr, active, nthreads and
 * thread_bytes are set (the model of bank.c, docs/analysis.md): *ideal
 * gets the phases with an active thread, *ways the worst phase's count. */
int64_t warp_addrs_wavefronts(const warp_addrs *w, int64_t *ideal,
			      int64_t *ways);

/* The distinct bytes, 32-byte sectors and 128-byte lines a warp request
 * (addr, active, nthreads, thread_bytes set) touches: global memory's
 * coalescing (coalesce.c, docs/analysis.md). */
void warp_addrs_units(const warp_addrs *w, int64_t *bytes, int64_t *sectors,
		      int64_t *lines);

#endif

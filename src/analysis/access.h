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

#endif

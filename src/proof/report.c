/* report.c - a layout's proof for people and for tests: one line per
 * property with its status and argument. */
#include <stdio.h>

#include "proof/proof.h"

static const char *const prop_names[LEGO_VP_COUNT] = {
	[LEGO_VP_SIMPLIFY] = "simplified == semantics",
	[LEGO_VP_INV_APPLY] = "inv(apply(i)) == i",
	[LEGO_VP_APPLY_INV] = "apply(inv(x)) == x",
	[LEGO_VP_RANGE] = "0 <= apply < size",
};

static const char *const arg_names[LEGO_BY_COUNT] = {
	[LEGO_BY_NONE] = "none",
	[LEGO_BY_CONSTRUCTION] = "construction",
	[LEGO_BY_EXHAUSTIVE] = "exhaustive",
	[LEGO_BY_Z3] = "z3",
	[LEGO_BY_CERTIFICATE] = "certificate",
};

static const char *status_name(lego_proof p)
{
	return p == LEGO_PROVED ? "proved"
	       : p == LEGO_REFUTED ? "REFUTED" : "unknown";
}

void lego_layout_proof_print(FILE *out, const char *name,
			     const lego_layout_proof *p)
{
	int proved = 0;
	if (!out || !p)
		return;
	name = name ? name : "layout";
	fprintf(out, "%s: assumptions: %s\n", name,
		p->assumptions == LEGO_PROVED ? "consistent"
		: p->assumptions == LEGO_REFUTED
			? "INCONSISTENT (they prove anything)"
			: "consistency unknown");
	for (int i = 0; i < LEGO_VP_COUNT; i++) {
		proved += p->status[i] == LEGO_PROVED;
		fprintf(out, "%s: %s: %s (%s)%s%s\n", name, prop_names[i],
			status_name(p->status[i]), arg_names[p->by[i]],
			p->why[i][0] ? ": " : "", p->why[i]);
	}
	fprintf(out, "%s: proved %d of %d (%.2f s)\n", name, proved,
		LEGO_VP_COUNT, p->seconds);
}

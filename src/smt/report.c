/* report.c - a validation report for people (lego check --prove). */
#include <stdio.h>

#include "smt/smt.h"

static const char *const prop_names[LEGO_VP_COUNT] = {
	[LEGO_VP_SIMPLIFY] = "simplified == semantics",
	[LEGO_VP_INV_APPLY] = "inv(apply(i)) == i",
	[LEGO_VP_APPLY_INV] = "apply(inv(x)) == x",
	[LEGO_VP_RANGE] = "0 <= apply < size",
};

const char *smt_vprop_name(lego_vprop p)
{
	return p < LEGO_VP_COUNT ? prop_names[p] : "?";
}

static const char *proof_name(lego_proof p)
{
	return p == LEGO_PROVED ? "proved"
	       : p == LEGO_REFUTED ? "REFUTED" : "unknown";
}

/* Why a property is not proved, on its own line. */
static void print_failure(FILE *out, lego_vprop i, const lego_vresult *r)
{
	if (r->status == LEGO_REFUTED)
		fprintf(out, "  %s refuted: %s at %s\n", prop_names[i],
			r->detail, r->counterexample);
	else if (r->status == LEGO_UNKNOWN)
		fprintf(out, "  %s unknown: %s\n", prop_names[i],
			r->detail);
}

void lego_validation_print(FILE *out, const char *name,
			   const lego_validation *report)
{
	if (!out || !report)
		return;
	const lego_vresult *p = report->prop;
	fprintf(out, "%s: ", name ? name : "layout");
	for (int i = 0; i < LEGO_VP_COUNT; i++) {
		fprintf(out, "%s%s: %s", i ? "; " : "", prop_names[i],
			proof_name(p[i].status));
		if (i == LEGO_VP_SIMPLIFY)
			fprintf(out, " (apply, %zu inverse coordinate%s)",
				report->napply_inv,
				report->napply_inv == 1 ? "" : "s");
	}
	fprintf(out, " (%.2f s)\n", report->seconds);
	for (int i = 0; i < LEGO_VP_COUNT; i++)
		print_failure(out, (lego_vprop)i, &p[i]);
}

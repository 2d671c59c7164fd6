/* test_proof_swizzle.c - the built-in swizzle proved for every size by
 * its certificate (src/proof/swizzle.c): an involution keeping aligned
 * blocks of 2^(M+B), over 64-bit bit-vectors, and a size that the
 * assumptions make a multiple of the block; without that assumption the
 * property is not claimed (sizes such as T = 3 are no bijection), and
 * what is claimed holds exhaustively at concrete sizes. */
#include <string.h>

#include "harness.h"
#include "lego.h"

static const char with_assume[] =
	"sym T\nassume T % 8 == 0\n"
	"layout S = GenP([T, 16], swizzle(3, 4, 3))\n";
static const char without[] =
	"sym T\nlayout S = GenP([T, 16], swizzle(3, 4, 3))\n";

/* ms: generous where the proof must succeed (the sanitizers, a loaded
 * machine), short where it must not: the whole-layout queries that
 * follow a stopped construction would take it all. */
static int prove(lego_test *t, lego_ctx *ctx, const char *text,
		 unsigned ms, lego_layout_proof *p)
{
	lego_spec *spec = lego_spec_parse(ctx, "t.lego", text, strlen(text),
					  NULL, 0);
	lego_layout *l = spec ? lego_spec_layout(spec, "S") : NULL;
	CHECKF(t, l != NULL, "%s", lego_ctx_error(ctx));
	return l && lego_layout_prove(ctx, l, ms, p) == LEGO_OK;
}

static void by_certificate(lego_test *t)
{
	lego_layout_proof p;
	lego_ctx *ctx = lego_ctx_new();
	if (prove(t, ctx, with_assume, 60000, &p))
		for (int i = LEGO_VP_INV_APPLY; i < LEGO_VP_COUNT; i++)
			CHECKF(t, p.status[i] == LEGO_PROVED &&
				       p.by[i] == LEGO_BY_CONSTRUCTION &&
				       strstr(p.why[i], "swizzle by its "
							"certificate"),
			       "%s", p.why[i]);
	lego_ctx_free(ctx);
	ctx = lego_ctx_new();
	if (prove(t, ctx, without, 500, &p)) {
		CHECK(t, p.verdict != LEGO_PROVED);
		CHECKF(t, strstr(p.why[LEGO_VP_INV_APPLY], "= 128 divides the "
				 "size: not proved"),
		       "%s", p.why[LEGO_VP_INV_APPLY]);
	}
	lego_ctx_free(ctx);
}

/* The claim at T = 8 and 24 (bijective), and the reason for the
 * assumption: at T = 3 the constructor refuses the size. */
static void claims_hold(lego_test *t)
{
	static const int64_t sizes[] = {8, 24, 3};
	for (size_t s = 0; s < 3; s++) {
		lego_define d[] = {{"T", sizes[s]}};
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *spec = lego_spec_parse(ctx, "t.lego", without,
						  strlen(without), d, 1);
		lego_layout *l = spec ? lego_spec_layout(spec, "S") : NULL;
		lego_check_report r;
		memset(&r, 0, sizeof r);
		if (sizes[s] == 3)
			CHECKF(t, !l || lego_layout_check(ctx, l, NULL, &r) !=
						LEGO_OK,
			       "T = 3 accepted%s", "");
		else
			CHECKF(t, l && lego_layout_check(ctx, l, NULL, &r) ==
						LEGO_OK && r.bijective &&
					r.inverse_ok,
			       "T = %lld: %s", (long long)sizes[s],
			       lego_ctx_error(ctx));
		lego_ctx_free(ctx);
	}
}

void proof_swizzle_certificate(lego_test *t);
void proof_swizzle_certificate(lego_test *t)
{
	test_case(t, "swizzle_proved_by_certificate");
	by_certificate(t);
	test_case(t, "swizzle_certificate_claims_hold_exhaustively");
	claims_hold(t);
}

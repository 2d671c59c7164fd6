/* print.c - a Lift expression back to text: what the rewrite rules made,
 * in a form lift_parse reads back (every application, composition and
 * lambda parenthesised). */
#include "expr/sbuf.h"
#include "lift/lift.h"

static void print(lego_sbuf *b, const lift_ast *a)
{
	switch (a->kind) {
	case LIFT_VAR:
	case LIFT_NUM:
		lego_sbuf_puts(b, a->name);
		return;
	case LIFT_CALL:
		lego_sbuf_printf(b, "%s(", a->name);
		for (size_t k = 0; k < a->nargs; k++) {
			if (k)
				lego_sbuf_puts(b, ", ");
			print(b, a->args[k]);
		}
		lego_sbuf_puts(b, ")");
		return;
	case LIFT_APPLY:
	case LIFT_COMPOSE:
		lego_sbuf_puts(b, "(");
		print(b, a->args[0]);
		lego_sbuf_puts(b, a->kind == LIFT_APPLY ? " $ " : " o ");
		print(b, a->args[1]);
		lego_sbuf_puts(b, ")");
		return;
	case LIFT_LAMBDA:
		lego_sbuf_puts(b, "(\\");
		for (size_t k = 0; k < a->nparams; k++)
			lego_sbuf_printf(b, "%s%s", k ? ", " : "", a->params[k]);
		lego_sbuf_puts(b, " -> ");
		print(b, a->args[0]);
		lego_sbuf_puts(b, ")");
		return;
	}
}

char *lift_ast_print(const lift_ast *a)
{
	lego_sbuf b = {0};
	print(&b, a);
	return lego_sbuf_take(&b);
}

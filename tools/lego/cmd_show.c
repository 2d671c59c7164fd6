/* cmd_show.c - `lego show`: a picture of a layout, as a text grid or an
 * SVG document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands_extra.h"

static const char show_help[] =
	"Usage: lego show FILE NAME [-o OUT] [--svg] [--inverse] [--tile N|none]\n"
	"                 [--rows K] [--slice K] [--ascii] [--color]\n"
	"                 [--title TEXT]\n"
	"                 [-D SYM=VALUE]...\n\n"
	"Draw the 2-D logical view of layout NAME (concrete sizes): each cell\n"
	"shows its physical index; cells of one tile share a colour and tiles\n"
	"are outlined.  Text goes to stdout, or to OUT; OUT ending in .svg (or\n"
	"--svg) gives an SVG document.\n\n"
	"The view: a TileBy (or a GroupBy of several equal groups) shows the\n"
	"untiled space, a tile being one value of its outer levels; other\n"
	"layouts show their logical dims, the leading ones as rows.  Without\n"
	"groups, tiles are the blocks of the inner levels of the outermost\n"
	"OrderBy, if it has several (docs/analysis.md).  A view of more than\n"
	"two dims too wide for one grid (over 32 columns) is drawn as 2-D\n"
	"slices of its last two dims, one per value of the others (captioned\n"
	"NAME[i, :, :]), unless --rows is given.\n\n"
	"Options:\n"
	"  -o OUT          write to OUT (.svg: SVG)\n"
	"  --svg           SVG even on stdout\n"
	"  --inverse       cells are physical positions, showing the view\n"
	"                  coordinates row,col of the element they hold\n"
	"  --tile N        a tile is physical indices [kN, (k+1)N)\n"
	"  --tile none     no tiles\n"
	"  --rows K        the first K view dims form the rows (one grid)\n"
	"  --slice K       only slice K (from 0; outer dims row-major)\n"
	"  --ascii         text with ASCII instead of box characters\n"
	"  --color         text with tiles in colours (ANSI terminals)\n"
	"  --title TEXT    SVG caption (default: NAME)\n"
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n"
	"  -h, --help      show this help\n";

typedef struct show_args {
	const char *out, *tile, *rows, *slice, *title;
	int svg, inverse, ascii, color;
} show_args;

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static int show_opts_of(const show_args *sa, lego_show_opts *o)
{
	long long v = 0;
	if (sa->tile && !strcmp(sa->tile, "none")) {
		o->tile = -1;
	} else if (sa->tile) {
		if (extra_int("show", "--tile", sa->tile, &v))
			return CLI_USAGE;
		if (v <= 0)
			return cli_usage("show", "--tile expects a positive "
					 "size or 'none'");
		o->tile = v;
	}
	if (sa->rows && extra_int("show", "--rows", sa->rows, &v))
		return CLI_USAGE;
	if (sa->rows && v < 1)
		return cli_usage("show", "--rows expects a positive count");
	o->row_dims = sa->rows ? (int)v : 0;
	if (sa->slice && extra_int("show", "--slice", sa->slice, &v))
		return CLI_USAGE;
	if (sa->slice && v < 0)
		return cli_usage("show", "--slice expects a slice number from 0");
	o->slice = sa->slice ? v + 1 : 0;
	o->inverse = sa->inverse;
	o->ascii = sa->ascii;
	o->color = sa->color;
	return CLI_OK;
}

static int need_concrete(cli_session *s, const char *name)
{
	int64_t size;
	lego_expr *e = lego_layout_size(s->ctx, s->layout);
	if (!e)
		return cli_ctx_fail(s->ctx);
	return lego_expr_is_const(e, &size)
		? CLI_OK
		: cli_fail_at(s, name, "layout %s has symbolic sizes; give "
			      "their values with -D SYM=VALUE", name);
}

static int draw(const cli_args *a, const show_args *sa, lego_show_opts *o)
{
	cli_session s;
	int rc = cli_open(&s, a, a->pos[1]);
	lego_env *env = rc == CLI_OK ? lego_env_new(s.ctx) : NULL;
	if (rc == CLI_OK && !env)
		rc = cli_ctx_fail(s.ctx);
	if (rc == CLI_OK)
		rc = need_concrete(&s, a->pos[1]);
	if (rc == CLI_OK) {
		int svg = sa->svg || (sa->out && ends_with(sa->out, ".svg"));
		o->env = env;
		o->title = sa->title ? sa->title : a->pos[1];
		char *pic = svg ? lego_show_svg(s.ctx, s.layout, o)
				: lego_show_text(s.ctx, s.layout, o);
		rc = pic ? cli_write_output(sa->out, pic, a->pos, 1) : cli_ctx_fail(s.ctx);
		free(pic);
	}
	lego_env_free(env);
	if (s.ctx)
		cli_close(&s);
	return rc;
}

int lego_cmd_show(int argc, char **argv)
{
	show_args sa = {0};
	const extra_opt opts[] = {
		{"-o", &sa.out, NULL},          {"--svg", NULL, &sa.svg},
		{"--inverse", NULL, &sa.inverse}, {"--tile", &sa.tile, NULL},
		{"--rows", &sa.rows, NULL},     {"--ascii", NULL, &sa.ascii},
		{"--slice", &sa.slice, NULL},
		{"--title", &sa.title, NULL},   {"--color", NULL, &sa.color},
	};
	lego_show_opts o = {0};
	cli_args a;
	int rc = extra_take_opts("show", &argc, argv, opts,
				 sizeof opts / sizeof opts[0]);
	if (rc == CLI_OK)
		rc = cli_args_parse(&a, "show", argc, argv);
	else
		return rc;
	if (rc == CLI_OK && a.help)
		fputs(show_help, stdout);
	else if (rc == CLI_OK && a.npos != 2)
		rc = cli_usage("show", "expected FILE NAME, got %zu arguments",
			       a.npos);
	else if (rc == CLI_OK && (rc = show_opts_of(&sa, &o)) == CLI_OK)
		rc = draw(&a, &sa, &o);
	cli_args_free(&a);
	return rc;
}

#!/bin/sh
# run.sh BUILD - the library as a user gets it: `make install` to a
# temporary prefix, then programs built through pkg-config against the
# shared library (found through its soname) and, with --static, the static
# one; the shared library exports exactly the functions of lego.h.  The
# make variables of the build under test come in LEGO_MAKEVARS, its
# sanitizer flags in LEGO_SANFLAGS (from `make check`).
# Last line: "install: N passed, N failed".
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
cc=${CC:-cc}
san=${LEGO_SANFLAGS:-}
# Run alone, the suite reads the build's options from its configuration,
# so that `make install` below does not rebuild it otherwise.
if [ -z "${LEGO_MAKEVARS:-}" ]; then
	LEGO_MAKEVARS="BUILD=$build"
	grep -q -- "-fsanitize" "$build/config" 2>/dev/null &&
		LEGO_MAKEVARS="$LEGO_MAKEVARS SAN=1" &&
		san="-fsanitize=address,undefined -fno-sanitize-recover=all"
	grep -q -- "-DLEGO_HAVE_Z3" "$build/config" 2>/dev/null ||
		LEGO_MAKEVARS="$LEGO_MAKEVARS NO_Z3=1"
fi

# Sub-makes get the variables named here, not those of the calling make.
unset MAKEFLAGS MAKELEVEL MFLAGS

# Quiet builds and the build's configuration, on one object in a scratch
# build directory: "  CC  file" by default, the command with V=1; up to date
# when nothing changed; out of date when an option (NO_Z3, SAN) changes.
obj=src/core/arena
mk() { make --no-print-directory -C "$root" BUILD="$tmp/b" "$@" "$tmp/b/$obj.o"; }
mk >"$tmp/log" 2>&1
if [ "$(cat "$tmp/log")" = "  CC   $obj.c" ]; then ok; else
	bad "quiet build: want '  CC   $obj.c'"; cat "$tmp/log"; fi
rm -f "$tmp/b/$obj.o"
if mk V=1 2>&1 | grep -q -- "-c $obj.c -o $tmp/b/$obj.o"; then ok; else
	bad "V=1 shows no compiler command"; fi
if mk -q; then ok; else bad "make after make: not up to date"; fi
if ! mk -q NO_Z3=1; then ok; else bad "make NO_Z3=1 after make: nothing to do"; fi
if mk NO_Z3=1 >/dev/null 2>&1 && ! grep -q LEGO_HAVE_Z3 "$tmp/b/config" &&
	mk -q NO_Z3=1; then ok; else bad "make NO_Z3=1: configuration not recorded"; fi
if ! mk -q OPT=-O0; then ok; else bad "make OPT=-O0 after make: nothing to do"; fi

prefix=$tmp/prefix
# shellcheck disable=SC2086
if make -s -C "$root" install PREFIX="$prefix" BUILD="$build" \
	${LEGO_MAKEVARS:-} >"$tmp/log" 2>&1; then ok; else
	bad "make install"; cat "$tmp/log"; fi
lib=$prefix/lib
export PKG_CONFIG_PATH="$lib/pkgconfig"

# The manual page is installed, reads as one, and has a section for every
# command `lego --help` lists.
man=$prefix/share/man/man1/lego.1
commands=$("$prefix/bin/lego" --help | sed -n 's/^  lego \([a-z]*\) .*/\1/p')
missing=""
for c in $commands; do
	grep -q "^\.SS $c\$" "$man" 2>/dev/null || missing="$missing $c"
done
if [ -n "$commands" ] && [ -z "$missing" ] && head -1 "$man" | grep -q '^\.TH LEGO 1 ' &&
	{ ! command -v man >/dev/null 2>&1 ||
	  MANWIDTH=80 man -l "$man" 2>/dev/null | grep -q '^COMMANDS'; }; then
	ok
else
	bad "manual page $man: no section for:$missing"
fi

# The soname chain: liblego.so -> liblego.so.MAJOR -> liblego.so.VERSION.
version=$(sed -n 's/^#define LEGO_VERSION "\(.*\)"/\1/p' "$root/include/lego.h")
major=${version%%.*}
soname=$(readelf -d "$lib/liblego.so.$version" 2>/dev/null |
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = "liblego.so.$major" ] &&
	[ "$(readlink "$lib/liblego.so")" = "liblego.so.$major" ] &&
	[ "$(readlink "$lib/liblego.so.$major")" = "liblego.so.$version" ]; then
	ok
else
	bad "soname: want liblego.so.$major, links to liblego.so.$version (got '$soname')"
fi
if [ "$(pkg-config --modversion lego)" = "$version" ]; then ok; else
	bad "pkg-config --modversion lego: want $version"; fi

# Exported symbols: exactly the functions declared in lego.h, read from
# the header itself (a declaration's name is the "lego_x(" that ends a
# return type).
sed -n 's/^[a-z0-9_ ]*[ *]\(lego_[a-z0-9_]*\)(.*/\1/p' "$root/include/lego.h" |
	sort -u >"$tmp/api"
nm -D --defined-only "$lib/liblego.so" | awk '$2 ~ /^[TWDBR]$/ {print $3}' |
	sort -u >"$tmp/exported"
if [ -s "$tmp/api" ] && cmp -s "$tmp/api" "$tmp/exported"; then ok; else
	bad "nm -D: the exported symbols are not lego.h's functions"
	diff "$tmp/api" "$tmp/exported" | head -10
fi

# The API example (it checks the paper's figure 9 values itself) linked
# against the shared library, run with the library found through its
# soname in the prefix, and nothing else from the build tree.
# shellcheck disable=SC2046
if $cc $san "$root/examples/api_example.c" $(pkg-config --cflags --libs lego) \
	-Wl,-rpath,"$lib" -o "$tmp/shared" 2>"$tmp/log" &&
	"$tmp/shared" >/dev/null 2>"$tmp/log"; then ok; else
	bad "api_example against the installed liblego.so"; cat "$tmp/log"; fi
if ldd "$tmp/shared" 2>/dev/null | grep -q "liblego.so.$major => $lib/"; then
	ok; else bad "api_example does not load $lib/liblego.so.$major"; fi

# The static library through pkg-config --static.
# shellcheck disable=SC2046
if $cc $san -static-libgcc "$root/examples/api_example.c" \
	$(pkg-config --cflags lego) "$lib/liblego.a" \
	$(pkg-config --static --libs-only-l lego | sed 's/-llego//') \
	-o "$tmp/static" 2>"$tmp/log" && "$tmp/static" >/dev/null; then ok; else
	bad "api_example against liblego.a (pkg-config --static)"; cat "$tmp/log"; fi
if ! ldd "$tmp/static" 2>/dev/null | grep -q liblego; then ok; else
	bad "the static build loads liblego.so"; fi

# The solver through the shared library: loaded at first use (no binary
# links libz3), x * x >= 0 proved, x - 2 >= 0 not (x = 1: sizes are positive).
cat >"$tmp/smt.c" <<'EOC'
#include <stdio.h>
#include "lego.h"
int main(void)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_sym(ctx, "x");
	int sq = lego_smt_prove_nonneg(ctx, lego_mul(ctx, x, x));
	int dec = lego_smt_prove_nonneg(ctx, lego_sub(ctx, x, lego_const(ctx, 2)));
	printf("%d %d %d\n", lego_smt_available(), sq, dec);
	lego_ctx_free(ctx);
	return 0;
}
EOC
# shellcheck disable=SC2046
$cc $san "$tmp/smt.c" $(pkg-config --cflags --libs lego) -Wl,-rpath,"$lib" \
	-o "$tmp/smt" 2>"$tmp/log" || cat "$tmp/log"
if ldd "$tmp/smt" 2>/dev/null | grep -q libz3; then
	bad "a program linked with liblego.so loads libz3 at start"; else ok; fi
got=$("$tmp/smt" 2>&1)
if grep -q -- "-DLEGO_HAVE_Z3" "$build/config"; then want="1 1 0"; else
	want="0 0 0"; fi
if [ "$got" = "$want" ]; then ok; else
	bad "solver through liblego.so: want '$want', got '$got'"; fi
# A libz3 that cannot be loaded is said, not crashed on.
got=$(LEGO_Z3_LIB=/nonexistent/libz3.so "$tmp/smt" 2>&1)
if [ "$got" = "0 0 0" ]; then ok; else
	bad "LEGO_Z3_LIB missing: want '0 0 0', got '$got'"; fi

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

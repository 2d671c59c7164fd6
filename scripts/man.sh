#!/bin/sh
# man.sh LEGO VERSION - writes the manual page lego(1) on stdout, made from
# the tool's own --help texts (`lego --help` and `lego COMMAND --help`), so
# the page says what the tool says.
lego=${1:?usage: man.sh LEGO VERSION}
version=${2:-unknown}

# roff: a backslash is \e, a line starting with . or ' is escaped, and the
# minus signs of options are \-.
roff() {
	sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'
}

# A help text as a man section: "Usage:" as a synopsis line, the indented
# option lists as tagged paragraphs' no-fill blocks, the rest as text.
section() {
	"$lego" "$@" --help | roff | awk '
		/^Usage: / { sub(/^Usage: /, ""); print ".PP\n.B " $0; next }
		/^  / { if (!nf) { print ".nf"; nf = 1 } print; next }
		{ if (nf) { print ".fi"; nf = 0 } }
		/^$/ { print ".PP"; next }
		{ print }
		END { if (nf) print ".fi" }'
}

commands=$("$lego" --help | sed -n 's/^  lego \([a-z]*\) .*/\1/p')
cat <<EOF
.TH LEGO 1 "" "liblego $version" "User Commands"
.SH NAME
lego \\- layouts of the LEGO algebra: mappings, index expressions and kernels
.SH SYNOPSIS
EOF
"$lego" --help | sed -n 's/^  \(lego [a-z].*\)/\1/p' | roff | sed 's/^/.br\n/'
echo ".SH DESCRIPTION"
section | sed -e '1,2d' -e '/^Commands:$/,/^\.fi$/d'
echo ".SH COMMANDS"
for c in $commands; do
	echo ".SS $c"
	section "$c"
done
cat <<'EOF'
.SH EXIT STATUS
0 success; 1 an error in the input or a failed check; 2 a usage error. A command
whose help above names another status (such as a check that could not run) uses it
as described there.
.SH FILES
The .lego language, templates, the algebra's meaning and every command's examples are
described in the documentation that comes with liblego (docs/language.md,
docs/templates.md, docs/semantics.md).
.SH SEE ALSO
.BR pkg-config (1)
for compiling against the library (package lego).
EOF

#!/bin/sh
# deps.sh [fuzz] - checks the tools the build and tests need, installs the
# missing ones with apt-get where it can (root on Debian), and otherwise
# names exactly what is missing.
need="cc:gcc make:make python3:python3 /usr/include/z3.h:libz3-dev"
# The python suite makes a virtual environment (Debian splits venv out).
python3 -c 'import ensurepip' 2>/dev/null || need="$need python3-venv:python3-venv"
[ "${1:-}" = fuzz ] && need="$need clang:clang"
missing=""
for pair in $need; do
	tool=${pair%%:*}
	pkg=${pair#*:}
	case $tool in
	/*) [ -e "$tool" ] || missing="$missing $pkg" ;;
	*) command -v "$tool" >/dev/null 2>&1 || missing="$missing $pkg" ;;
	esac
done
# The OpenCL examples run on PoCL, the CPU driver.
sh "$(dirname "$0")/opencl.sh" || exit 1
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing"
	apt-get update -qq && apt-get install -y -qq $missing >/dev/null && exit 0
fi
echo "deps: missing:$missing (Debian packages: apt-get install$missing)" >&2
exit 1

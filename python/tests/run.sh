#!/bin/sh
# The python suite: installs the package with pip into a virtual
# environment under BUILD (numpy and triton of the system are visible in
# it) and runs pytest on python/tests and the doctests of docs/python.md.
# Usage: sh python/tests/run.sh BUILD.  Last line: "python: N passed, N failed".
BUILD=${1:-build}
root=$(pwd)
case $BUILD in /*) abs=$BUILD ;; *) abs=$root/$BUILD ;; esac
VENV=$abs/pyenv
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

if ! python3 -m pip --version >/dev/null 2>&1; then
	echo "pip is missing (apt-get install python3-pip): python tests not run"
	echo "python: 0 passed, 0 failed"
	exit 0
fi
fail() {
	cat "$LOG"
	echo "$1"
	echo "python: 0 passed, 1 failed"
	exit 1
}
[ -x "$VENV/bin/python" ] ||
	python3 -m venv --system-site-packages "$VENV" >"$LOG" 2>&1 ||
	fail "cannot create a virtual environment (apt-get install python3-venv)"
"$VENV/bin/python" -m pip install -q . >"$LOG" 2>&1 ||
	fail "pip install . failed"
"$VENV/bin/python" -c 'import pytest' 2>/dev/null ||
	"$VENV/bin/python" -m pip install -q pytest >"$LOG" 2>&1 ||
	fail "pip install pytest failed"
"$VENV/bin/python" -c 'import numpy' 2>/dev/null ||
	"$VENV/bin/python" -m pip install -q numpy >"$LOG" 2>&1 ||
	fail "pip install numpy failed"

# From build/, so that `import lego` is the installed package.
(cd "$BUILD" && LEGO_BUILD="$abs" LEGO_CACHE="$abs/pycache" \
	"$VENV/bin/python" -m pytest -q -p no:cacheprovider \
	--doctest-glob=python.md "$root/python/tests" "$root/docs/python.md") \
	>"$LOG" 2>&1
rc=$?
cat "$LOG"
last=$(grep -E '^[=]* ?[0-9]+ (passed|failed|error)' "$LOG" | tail -n 1)
count() { echo "$last" | grep -oE "[0-9]+ $1" | grep -oE '[0-9]+' || echo 0; }
passed=$(count passed)
failed=$(($(count failed) + $(count error)))
[ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "python: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# run.sh BUILD - runs every test suite against the binaries in BUILD and
# prints one closing line "N passed, N failed" summing the suites' own
# "name: N passed, N failed" lines.
build=${1:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

# Pipelines hide exit codes in POSIX sh; record them through a file.
run() {
	name=$1
	shift
	echo "== $name"
	out=$(mktemp)
	"$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	cat "$out" >>"$log"
	rm -f "$out"
	if [ "$rc" -ne 0 ]; then
		echo "$name: exited with status $rc"
		status=1
		# A suite that died before its summary still counts as failed.
		grep -q "^$name: [0-9]* passed, [0-9]* failed" "$log" ||
			echo "$name: 0 passed, 1 failed" >>"$log"
	fi
}

run unit "$build/unit-tests"
run example sh tests/example.sh "$build"
run cli sh tests/cli/run.sh "$build"
run scale sh tests/cli/scale.sh "$build"
run gen sh tests/gen/run.sh "$build"
run mlir sh tests/mlir/run.sh "$build"
run genc sh tests/gen_c/run.sh "$build"
run lift sh tests/lift/run.sh "$build"
run mdh sh tests/mdh/run.sh "$build"
run tune sh tests/tune/run.sh "$build"
run synth sh tests/synth/run.sh "$build"
run mixed sh tests/synth/mixed.sh "$build"
run studies sh tests/studies/run.sh "$build"
run install sh tests/install/run.sh "$build"
run corpus "$build/bench-simplify" bench/simplify/corpus.txt --check
run python sh python/tests/run.sh "$build"
run proofs sh tests/proofs.sh "$build"
if command -v python3 >/dev/null 2>&1; then
	run ref sh tests/ref/run.sh "$build"
	run docs python3 tests/docs/doctest.py "$build"
else
	echo "python3 is missing: the reference tests need it (apt-get install python3)"
	status=1
fi

passed=$(sed -n 's/^[a-z]*: \([0-9]*\) passed, [0-9]* failed.*/\1/p' "$log" |
	awk '{s += $1} END {print s + 0}')
failed=$(sed -n 's/^[a-z]*: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$log" |
	awk '{s += $1} END {print s + 0}')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]

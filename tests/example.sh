#!/bin/sh
# example.sh BUILD - the API example must build, run and print the
# paper's figure 9 value (the example checks it itself, too).
build=${1:-build}
pass=0
fail=0
out=$("$build/api-example" 2>&1)
rc=$?
echo "$out"
if [ $rc -eq 0 ] && echo "$out" | grep -q "apply(4,2) = 15"; then
	pass=$((pass + 1))
else
	echo "FAIL api-example (exit $rc)"
	fail=$((fail + 1))
fi
# The simplified tiled index must be the hand-written one in 5 operations.
if echo "$out" | grep -q "^  [1-6] operations"; then
	pass=$((pass + 1))
else
	echo "FAIL api-example: tiled index costs more than 6 operations"
	fail=$((fail + 1))
fi
echo "example: $pass passed, $fail failed"
[ $fail -eq 0 ]

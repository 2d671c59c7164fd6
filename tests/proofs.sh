#!/bin/sh
# proofs.sh BUILD - issue 13's whole set in make check: every layout of
# examples/ and bench/ through bench/proof/run.sh, each property proved
# and simplified == semantics by certificate.  The 5 s a layout target is
# the benchmark's (bench/proof); here each layout gets 60 s, so that a
# loaded machine fails nothing that a quiet one proves.
build=${1:-build}
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
PROOF_MS=60000 sh bench/proof/run.sh "$build" >"$out" 2>&1
awk '
NF >= 6 && $3 ~ /\/4$/ {
	if ($3 == "4/4" && $4 == "certificate") { pass++; next }
	fail++; print "FAIL " $1 " " $2 ": " $3 " proved, simplified by " $4
	next
}
$3 == "not" { fail++; print "FAIL " $0 }
END {
	if (pass + fail == 0) { print "FAIL no layout was checked"; fail = 1 }
	printf "proofs: %d passed, %d failed\n", pass, fail
	exit fail > 0
}' "$out"

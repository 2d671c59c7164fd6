#!/bin/sh
# run.sh BUILD - `lego check --prove` on every layout of examples/ and
# bench/ (issue 13's target: every property proved, each layout < 5 s on
# the 2-core machine).  One line per layout: what is proved, by which
# argument "simplified == semantics" is, and the time against the target;
# then the totals.  The column "genp" says what proves the layout's GenPs
# bijections (none: "-"): "cert" a built-in's certificate for every size
# (antidiag, swizzle), "at-sizes" a built-in or user GenP of concrete dims
# evaluated at every point, "template" a `genp` declaration proved for
# all dims, "z3" a user GenP's inverse by Z3 at its dims.  Each file gets 5 s per layout as its --timeout
# (PROOF_MS milliseconds a layout: tests/proofs.sh gives more, so that the
# machine's load cannot turn a proof into "unknown").
build=${1:-build}
ms=${PROOF_MS:-5000}
out=$(mktemp) || exit 1
# bench/tune/choice.lego is a fragment, appended to each matmul_any_*.lego
# spec by choice.sh: its layouts are proved in those compositions.
composed=$(mktemp -d) || exit 1
trap 'rm -rf "$out" "$composed"' EXIT
for s in bench/tune/matmul_any_*.lego; do
	v=${s#bench/tune/matmul_any_}
	sh bench/tune/choice.sh . "${v%.lego}" "$composed" || exit 1
done
printf '%-40s %-14s %-9s %-12s %-9s %8s  %s\n' file layout proved simplified genp time target
for f in $(find examples bench -name '*.lego' ! -path bench/tune/choice.lego | sort) \
	$composed/*.lego; do
	n=$(grep -c '^\(tune \)\{0,1\}layout ' "$f")
	[ "$n" -gt 0 ] || continue
	case $f in
	"$composed"/*) name=bench/tune/choice.sh:${f#"$composed"/} ;;
	*) name=$f ;;
	esac
	"$build/lego" check --prove --timeout $((ms * n)) "$f" >"$out" 2>/dev/null
	if grep -q ': error' "$out" || ! grep -q ': proved [0-9] of 4' "$out"; then
		printf '%-40s %-14s %s\n' "$name" - "not proved: $(head -c 120 "$out" | tr '\n' ' ')"
		continue
	fi
	awk -v file="$name" '
	/: simplified == semantics: / {
		split($0, w, ": simplified == semantics: ")
		by[w[1]] = w[2]
		sub(/\).*/, "", by[w[1]]); sub(/.*\(/, "", by[w[1]])
	}
	/: inv\(apply\(i\)\) == i: / {
		split($0, w, ": inv")
		g = ""
		if ($0 ~ /by its certificate/) g = g "cert,"
		if ($0 ~ /inverse: exhaustive/) g = g "at-sizes,"
		if ($0 ~ /for all dims/) g = g "template,"
		if ($0 ~ /GenP \(inverse: z3\)/) g = g "z3,"
		sub(/,$/, "", g)
		genp[w[1]] = g == "" ? "-" : g
	}
	/: proved [0-9] of 4 \(/ {
		name = $1; sub(/:$/, "", name)
		t = $0; sub(/.*\(/, "", t); sub(/ s\)$/, "", t)
		printf "%-40s %-14s %-9s %-12s %-9s %6.2f s  %s\n", file, \
		       name, $3 "/4", by[name], genp[name], t,
		       t + 0 < 5 ? "< 5 s" : "OVER 5 s"
	}' "$out"
done | tee "$out.all"
awk '
NF >= 7 && $3 ~ /\/4$/ {
	layouts++; split($3, p, "/"); proved += p[1]; props += 4
	if ($3 == "4/4") whole++
	if ($6 + 0 > max) max = $6 + 0
	if ($6 + 0 >= 5) over++
	cert += $4 == "certificate"
	if ($5 ~ /cert/) bycert++
	if ($5 ~ /at-sizes/) atsizes++
	if ($5 ~ /template/) tmpl++
	if ($5 ~ /z3/) z3++
}
$3 == "not" { skipped++ }
END {
	printf "%d layouts: %d of %d properties proved, %d layouts entirely; "\
	       "simplified == semantics by certificate on %d; slowest %.2f s, "\
	       "%d over 5 s; %d files not proved (errors)\n", layouts, proved,
	       props, whole, cert, max, over, skipped
	printf "GenPs: by a certificate for every size in %d layouts, by a "\
	       "template for all dims in %d, evaluated at their concrete "\
	       "sizes in %d, by Z3 at their dims in %d\n", bycert, tmpl,
	       atsizes, z3
}' "$out.all"
rm -f "$out.all"

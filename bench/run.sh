#!/bin/sh
# run.sh BUILD - the core benchmark: library figures, then `lego check`
# on 2^24-element layouts as whole processes (start-up included), then the
# simplifier's corpus against hand-written index expressions.
build=${1:-build}
"$build/bench-core" || exit 1
for name in Tiled Diag; do
	t0=$(date +%s%N)
	"$build/lego" check bench/big.lego "$name" >/dev/null || exit 1
	t1=$(date +%s%N)
	ms=$(( (t1 - t0) / 1000000 ))
	echo "lego check bench/big.lego $name (2^24 elements, whole process): $ms ms; target < 2000 ms"
done
echo "simplifier corpus (bench/simplify): operations, liblego vs hand-written"
"$build/bench-simplify" bench/simplify/corpus.txt --check || exit 1
echo "still worse than hand-written (bench/simplify/open.txt):"
"$build/bench-simplify" bench/simplify/open.txt -v

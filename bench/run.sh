#!/bin/sh
# run.sh BUILD - the core benchmark: library figures, then `lego check`
# on 2^24-element layouts as whole processes (start-up included).
build=${1:-build}
"$build/bench-core" || exit 1
for name in Tiled Diag; do
	t0=$(date +%s%N)
	"$build/lego" check bench/big.lego "$name" >/dev/null || exit 1
	t1=$(date +%s%N)
	ms=$(( (t1 - t0) / 1000000 ))
	echo "lego check bench/big.lego $name (2^24 elements, whole process): $ms ms; target < 2000 ms"
done

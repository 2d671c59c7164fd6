#!/bin/sh
# space.sh [BUILD] - the space-generation benchmark of issue 15: the
# 6-parameter matmul space of matmul_space.lego (cross product 2.5e7)
# generated with its divisibility and shared-memory constraints, for
# several problems; prints each figure beside the 1 s target.
build=${1:-build}
here=$(dirname "$0")
for mnk in "4096 4096 4096" "8192 8192 8192" "1024 1024 1024" "8192 128 8192" \
	   "3072 3072 768"; do
	set -- $mnk
	line=$("$build/lego" tune "$here/matmul_space.lego" /dev/null --space \
		-D M="$1" -D N="$2" -D K="$3") || exit 1
	secs=$(echo "$line" | sed 's/.*, \([0-9.]*\) s$/\1/')
	printf '%-16s %s  (target 1 s: %s)\n' "$1x$2x$3" "$line" \
		"$(awk -v s="$secs" 'BEGIN { printf "%.0fx under", 1 / (s > 0 ? s : 0.0001) }')"
done

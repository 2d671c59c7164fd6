#!/bin/sh
# run.sh LEGO [SIZES] - the in-process CUDA runner on a GPU: its test
# (tests/tune/cuda.sh), then the transpose of transpose.cu.tpl tuned
# exhaustively at each size (M x N), re-run from the cache, and the
# tuned and the committed configuration (ROWS=8, swizzled tile)
# re-measured side by side (20 timed launches each, fastest kept, L2
# flushed before each).  Results in $OUT (README.md here).
lego=$1
sizes=${2:-"1024x1024 4096x4096 8192x8192 8192x1024"}
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/cuda-out}
mkdir -p "$OUT"
sh "$here/../../../tests/tune/cuda.sh" "$lego"
tune() { # M N DB [options]
	M=$1 N=$2 db=$3
	shift 3
	"$lego" tune "$here/transpose.cu.tpl" --target cuda --runner cuda \
		--kernel transpose --args 'in:M*N out:N*M:out' \
		--global 'N, M*ROWS/32' --local '32, ROWS' \
		--reference "$here/transpose_ref.cu" --db "$db" -D M=$M -D N=$N "$@"
}
echo "| size | space | tuned | tuned ms | committed ms | committed / tuned | GB/s tuned |"
echo "|---|---|---|---|---|---|---|"
for s in $sizes; do
	M=${s%x*} N=${s#*x}
	tune $M $N "$OUT/cuda.db" --strategy exhaustive -q --csv "$OUT/transpose_$s.csv" \
		>"$OUT/best_$s" 2>"$OUT/log_$s"
	tune $M $N "$OUT/cuda.db" --strategy exhaustive -q >/dev/null 2>>"$OUT/log_$s"
	cfg=$(sed -n 's/^best: \([^ ]* [^ ]*\) .*/\1/p' "$OUT/best_$s")
	[ -n "$cfg" ] || { echo "$s: nothing measured"; cat "$OUT/log_$s"; continue; }
	d=$(echo " $cfg" | sed 's/ / -D /g')
	# side by side in a fresh cache: tuned, committed, tuned, committed
	for rep in 1 2; do
		rm -f /tmp/side.db
		t=$(tune $M $N /tmp/side.db --reps 20 -q $d | sed -n 's/.*  \([0-9.e-]*\) ms$/\1/p')
		rm -f /tmp/side.db
		c=$(tune $M $N /tmp/side.db --reps 20 -q -D ROWS=8 -D S=2 | sed -n 's/.*  \([0-9.e-]*\) ms$/\1/p')
		echo "$s $rep tuned $t committed $c" >>"$OUT/side.log"
	done
	t=$(awk -v s=$s '$1 == s { if (b == "" || $4 < b) b = $4 } END { print b }' "$OUT/side.log")
	c=$(awk -v s=$s '$1 == s { if (b == "" || $6 < b) b = $6 } END { print b }' "$OUT/side.log")
	n=$(($(wc -l <"$OUT/transpose_$s.csv") - 1))
	echo "| $s | $n | $cfg | $t | $c | $(awk -v t=$t -v c=$c 'BEGIN { printf "%.3f", c / t }') | $(awk -v t=$t -v m=$M -v n=$N 'BEGIN { printf "%.0f", 8 * m * n / t / 1e6 }') |"
	grep -h "measured" "$OUT/log_$s" | sed "s/^/  $s: /"
done

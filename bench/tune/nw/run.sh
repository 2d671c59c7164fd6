#!/bin/sh
# run.sh LEGO [SIZES] - the Needleman-Wunsch study (README.md here) on a
# GPU: nw.cu.tpl tuned exhaustively by the in-process CUDA runner at each
# size of bench/cuda/nw_bench.cu (every candidate checked against
# nw_ref.cu first), re-run from the cache (must measure nothing), then in
# two rounds of fresh caches the committed choice (B = 64, the padded
# buffer) and the tuned configuration re-measured side by side (20
# timed launches each, fastest kept, L2 flushed before each); then a
# planted bug (a wrong penalty) that every candidate must fail.
# LEGO is a glibc-dynamic `lego` (dlopen of libcuda, libnvrtc).  Results
# in $OUT.
lego=$1
sizes=${2:-"8192 16384 32768"}
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/nw-out}
mkdir -p "$OUT"
tune() { # N DB TEMPLATE [options]
	n=$1 db=$2 tpl=$3
	shift 3
	"$lego" tune "$tpl" --target cuda --runner cuda --kernel nw \
		--args 'ref:(N+1)*(N+1) mat:(N+1)*(N+1) flags:N:f32 score:(N+1)*(N+1):out' \
		--elem i32 \
		--global N --local B --reference "$here/nw_ref.cu" \
		--ref-global 1024 --ref-local 1024 --timeout 5 --jobs 8 \
		--remeasure 0 --db "$db" -D N=$n "$@"
}
for n in $sizes; do
	tune $n "$OUT/nw.db" "$here/nw.cu.tpl" --strategy exhaustive -q \
		--csv "$OUT/nw_$n.csv" >"$OUT/best_$n" 2>"$OUT/log_$n"
	tune $n "$OUT/nw.db" "$here/nw.cu.tpl" --strategy exhaustive -q \
		>/dev/null 2>>"$OUT/log_$n"
	cfg=$(sed -n 's/^best: \(B=[0-9]* S=[0-9]*\) .*/\1/p' "$OUT/best_$n")
	echo "$n tuned: $cfg"
	grep -h "measured\|error" "$OUT/log_$n" | sed "s/^/  $n: /"
	[ -n "$cfg" ] || continue
	d=$(echo " $cfg" | sed 's/ / -D /g')
	for rep in 1 2; do
		for who in committed tuned; do
			c="-D B=64 -D S=1"
			if [ $who = tuned ]; then
				[ "$cfg" = "B=64 S=1" ] && continue
				c=$d
			fi
			rm -f /tmp/nw-side.db
			t=$(tune $n /tmp/nw-side.db "$here/nw.cu.tpl" --reps 20 -q $c \
				2>>"$OUT/log_$n" | sed -n 's/.*  \([0-9.e-]*\) ms$/\1/p')
			echo "$n $rep $who $t" >>"$OUT/side.log"
		done
	done
done
# The planted bug: penalty 11 in the candidates, 10 in the reference.
sed 's/^#define P 10$/#define P 11/' "$here/nw.cu.tpl" >/tmp/nw-planted.cu.tpl
tune 8192 /tmp/nw-planted.db /tmp/nw-planted.cu.tpl --strategy exhaustive \
	-q -D B=64 --csv "$OUT/planted.csv" >"$OUT/planted.log" 2>&1
echo "planted: $(grep -c 'wrong result' "$OUT/planted.csv") of 4 wrong"

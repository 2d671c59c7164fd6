#!/bin/sh
# run.sh LEGO [SIZES] - the softmax study (README.md here) on a GPU:
# examples/triton/softmax.py.tpl with tune.lego's launch parameters, tuned
# exhaustively through runner.py at each N of bench/triton/configs.py's
# SOFTMAX_N (every candidate checked against torch first; the best 3
# re-measured in 3 interleaved rounds), re-run from the cache (must
# measure nothing), then two rounds side by side in fresh caches: the
# tuned configuration, the committed one (configs.py softmax_cfg) of the
# same instantiation, and the committed module examples/triton/softmax.py
# at the committed choice (runner.py directly, as bench.py's "gen").
# Results in $OUT.
lego=$1
sizes=${2:-"512 1024 2048 4096 8192 16384"}
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../../..
OUT=${OUT:-/tmp/softmax-out}
W=/tmp/softmax-work
SOCK=/tmp/lego-softmax.sock
mkdir -p "$OUT" "$W"
spec=$W/softmax.lego
tpl=$root/examples/triton/softmax.py.tpl
cat "$root/examples/triton/softmax.lego" "$here/tune.lego" >"$spec"
python3 "$here/runner.py" serve $SOCK >"$OUT/server.log" 2>&1 &
run="python3 $here/runner.py"
# every (N, WARPS, STAGES) compiled by a pool first (the kernel's text
# does not depend on the parameters: one file a size)
for n in $sizes; do
	"$lego" gen "$spec" "$tpl" -D N=$n -D S=$n \
		$($run committed $n) -o "$W/k$n.py"
	"$lego" tune "$spec" "$tpl" --list -D N=$n -D S=$n |
		sed "s|^|$W/k$n.py $n |"
done >"$W/compile.txt"
$run warm "$W/compile.txt" >"$OUT/warm.log" 2>&1
for i in $(seq 90); do [ -S $SOCK ] && break; sleep 1; done
tune() { # N DB [options]
	n=$1 db=$2
	shift 2
	"$lego" tune "$spec" "$tpl" --run "$run measure $SOCK {kernel} {N} {WARPS} {STAGES} {OCC}" \
		--db "$db" -D N=$n -D S=$n "$@"
}
ms() { sed -n 's/.*  \([0-9.e-]*\) ms.*/\1/p' | head -1; }
for n in $sizes; do
	tune $n "$OUT/softmax.db" --strategy exhaustive --remeasure 3 --rounds 3 \
		--csv "$OUT/softmax_$n.csv" -q >"$OUT/best_$n" 2>"$OUT/log_$n"
	tune $n "$OUT/softmax.db" --strategy exhaustive --remeasure 3 --rounds 3 \
		-q >/dev/null 2>>"$OUT/log_$n"
	cfg=$(sed -n 's/^best: \(WARPS=[0-9]* STAGES=[0-9]* OCC=[0-9]*\) .*/\1/p' "$OUT/best_$n")
	echo "$n tuned: $cfg"
	grep -h "measured\|error" "$OUT/log_$n" | sed "s/^/  $n: /"
	[ -n "$cfg" ] || continue
	d=$(echo " $cfg" | sed 's/ / -D /g')
	c=$($run committed $n)
	set -- $(echo "$c" | sed 's/-D [A-Z]*=//g')
	for rep in 1 2; do
		rm -f /tmp/softmax-side.db
		t=$(tune $n /tmp/softmax-side.db --remeasure 0 -q $d 2>>"$OUT/log_$n" | ms)
		rm -f /tmp/softmax-side.db
		k=$(tune $n /tmp/softmax-side.db --remeasure 0 -q $c 2>>"$OUT/log_$n" | ms)
		e=$($run measure $SOCK "$root/examples/triton/softmax.py" $n $1 $2 $3 2>>"$OUT/log_$n")
		echo "$n $rep tuned $t committed $k example $e" >>"$OUT/side.log"
	done
done
$run quit $SOCK

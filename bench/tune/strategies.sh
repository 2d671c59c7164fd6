#!/bin/sh
# strategies.sh CSVDIR [SEEDS] - evaluations each search strategy needs to
# come within 2% of the exhaustive optimum, per cell of the study: each
# strategy is run by `lego tune` on this machine against the times the
# GPU run measured (CSVDIR/<cell>.csv, the exhaustive histories), looked
# up by the --run command, for seeds 1..SEEDS; @triton.autotune times the
# whole space in every process.  Prints a table (median and worst over
# the seeds).
dir=$1
seeds=${2:-5}
lego=${LEGO:-build/lego}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| cell | space | exhaustive | random | anneal | bandit | autotune |\n'
printf '|---|---|---|---|---|---|---|\n'
for csv in "$dir"/*.csv; do
	name=$(basename "$csv" .csv)
	v=${name%%_*}
	size=${name#*_}
	M=${size%%x*}; rest=${size#*x}; N=${rest%%x*}; K=${rest#*x}
	case $M in
	1000|4097) spec=$here/matmul_any_$v.lego tpl=examples/triton/matmul_masked.py.tpl ;;
	*) spec=$here/matmul_$v.lego tpl=examples/triton/matmul.py.tpl ;;
	esac
	# config -> ms ("inf" for a failure), and the 2% threshold
	sed 1d "$csv" | awk -F, '{gsub(/"/, "", $4); print $4 "," ($2 == "" ? "inf" : $2)}' >"$tmp/table"
	best=$(awk -F, '$2 != "inf" && (b == "" || $2 < b) { b = $2 } END { print b }' "$tmp/table")
	n=$(wc -l <"$tmp/table")
	# evaluations until a time within 2% of best, in a history CSV
	reach() { sed 1d "$1" | awk -F, -v b="$best" '$2 != "" && $2 <= 1.02 * b { print NR; exit }'; }
	ex=$(sed 1d "$csv" | awk -F, -v b="$best" '$2 != "" && $2 <= 1.02 * b { print NR; exit }')
	row="| $v $M x $N x $K | $n | $ex |"
	for s in random anneal bandit; do
		counts=""
		for seed in $(seq 1 "$seeds"); do
			rm -f "$tmp/db"*
			"$lego" tune "$spec" "$tpl" -D M="$M" -D N="$N" -D K="$K" -q \
				--strategy $s --seed "$seed" --db "$tmp/db" --csv "$tmp/h.csv" \
				--run "grep -F 'BM={BM} BN={BN} BK={BK} GM={GM} STAGES={STAGES} WARPS={WARPS},' $tmp/table | cut -d, -f2 | grep -v inf" \
				>/dev/null 2>&1
			counts="$counts $(reach "$tmp/h.csv")"
		done
		row="$row $(echo $counts | tr ' ' '\n' | sort -n | awk '{a[NR] = $1} END { printf "%d (worst %d)", a[int((NR + 1) / 2)], a[NR] }') |"
	done
	echo "$row $n every run |"
done

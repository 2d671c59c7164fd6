#!/bin/sh
# strategies.sh CSVDIR [SEEDS] - evaluations each search strategy needs to
# come within 2% of the exhaustive optimum, per cell of the study: each
# strategy is run by `lego tune` on this machine against the times the
# GPU run measured (CSVDIR/<cell>.csv, the exhaustive histories), looked
# up by the --run command, for seeds 1..SEEDS; @triton.autotune times the
# whole space in every process.  Prints a table (median and worst over
# the seeds).  CHOICE=1: the cells of the template-choice study (choice.sh,
# study.sh with CHOICE=1), whose CSVs name cells like abt_e4m3_4096x4096x4096.
dir=$1
seeds=${2:-5}
lego=${LEGO:-build/lego}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| cell | space | exhaustive | random | anneal | bandit | model order | pruned to | bandit, pruned | autotune |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for csv in "$dir"/*.csv; do
	name=$(basename "$csv" .csv)
	v=${name%_*}
	size=${name##*_}
	M=${size%%x*}; rest=${size#*x}; N=${rest%%x*}; K=${rest#*x}
	case $M in
	1000|4097) spec=$here/matmul_any_$v.lego tpl=examples/triton/matmul_masked.py.tpl ;;
	*) spec=$here/matmul_$v.lego tpl=examples/triton/matmul.py.tpl ;;
	esac
	# the configuration as the CSV writes it, and -D values fixed
	key='BM={BM} BN={BN} BK={BK} GM={GM} STAGES={STAGES} WARPS={WARPS}'
	fixed=
	if [ "${CHOICE:-0}" = 1 ]; then
		sh "$here/choice.sh" . "$v" "$tmp/choice"
		spec=$tmp/choice/matmul_choice_$v.lego tpl=$tmp/choice/matmul_choice.py.tpl
		key='BM={BM} BN={BN} STAGES={STAGES} WARPS={WARPS} KERNEL={KERNEL}'
		case $v in *_e4m3) fixed="-D BK=128 -D GM=8" ;; *) fixed="-D BK=64 -D GM=8" ;; esac
	fi
	# config -> ms ("inf" for a failure), and the 2% threshold
	sed 1d "$csv" | awk -F, '{gsub(/"/, "", $4); print $4 "," ($2 == "" ? "inf" : $2)}' >"$tmp/table"
	best=$(awk -F, '$2 != "inf" && (b == "" || $2 < b) { b = $2 } END { print b }' "$tmp/table")
	n=$("$lego" tune "$spec" "$tpl" -D M="$M" -D N="$N" -D K="$K" $fixed --list | wc -l)
	# evaluations until a time within 2% of best, in a history CSV
	reach() { sed 1d "$1" | awk -F, -v b="$best" '$2 != "" && $2 <= 1.02 * b { print NR; exit }'; }
	# evaluations to 2% of strategy $1 over the seeds (more options after)
	run() {
		s=$1
		shift
		counts=""
		for seed in $(seq 1 "$seeds"); do
			rm -f "$tmp/db"*
			"$lego" tune "$spec" "$tpl" -D M="$M" -D N="$N" -D K="$K" $fixed -q \
				--strategy $s --seed "$seed" --db "$tmp/db" --csv "$tmp/h.csv" --remeasure 0 \
				--run "grep -F '$key,' $tmp/table | cut -d, -f2 | grep -v inf" \
				"$@" >/dev/null 2>&1
			counts="$counts $(reach "$tmp/h.csv")"
		done
		echo $counts | tr ' ' '\n' | sort -n | awk '{a[NR] = $1} END { if (a[NR] == "") printf "not reached"; else printf "%d (worst %d)", a[int((NR + 1) / 2)], a[NR] }'
	}
	# exhaustive in declaration order, replayed (a CSV may hold
	# configurations a later form of the spec leaves out)
	row="| $v $M x $N x $K | $n | $(seeds=1 run exhaustive | sed 's/ (worst.*//') |"
	for s in random anneal bandit; do
		row="$row $(run $s) |"
	done
	row="$row $(seeds=1 run exhaustive --model order | sed 's/ (worst.*//') |"
	kept=$("$lego" tune "$spec" "$tpl" -D M="$M" -D N="$N" -D K="$K" $fixed --list --model prune | sed 's/  .*//')
	kbest=$(echo "$kept" | while read c; do grep -F "$c," "$tmp/table"; done | cut -d, -f2 | grep -v inf | sort -g | head -1)
	row="$row $(echo "$kept" | wc -l) (best $(awk -v k="$kbest" -v b="$best" 'BEGIN { printf "%.3f", k / b }')x opt) |"
	row="$row $(run bandit --model prune) |"
	echo "$row $n every run |"
done

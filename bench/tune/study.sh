#!/bin/sh
# study.sh ROOT - the Triton FP16 matmul study of issue 15, one call of the
# device tool (bench/tune/README.md).  ROOT holds the static `lego`, and
# bench/tune, bench/triton and examples/triton as in the repository.
# For each cell (layout x size): every configuration of the space is
# generated (`lego tune --list`, `lego gen`) and compiled by a pool of
# processes; `lego tune --strategy exhaustive` measures them all through
# the Triton runner (results checked), the REMEASURE (3) fastest timed
# again in ROUNDS (3) interleaved rounds, chosen on the median; a second
# run from the cache must measure nothing; `lego gen --tuned` writes the best kernel, which
# compare.py times beside the hand-picked configurations, @triton.autotune
# over the same space and cuBLAS.  Results land in $OUT.
# CHOICE=1: the template is a tuned parameter too (KERNEL: pointer, masked,
# TMA or generic, and SPLIT_K; choice.sh), with BK and GM fixed (fix below: 64 and 8, FP8's BK
# 128 as the hand-picked tile) to keep the spaces within one device call.
# A cell's layout may carry an element type: abt_e4m3 (FP8 inputs).
# TIMING=graph: tuned on the time from a CUDA graph (triton_runner.py).
# BUDGET=E: E configurations a cell (seeded random search), not all;
# OVERLAP=1: compiled beside the tuning instead of before it.
# RESUME=1: $OUT/tune.db holds an earlier run's records (re-keyed to the
# template's hash): only the configurations it lacks are compiled, and
# measured.
# FREE_BK=1: BK tuned too in the CELLS (FP16), not fixed at 64.
# COMPARE="v:M:N:K ...": cells compared from $OUT/tune.db as they are
# (BK fixed as the runs that tuned them had it), not tuned.
R=${1:-.dev-tune}
LEGO=$R/lego
T=$R/bench/tune
OUT=${OUT:-/tmp/study}
SOCK=/tmp/lego-tune.sock
W=/tmp/study-work
mkdir -p "$OUT" "$W"
START=$(date +%s)
elapsed() { echo $(($(date +%s) - START)); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'

# v M N K: spec and template of a cell (masked where the tiles cannot divide)
# (CELLS in the environment: another set; the second run took atb, atbt)
CELLS=${CELLS:-"ab:1024:1024:1024 abt:1024:1024:1024 ab:4096:4096:4096 abt:4096:4096:4096
ab:8192:8192:8192 abt:8192:8192:8192 ab:8192:128:8192 abt:8192:128:8192
ab:1000:1000:1000 abt:1000:1000:1000 ab:4097:4097:4097 abt:4097:4097:4097"}
CHOICE=${CHOICE:-0}
kind() { # cell -> cmp (compared only), free (BK tuned) or fixed
	case " $(echo $COMPARE) " in *" $1 "*) echo cmp; return ;; esac
	[ "${FREE_BK:-0}" = 1 ] && echo free || echo fixed
}
fix() { # v kind -> the parameters fixed by -D
	[ "$CHOICE" = 1 ] || return 0
	case $1:$2 in *_e4m3:*) echo "-D BK=128 -D GM=8" ;; *:free) echo "-D GM=8" ;;
	*) echo "-D BK=64 -D GM=8" ;; esac
}
cell_files() { # v M -> SPEC TPL
	if [ "$CHOICE" = 1 ]; then
		sh "$T/choice.sh" "$R" "$1" "$W/choice"
		echo "$W/choice/matmul_choice_$1.lego $W/choice/matmul_choice_$1.py.tpl"
		return
	fi
	case $2 in
	1000|4097) echo "$T/matmul_any_$1.lego $R/examples/triton/matmul_masked.py.tpl" ;;
	*) echo "$T/matmul_$1.lego $R/examples/triton/matmul.py.tpl" ;;
	esac
}
defs() { echo "-D M=$1 -D N=$2 -D K=$3 $(fix $4 $5)"; }
# BUDGET=E: E evaluations a cell, drawn at random (seed 1) from the whole
# constrained space, instead of all of it
search() {
	if [ -n "$BUDGET" ]; then echo "--strategy random --seed 1 --evals $BUDGET"
	else echo "--strategy exhaustive"; fi
}

# the cache's device names the timing: a graph's time is not a call's
DEV=H100
[ "${TIMING:-call}" = graph ] && DEV=H100-graph

# 1. every kernel of every space, and the committed kernels for autotune
: >"$W/list"
: >"$W/auto"
for c in $CELLS $COMPARE; do
	IFS=: read v M N K <<EOS
$c
EOS
	k=$(kind $c)
	set -- $(cell_files $v $M)
	spec=$1 tpl=$2
	name=${v}_${M}x${N}x${K}
	mkdir -p "$W/$name"
	if [ $k != cmp ] && [ -n "$BUDGET" ]; then
		# the BUDGET configurations the seeded random search will measure
		# (its draws do not depend on the times): a dry run lists them
		$LEGO tune $spec $tpl $(search) --run 'echo 1' --db "$W/dry.db" \
			--device dry --remeasure 0 -q --csv "$W/$name.dry" \
			$(defs $M $N $K $v $k) >/dev/null
		sed -n 's/^[0-9]*,[^"]*"\([^"]*\)".*/\1/p' "$W/$name.dry" >"$W/$name.space"
	else
		$LEGO tune $spec $tpl --list $(defs $M $N $K $v $k) >"$W/$name.space"
	fi
	cp "$W/$name.space" "$W/$name.todo"
	if [ $k = cmp ]; then
		: >"$W/$name.todo"
	elif [ "${RESUME:-0}" = 1 ]; then
		# the configurations the cache lacks: those a dry run on a copy
		# of it adds (the rows after its last one)
		cp "$OUT/tune.db" "$W/dry.db"
		last=$(python3 $T/db_rows.py "$W/dry.db")
		$LEGO tune $spec $tpl --target triton $(search) --run 'echo 1' \
			--db "$W/dry.db" --device $DEV --remeasure 0 -q \
			$(defs $M $N $K $v $k) >/dev/null 2>&1
		python3 $T/db_rows.py "$W/dry.db" $last >"$W/$name.todo"
		echo "$name: $(wc -l <"$W/$name.todo") of $(wc -l <"$W/$name.space") configurations to measure"
	fi
	case $M in 1000|4097) gen=$R/examples/triton/matmul_masked_${v%%_*}.py ;;
	*) gen=$R/examples/triton/matmul_${v%%_*}.py ;; esac
	i=0
	while read cfg; do
		i=$((i + 1))
		# the values by name: the fixed ones, then the configuration's
		vals=$(eval "$(fix $v $k | sed 's/-D //g') $cfg;"' echo $BM $BN $BK $GM $STAGES $WARPS')
		if grep -qx "$cfg" "$W/$name.todo"; then
			$LEGO gen $spec $tpl $(defs $M $N $K $v $k) $(echo " $cfg" | sed 's/ / -D /g') \
				-o "$W/$name/k$i.py"
			echo "$W/$name/k$i.py $v $M $N $K $vals" >>"$W/list"
		fi
		set -- $vals
		# autotune's kernel: the committed pointer kernel only where its
		# tiles divide the sizes (a TMA configuration of the choice may
		# have BN > N; the pointer kernel would write out of bounds)
		case $gen in *matmul_masked_*) ;; *)
			[ $((M % $1 + N % $2 + K % $3)) -eq 0 ] || continue ;; esac
		echo "$gen $v $M $N $K $vals" >>"$W/auto"
	done <"$W/$name.space"
done
# autotune's kernels, once each (a template choice repeats the tiles)
sort -u "$W/auto" >>"$W/list"
echo "generated $(wc -l <"$W/list") kernel launches to compile at $(elapsed) s"
if [ "${OVERLAP:-0}" = 1 ]; then
	# compiled beside the tuning, in its order (a graph's time is the
	# GPU's: the host's load does not enter it)
	python3 $T/precompile.py "$W/list" 16 --ordered >"$W/precompile.log" 2>&1 &
	PRE=$!
	sleep ${OVERLAP_LEAD:-15}
else
	python3 $T/precompile.py "$W/list" 16
	echo "precompiled at $(elapsed) s"
fi

# 2. the exhaustive tuning runs, then the same from the cache
python3 $T/triton_runner.py serve $SOCK ${TIMING:-call} >"$OUT/server.log" 2>&1 &
# up to 90 s for the socket: with the 16 compiling processes started first
# the server's imports took over 20 s once (run9's second call: its first
# 45 candidates recorded as failed, connection refused)
i=0
while [ ! -S $SOCK ] && [ $i -lt 90 ]; do i=$((i + 1)); sleep 1; done
for pass in 1 2; do
	for c in $CELLS; do
		IFS=: read v M N K <<EOS
$c
EOS
		set -- $(cell_files $v $M)
		name=${v}_${M}x${N}x${K}
		k=$(kind $c)
		csv=$OUT/$name.csv
		[ $pass = 2 ] && csv=/dev/null
		[ $(elapsed) -gt ${TUNE_UNTIL:-420} ] && { echo "time guard: $name pass $pass skipped"; continue; }
		printf '%s pass %s: ' $name $pass
		$LEGO tune $1 $2 --target triton $(search) -q \
			--db "$OUT/tune.db" --device $DEV --seconds 60 --csv $csv \
			--remeasure ${REMEASURE:-3} --rounds ${ROUNDS:-3} \
			--run "python3 $T/triton_runner.py measure $SOCK {kernel} $v $M $N $K {BM} {BN} {BK} {GM} {STAGES} {WARPS}" \
			$(defs $M $N $K $v $k) 2>&1 | tr '\n' ' '
		echo
	done
	echo "pass $pass done at $(elapsed) s"
done
python3 $T/triton_runner.py quit $SOCK
[ -n "$PRE" ] && { wait $PRE; cat "$W/precompile.log"; echo "precompiled at $(elapsed) s"; }
# at most 8 files come back from the device: the CSVs in one archive
(cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv)

# 3. the best kernels beside the baselines
: >"$W/cells"
for c in $CELLS $COMPARE; do
	IFS=: read v M N K <<EOS
$c
EOS
	k=$(kind $c)
	set -- $(cell_files $v $M)
	name=${v}_${M}x${N}x${K}
	if $LEGO gen $1 $2 --tuned "$OUT/tune.db" $(defs $M $N $K $v $k) \
		-o "$W/$name.tuned.py" 2>"$W/$name.note"; then
		{ sed 's/^lego gen: tuned: \(.*\) (.*/# tuned: \1/' "$W/$name.note"
		  cat "$W/$name.tuned.py"; } >"$W/$name.t.py"
		echo "$v $M $N $K $W/$name.space $W/$name.t.py $(fix $v $k | sed 's/-D //g')" >>"$W/cells"
	fi
done
# compare.py stops starting cells at STOP s (the device call's limit)
[ $(elapsed) -lt ${STOP:-500} ] && COMPARE_UNTIL=$((START + ${STOP:-500})) \
	PYTHONUNBUFFERED=1 python3 $T/compare.py "$W/cells" "$OUT"
echo "study done at $(elapsed) s"

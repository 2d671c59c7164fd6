#!/bin/sh
# Generator speed: `lego gen` writing the complete matrix-multiply Triton
# kernel (examples/triton/matmul.py.tpl) for each of the four layout
# variants AB, ABt, AtB, AtBt.  Wall time per kernel, process start and
# file write included, median of RUNS runs; next to the authors' published
# generator (SymPy + Z3, about 7 s per kernel: /work/shared/design/TARGETS.md).
# `/bin/true` is the cost of starting a process and timing it alone,
# `lego --version` and `lego --help` that of starting lego (loading and
# relocating it and its libraries).
# Usage: sh bench/gen/run.sh [BUILD_DIR] [RUNS]
BUILD=${1:-build}
RUNS=${2:-21}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
EX=examples/triton
echo "lego gen, median of $RUNS runs per kernel (process start included)"
echo "authors' generator: about 7 s per kernel"

# time LABEL COMMAND...: median, min and max wall time of RUNS runs.
time_runs() {
	label=$1
	shift
	i=0
	while [ $i -lt "$RUNS" ]; do
		start=$(date +%s%N)
		"$@" > /dev/null || exit 1
		end=$(date +%s%N)
		echo $(( (end - start) / 1000 ))
		i=$((i + 1))
	done | sort -n | awk -v v="$label" '{ t[NR] = $1 }
		END { printf "%-22s %8.2f ms  (min %.2f, max %.2f)", v,
		      t[int((NR + 1) / 2)] / 1000, t[1] / 1000, t[NR] / 1000 }'
	# CPU time (user + system) of the same runs, less sensitive to load.
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%U %S" -o "$TMP/cpu" sh -c '
			n=$1; shift; i=0
			while [ $i -lt $n ]; do "$@" >/dev/null; i=$((i + 1)); done
			' sh "$RUNS" "$@"
		awk -v n="$RUNS" '{ printf ", cpu %.2f ms", ($1 + $2) * 1000 / n }' "$TMP/cpu"
	fi
	echo
}

time_runs "/bin/true" /bin/true
time_runs "lego --version" "$BUILD/lego" --version
time_runs "lego --help" "$BUILD/lego" --help
for v in ab abt atb atbt; do
	time_runs "lego gen matmul_$v" "$BUILD/lego" gen $EX/matmul_$v.lego \
		$EX/matmul.py.tpl -o "$TMP/matmul_$v.py"
	cmp -s "$TMP/matmul_$v.py" $EX/matmul_$v.py ||
		echo "  warning: output differs from $EX/matmul_$v.py"
done

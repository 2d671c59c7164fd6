#!/bin/sh
# run.sh [SECONDS] - builds the libFuzzer targets into build-fuzz/ (clang,
# with ASan and UBSan; the library sources compiled directly) and runs each
# for half of SECONDS (default 60):
#   fuzz_parse  the .lego parser and the layouts it builds (seeds fuzz/corpus/)
#   fuzz_gen    templates expanded for every target (seeds fuzz/corpus-gen/)
# What they learn is kept in fuzz/corpus-run*/.  Exits non-zero when one
# finds a crash, a leak or a timeout; the input is saved in build-fuzz/
# (crash-*, leak-*, timeout-*): replay it with `build-fuzz/fuzz_NAME FILE`.
secs=${1:-60}
half=$(( (secs + 1) / 2 ))
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build-fuzz
cc=${FUZZ_CC:-clang}
mkdir -p "$out" "$root/fuzz/corpus-run" "$root/fuzz/corpus-run-gen" || exit 1
cd "$root" || exit 1
# Z3 is left out: the fuzzers exercise the parsers and the built-in
# reasoning, and must stay fast.
for t in parse gen; do
	$cc -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		src/*/*.c fuzz/fuzz_$t.c -lm -lsqlite3 -ldl -lpthread \
		-o "$out/fuzz_$t" || exit 1
done
# One run: target, its corpora.  libFuzzer's progress goes to a log; the
# summary (or the failure) is shown.
run() {
	t=$1
	shift
	log=$out/fuzz_$t.log
	echo "fuzz_$t ($half s):"
	"$out/fuzz_$t" -max_total_time="$half" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -dict=fuzz/lego.dict \
		-artifact_prefix="$out/" "$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$log"
	else
		tail -n 60 "$log"
		echo "fuzz_$t: failed (exit $rc); full log in $log"
	fi
	return $rc
}
status=0
run parse fuzz/corpus-run fuzz/corpus || status=1
run gen fuzz/corpus-run-gen fuzz/corpus-gen || status=1
exit $status

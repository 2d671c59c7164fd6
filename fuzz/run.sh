#!/bin/sh
# run.sh [SECONDS] - builds the libFuzzer target for the .lego parser into
# build-fuzz/ (clang, with ASan and UBSan; the library sources compiled
# directly) and runs it for SECONDS (default 60) from the seeds in
# fuzz/corpus/, keeping what it learns in fuzz/corpus-run/.  Exits non-zero
# when it finds a crash, a leak or a timeout; the input is saved in
# build-fuzz/ (crash-*, leak-*, timeout-*): replay it with
# `build-fuzz/fuzz_parse FILE`.
secs=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build-fuzz
cc=${FUZZ_CC:-clang}
mkdir -p "$out" "$root/fuzz/corpus-run" || exit 1
cd "$root" || exit 1
# Z3 is left out: the fuzzer exercises the parser and the built-in
# reasoning, and must stay fast.
$cc -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	src/*/*.c fuzz/fuzz_parse.c -lm -o "$out/fuzz_parse" || exit 1
# libFuzzer's progress goes to a log; the summary (or the failure) is shown.
log=$out/fuzz.log
"$out/fuzz_parse" -max_total_time="$secs" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 -dict=fuzz/lego.dict \
	-artifact_prefix="$out/" fuzz/corpus-run fuzz/corpus >"$log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$log"
else
	tail -n 60 "$log"
	echo "fuzz: failed (exit $rc); full log in $log"
fi
exit $rc

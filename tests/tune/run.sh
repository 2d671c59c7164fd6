#!/bin/sh
# run.sh BUILD - `lego tune` end to end on PoCL: a small OpenCL matmul
# template (matmul.cl.tpl) is tuned exhaustively with the measuring
# command ocl_time.c, which checks every result; the candidates that
# compute wrong or do not compile are recorded and skipped; a re-run
# measures nothing; --show, --csv and --space report what the cache and
# the space hold; lego gen --tuned expands the best configuration.  The
# same in process with the built-in OpenCL runner (--runner opencl),
# candidates compiled in parallel, a timeout recorded, sizes passed as
# scalar arguments, integer buffers checked exactly; the Triton runner's
# timing (runner_bench.py); the study's template choice
# (choice_check.py); the NW and softmax studies' spaces and kernels
# (study_check.py, nw_cpu.sh).
# Last line: "tune: N passed, N failed".
build=${1:-build}
lego=$(cd "$build" && pwd)/lego
here=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# expect NAME FILE TEXT: FILE holds the fixed string TEXT.
expect() {
	if grep -qF -- "$3" "$2"; then ok; else bad "$1: no '$3' in:"; cat "$2"; fi
}

if ! cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -o "$tmp/ocl_time" \
	"$here/ocl_time.c" -lOpenCL -lm; then
	bad "cannot build ocl_time.c (OpenCL headers: scripts/opencl.sh)"
	echo "tune: $pass passed, $fail failed"
	exit 1
fi

# A name for a cdiv is a padded count, as the cdiv is: it must not make
# the tile divide the size (every BM of 3, 4, 5 stays in the space).
printf 'sym M\ntune BM in {3, 4, 5}\nlet n = cdiv(M, BM)\nlayout P = Row(n, BM)\n' \
	>"$tmp/cdiv.lego"
"$lego" tune "$tmp/cdiv.lego" /dev/null --space -D M=10 >"$tmp/cdiv" 2>&1
expect let-cdiv "$tmp/cdiv" "space: 3 configurations"

tpl=$here/matmul.cl.tpl
sizes="-D M=64 -D N=64 -D K=64"
# The space: TM in {1, 2}, two orders, BUG in 1..3.
"$lego" tune "$tpl" --space $sizes >"$tmp/space" 2>&1
expect space "$tmp/space" "space: 12 configurations of 3 parameters (cross product 12)"

# P fixed by -D: 6 candidates, 4 of them broken (BUG 2 and 3).
run_tune() {
	(cd "$tmp" && "$lego" tune "$tpl" --target opencl --strategy exhaustive \
		--run "$tmp/ocl_time {kernel} 64 64 64 {TM}" --db "$tmp/t.db" \
		$sizes -D P=1 "$@")
}
if run_tune --csv "$tmp/h.csv" >"$tmp/out" 2>"$tmp/err"; then ok; else
	bad "tune exited with $?"; cat "$tmp/err"; fi
expect best "$tmp/out" "BUG=1"
expect first "$tmp/err" "exhaustive, 6 evaluations (6 measured, 4 failed)"
[ "$(wc -l <"$tmp/h.csv")" -eq 7 ] && ok || bad "csv: $(cat "$tmp/h.csv")"
run_tune -q >"$tmp/out2" 2>"$tmp/err2"
expect rerun "$tmp/err2" "exhaustive, 6 evaluations (0 measured, 4 failed)"
cmp -s "$tmp/out" "$tmp/out2" && ok || bad "re-run found another best: $(cat "$tmp/out" "$tmp/out2")"

(cd "$tmp" && "$lego" tune "$tpl" --show --db "$tmp/t.db" $sizes -D P=1) \
	>"$tmp/show" 2>&1
expect show "$tmp/show" "history: 6 evaluations"
expect show-wrong "$tmp/show" "wrong result at 0"
expect show-build "$tmp/show" "failed"
grep -q "^best: TM=[12] BUG=1 " "$tmp/show" && ok || bad "show: no best"

# lego gen --tuned: the best configuration of the cache, TM and BUG=1.
(cd "$tmp" && "$lego" gen "$tpl" --target opencl --tuned "$tmp/t.db" $sizes \
	-D P=1) >"$tmp/tuned.cl" 2>"$tmp/tuned.err"
expect tuned "$tmp/tuned.cl" "#if 1 == 2"
expect tuned-note "$tmp/tuned.err" "lego gen: tuned: TM="
(cd "$tmp" && "$lego" gen "$tpl" --target opencl --tuned "$tmp/t.db" \
	-D M=32 -D N=64 -D K=64 -D P=1) >/dev/null 2>"$tmp/e"
expect tuned-none "$tmp/e" "no tuned configuration for this template and problem (K=64 M=32 N=64 P=1)"

# --remeasure: the fastest 3 timed again in 3 interleaved rounds, chosen
# on the median (noisy.sh: known, noisy times).  The search's best (C=1,
# a lucky first draw) and the first round's (C=3) both lose to C=2.
printf 'tune C in 1..4\n' >"$tmp/noisy.lego"
mkdir "$tmp/n"
noisy() {
	"$lego" tune "$tmp/noisy.lego" /dev/null --strategy exhaustive \
		--run "sh $here/noisy.sh {C} $tmp/n" "$@"
}
noisy --remeasure 3 --rounds 3 --db "$tmp/n.db" >"$tmp/out" 2>"$tmp/err"
expect remeasure "$tmp/out" "best: C=2  0.82 ms (median)"
expect remeasure-note "$tmp/err" "the best 3 re-measured in 3 interleaved rounds (9 measured)"
expect remeasure-order "$tmp/n/log" "1 2 3 4 1 2 3 1 2 3 1 2 3 "
noisy --remeasure 3 --rounds 3 --db "$tmp/n.db" >"$tmp/out" 2>"$tmp/err"
expect remeasure-cached "$tmp/err" "in 3 interleaved rounds (0 measured)"
expect remeasure-cached-best "$tmp/out" "best: C=2  0.82 ms (median)"
"$lego" tune "$tmp/noisy.lego" /dev/null --show --db "$tmp/n.db" >"$tmp/show"
expect remeasure-show "$tmp/show" "0.92 ms  C=3  (median of 0.88 0.92 0.93)"
"$lego" gen "$tmp/noisy.lego" /dev/null --tuned "$tmp/n.db" 2>"$tmp/e" >/dev/null
expect remeasure-gen "$tmp/e" "lego gen: tuned: C=2 (0.82 ms)"
# another re-measurement of the problem replaces the first
noisy --remeasure 2 --rounds 3 --db "$tmp/n.db" >/dev/null 2>&1
"$lego" tune "$tmp/noisy.lego" /dev/null --show --db "$tmp/n.db" >"$tmp/show"
expect remeasure-replaced "$tmp/show" "re-measured in interleaved rounds: 2"
rm -f "$tmp"/n/*
noisy --remeasure 0 --db "$tmp/n0.db" >"$tmp/out" 2>&1
expect remeasure-off "$tmp/out" "best: C=1  0.5 ms"

# The OpenCL runner in process: the same candidates built in parallel,
# checked against matmul_ref.cl; batches of 1 and of 3 record the same
# outcomes; a re-run measures nothing.
ocl() {
	(cd "$tmp" && "$lego" tune "$tpl" --target opencl --strategy exhaustive \
		--runner opencl --kernel matmul --args 'a:M*K b:K*N c:M*N:out' \
		--global 'M*N/TM' --ref-global 'M*N' --reference "$here/matmul_ref.cl" $sizes -q "$@")
}
for j in 1 3; do
	ocl --db "$tmp/o$j.db" --jobs $j >"$tmp/o$j" 2>"$tmp/oe$j"
	expect ocl-$j "$tmp/oe$j" "exhaustive, 12 evaluations (12 measured, 8 failed)"
	(cd "$tmp" && "$lego" tune "$tpl" --show --db "$tmp/o$j.db" $sizes) |
		grep -v "(median of" | sed -n 's/^ *[0-9]* *\(failed\|[0-9.e-]* ms\) *\([^:]*\)\(: [a-z ]*\)\?.*/\1 \2\3/p' |
		sed 's/^[0-9.e-]* ms/ok/' | sort >"$tmp/os$j"
done
cmp -s "$tmp/os1" "$tmp/os3" && ok || bad "--jobs 1 and 3 differ: $(diff "$tmp/os1" "$tmp/os3")"
expect ocl-wrong "$tmp/os3" "failed TM=2 P=1 BUG=2: wrong result"
expect ocl-build "$tmp/os3" "failed TM=1 P=0 BUG=3: does not compile"
(cd "$tmp" && "$lego" tune "$tpl" --show --db "$tmp/o3.db" $sizes) >"$tmp/show"
expect ocl-build-why "$tmp/show" "BUG=3: does not compile: error: kernel.cl:"
expect ocl-good "$tmp/os3" "ok TM=2 P=0 BUG=1"
ocl --db "$tmp/o3.db" >/dev/null 2>"$tmp/oe"
expect ocl-rerun "$tmp/oe" "12 evaluations (0 measured, 8 failed)"
# The reference runs on a grid of its own: right with TM = 2 first.
ocl --db "$tmp/of.db" -D TM=2 -D P=1 -D BUG=1 >"$tmp/out" 2>&1
expect ocl-fixed "$tmp/out" "1 evaluations (1 measured, 0 failed)"
# A kernel that runs past --timeout is recorded as timed out; one whose
# reference does not build fails every candidate with that reason.
spin() {
	(cd "$tmp" && "$lego" tune "$here/spin.cl.tpl" --target opencl \
		--strategy exhaustive --runner opencl --kernel twice \
		--args 'a:N b:N:out' --global N -D N=1 -q "$@")
}
spin --reference "$here/twice_ref.cl" --timeout 0.05 --db "$tmp/s.db" \
	>"$tmp/out" 2>&1
expect spin "$tmp/out" "best: SPIN=1"
(cd "$tmp" && "$lego" tune "$here/spin.cl.tpl" --show --db "$tmp/s.db" -D N=1) \
	>"$tmp/show" 2>&1
expect spin-timeout "$tmp/show" "SPIN=2: timed out after 0.05 s"
spin --reference "$here/matmul.cl.tpl" --db "$tmp/s2.db" >"$tmp/out" 2>&1
[ $? -eq 1 ] && ok || bad "a broken reference: not an error"
expect spin-ref "$tmp/out" "2 evaluations (2 measured, 2 failed)"
(cd "$tmp" && "$lego" tune "$here/spin.cl.tpl" --show --db "$tmp/s2.db" -D N=1) \
	>"$tmp/show" 2>&1
expect spin-ref-why "$tmp/show" "SPIN=1: the reference: does not compile"
# Sizes as scalar arguments (Lift's and MDH's kernels), on a problem that
# is not square: by expression against a reference that reads the macros
# (a scalar passed wrong or swapped is a wrong result), then by name.
sizes() {
	(cd "$tmp" && "$lego" tune "$here/sizes.cl.tpl" --target opencl \
		--strategy exhaustive --runner opencl --kernel matmul \
		--global 'M*N/TM' --ref-global 'M*N' \
		--reference "$here/sizes_ref.cl" -D M=12 -D N=20 -D K=6 -q "$@")
}
sizes --args 'a:M*K b:K*N c:M*N:out m:int=M n:int=N k:int=K blocks:long=M/TM' \
	--db "$tmp/z1.db" >"$tmp/out" 2>&1
expect scalars-expr "$tmp/out" "3 evaluations (3 measured, 0 failed)"
sizes --args 'a:M*K b:K*N c:M*N:out M:int N:int K:int blocks:long=M/TM' \
	--db "$tmp/z2.db" >"$tmp/out" 2>&1
expect scalars-name "$tmp/out" "3 evaluations (3 measured, 0 failed)"
sizes --args 'a:M*K b:K*N c:M*N:out n:int=N m:int=M k:int=K blocks:long=M/TM' \
	--db "$tmp/z3.db" >"$tmp/out" 2>&1
expect scalars-swapped "$tmp/out" "3 evaluations (3 measured, 3 failed)"
(cd "$tmp" && "$lego" tune "$here/sizes.cl.tpl" --show --db "$tmp/z3.db" \
	-D M=12 -D N=20 -D K=6) >"$tmp/show" 2>&1
expect scalars-swapped-why "$tmp/show" "TM=1: wrong result: c["
# Integer buffers, compared exactly (ints.cl.tpl, b = a * 10^6 or 10^10):
# BUG 2's off-by-one in a large value is a wrong result (a relative 1e-3
# would pass it), BUG 3's unwritten b[0] keeps the poison.  The inputs
# are (5 i + 3 arg) % 7 - 3: a[5] = 1, a[0] = -3.  By --elem, and by a
# type per buffer.  An element both leave unwritten fails every
# candidate, as a float's NaN does.
ints() {
	(cd "$tmp" && "$lego" tune "$here/ints.cl.tpl" --target opencl \
		--strategy exhaustive --runner opencl --kernel scale --global N \
		--reference "$here/ints_ref.cl" -D N=64 -q "$@")
}
ints_show() {
	(cd "$tmp" && "$lego" tune "$here/ints.cl.tpl" --show --db "$1" -D N=64 \
		-D W="$2" -D HOLE=1) >"$tmp/show" 2>&1
}
ints --args 'a:N b:N:out' --elem i32 -D W=32 -D HOLE=1 --db "$tmp/i32.db" >"$tmp/out" 2>&1
expect ints-i32 "$tmp/out" "3 evaluations (3 measured, 2 failed)"
expect ints-i32-best "$tmp/out" "best: BUG=1"
ints_show "$tmp/i32.db" 32
expect ints-i32-off "$tmp/show" "BUG=2: wrong result: b[5] = 1000001, the reference says 1000000"
expect ints-i32-poison "$tmp/show" "BUG=3: wrong result: b[0] = -2147483648 (not written), the reference says -3000000"
# The cache keys a measurement by what it was checked against: the same
# run again measures nothing, a run with another reference text (here the
# same one and a comment) or other argument types measures again.
ints --args 'a:N b:N:out' --elem i32 -D W=32 -D HOLE=1 --db "$tmp/i32.db" >"$tmp/out" 2>&1
expect ints-cached "$tmp/out" "3 evaluations (0 measured, 2 failed)"
{ cat "$here/ints_ref.cl"; echo '/* the same reference */'; } >"$tmp/ref2.cl"
(cd "$tmp" && "$lego" tune "$here/ints.cl.tpl" --target opencl \
	--strategy exhaustive --runner opencl --kernel scale --global N \
	--reference "$tmp/ref2.cl" -D N=64 -q --args 'a:N b:N:out' --elem i32 \
	-D W=32 -D HOLE=1 --db "$tmp/i32.db") >"$tmp/out" 2>&1
expect ints-new-reference "$tmp/out" "3 evaluations (3 measured, 2 failed)"
ints --args 'a:N:i32 b:N:out:i32' -D W=32 -D HOLE=1 --db "$tmp/i32.db" >"$tmp/out" 2>&1
expect ints-new-types "$tmp/out" "3 evaluations (3 measured, 2 failed)"
ints --args 'a:N:i32 b:N:out:i64' -D W=64 -D HOLE=1 --db "$tmp/i64.db" >"$tmp/out" 2>&1
expect ints-i64 "$tmp/out" "3 evaluations (3 measured, 2 failed)"
ints_show "$tmp/i64.db" 64
expect ints-i64-off "$tmp/show" "BUG=2: wrong result: b[5] = 10000000001, the reference says 10000000000"
expect ints-i64-poison "$tmp/show" "BUG=3: wrong result: b[0] = -9223372036854775808 (not written)"
ints --args 'a:N b:N:out' --elem i32 -D W=32 -D HOLE=2 --db "$tmp/ih.db" \
	>"$tmp/out" 2>&1
expect ints-hole "$tmp/out" "3 evaluations (3 measured, 3 failed)"
ints --args 'a:N b:N:out' --elem i16 -D W=32 -D HOLE=1 >"$tmp/e" 2>&1
[ $? -eq 2 ] && ok || bad "--elem i16: not a usage error: $(cat "$tmp/e")"
for args in "--runner metal" "--runner opencl --kernel twice" "--kernel twice" \
	"--runner opencl --run true --kernel k --args a:N --global N --reference x"; do
	(cd "$tmp" && "$lego" tune "$here/spin.cl.tpl" $args -D N=1) >"$tmp/e" 2>&1
	[ $? -eq 2 ] && ok || bad "'$args': not a usage error: $(cat "$tmp/e")"
done

# The cost model: a tile read by rows and columns, row-major (32-way
# bank conflicts on the columns), padded or swizzled; pruning keeps the
# four without conflicts; a layout it cannot find is an error.
cat >"$tmp/tile.lego" <<'EOS'
tune ROWS in {8, 32}
tune layout S in {Row(32, 32), Row(32, 33), GenP([32, 32], swizzle(5, 0, 5))}
let model_smem = 32 * 33 * 4
let model_threads = 32 * ROWS
let model_blocks = 16384
EOS
"$lego" tune "$tmp/tile.lego" /dev/null --list --model prune --model-banks S \
	>"$tmp/out" 2>&1
[ "$(grep -c ' S=[12] ' "$tmp/out")" -eq 4 ] && [ "$(wc -l <"$tmp/out")" -eq 4 ] &&
	ok || bad "model prune: $(cat "$tmp/out")"
"$lego" tune "$tmp/tile.lego" /dev/null --list --model order --model-banks Q \
	>"$tmp/out" 2>&1
[ $? -eq 1 ] && ok || bad "an unknown layout in --model-banks accepted"
expect model-banks "$tmp/out" "model: no layout 'Q'"
"$lego" tune "$tmp/tile.lego" /dev/null --list --model always >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--model always: not a usage error"

# Errors: a usage error exits 2, an input error 1 with its position.
"$lego" tune "$tpl" $sizes >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "no --run: not a usage error"
(cd "$tmp" && "$lego" tune "$tpl" --run true --strategy genetic $sizes) \
	>/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "unknown strategy: not a usage error"
[ ! -e "$tmp/lego-tune.db" ] && ok || bad "a usage error created the cache"
"$lego" tune "$tpl" --space -D M=64 -D TM=3 >"$tmp/e" 2>&1
[ $? -eq 1 ] && ok || bad "-D TM=3 accepted"
expect bad-value "$tmp/e" "matmul.cl.tpl:5:6: error: -D TM=3 is not a value"

# A space too large to hold is refused, not allocated (2^24 configurations).
printf 'tune A in 1..4096\ntune B in 1..4096\ntune C in 1..4\n' >"$tmp/big.lego"
"$lego" tune "$tmp/big.lego" /dev/null --space >"$tmp/e" 2>&1
[ $? -eq 1 ] && ok || bad "a space of 2^26 configurations accepted"
expect big "$tmp/e" "big.lego: error: the space has more than 16777216 configurations"

# The study's template choice: its space against brute force, and its
# split-K, masked and generic kernels run on a numpy stand-in for Triton.
python3 "$here/choice_check.py" "$lego" "$here/../.." >"$tmp/cc" 2>&1
expect choice-check "$tmp/cc" "ok ("

# The NW and softmax studies' spaces against brute force, a softmax
# candidate in Triton's interpreter; the NW kernels of every
# configuration run on the CPU against the recurrence.
python3 "$here/study_check.py" "$lego" "$here/../.." >"$tmp/sc" 2>&1
expect study-check "$tmp/sc" "ok ("
sh "$here/nw_cpu.sh" "$lego" "$here/../../bench/tune/nw/nw.cu.tpl" "$tmp/nw" \
	>"$tmp/nw.out" 2>&1
[ $? -eq 0 ] && [ "$(grep -c ': ok$' "$tmp/nw.out")" -eq 12 ] && ok ||
	{ bad "nw_cpu.sh:"; cat "$tmp/nw.out"; }

# The Triton runner's time counts the host's time of a call (stand-ins
# for torch and triton: no GPU here).
python3 "$here/runner_bench.py" >"$tmp/rb" 2>&1
expect runner-bench "$tmp/rb" "ok"

echo "tune: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# cuda.sh LEGO - the CUDA runner on a GPU (not in make check: no GPU
# there; run once on the device, bench/tune/cuda/README.md): twice.cu.tpl
# tuned in process, every candidate compiled by NVRTC in parallel,
# checked against twice_ref.cu and timed with events; the wrong, the
# broken and the slow candidates are recorded and skipped; a re-run
# measures nothing; scalar arguments arrive by value (sizes.cu.tpl).
# Last line: "cuda: N passed, N failed".
lego=${1:-build/lego}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
expect() {
	if grep -qF -- "$3" "$2"; then ok; else bad "$1: no '$3' in:"; cat "$2"; fi
}
run() {
	"$lego" tune "$here/twice.cu.tpl" --target cuda --strategy exhaustive \
		--runner cuda --kernel twice --args 'a:N b:N:out' \
		--global N --local BLOCK --reference "$here/twice_ref.cu" \
		--timeout 0.5 --jobs 8 --db "$tmp/t.db" -D N=1000000 -q "$@"
}
run >"$tmp/out" 2>"$tmp/err"
cat "$tmp/out" "$tmp/err"
expect first "$tmp/err" "exhaustive, 8 evaluations (8 measured, 6 failed)"
expect best "$tmp/out" "BUG=1"
"$lego" tune "$here/twice.cu.tpl" --show --db "$tmp/t.db" -D N=1000000 >"$tmp/show"
cat "$tmp/show"
expect wrong "$tmp/show" "BUG=2: wrong result: b[0]"
expect build "$tmp/show" "BUG=3: does not compile"
expect slow "$tmp/show" "BUG=4: timed out after 0.5 s"
run >"$tmp/out2" 2>"$tmp/err2"
expect rerun "$tmp/err2" "8 evaluations (0 measured, 6 failed)"
# Scalar arguments by value: an int and a long (sizes.cu.tpl).
"$lego" tune "$here/sizes.cu.tpl" --target cuda --strategy exhaustive \
	--runner cuda --kernel twice --args 'a:N b:N:out n:int=N s:long=2' \
	--global N --local BLOCK --reference "$here/twice_ref.cu" \
	--db "$tmp/z.db" -D N=1000000 -q >"$tmp/out" 2>&1
cat "$tmp/out"
expect scalars "$tmp/out" "2 evaluations (2 measured, 0 failed)"
"$lego" tune "$here/sizes.cu.tpl" --target cuda --strategy exhaustive \
	--runner cuda --kernel twice --args 'a:N b:N:out n:int=N s:long=3' \
	--global N --local BLOCK --reference "$here/twice_ref.cu" \
	--db "$tmp/z3.db" -D N=1000000 -q >"$tmp/out" 2>&1
expect scalars-wrong "$tmp/out" "2 evaluations (2 measured, 2 failed)"
echo "cuda: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

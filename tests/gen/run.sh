#!/bin/sh
# Tests of `lego gen` and of the Triton it generates:
#   - golden files: every example of examples/triton regenerates unchanged;
#   - templates with a spec block, shared subexpressions, slices;
#   - errors: file:line:col messages, exit status 1, OUT never half-written;
#   - tests/gen/test_triton.py: index expressions against `lego table` with
#     numpy for tl.arange, and the kernels run in Triton's interpreter.
# Usage: sh tests/gen/run.sh BUILD_DIR.  Needs python3 with numpy (and
# triton for the interpreter runs): both are installed with pip if missing.
# Last line: "gen: N passed, N failed".
BUILD=${1:-build}
LEGO=$BUILD/lego
HERE=$(dirname "$0")
EX=examples/triton
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

# golden SPEC TEMPLATE GOLDEN
golden() {
	if "$LEGO" gen "$1" "$2" -o "$TMP/out" && cmp -s "$TMP/out" "$3"; then
		ok "golden $3"
	else
		ko "golden $3 (regenerate and diff to see the change)"
	fi
}

for v in ab abt atb atbt; do
	golden $EX/matmul_$v.lego $EX/matmul.py.tpl $EX/matmul_$v.py
	golden $EX/matmul_$v.lego $EX/matmul_inc.py.tpl $EX/matmul_inc_$v.py
done
for v in ab abt atb atbt; do
	golden $EX/matmul_any_$v.lego $EX/matmul_masked.py.tpl $EX/matmul_masked_$v.py
	golden $EX/matmul_any_$v.lego $EX/matmul_tma.py.tpl $EX/matmul_tma_$v.py
done
golden $EX/softmax.lego $EX/softmax.py.tpl $EX/softmax.py

# A mask proved true (tiles that divide the sizes) is the truth value True:
# tl.store refuses an integer mask.  A number that is not a truth value
# stays a number.
"$LEGO" gen $EX/matmul_any_ab.lego $EX/matmul_masked.py.tpl -D M=64 -D N=64 \
	-D K=64 -D BM=16 -D BN=16 -D BK=16 > "$TMP/true.py"
printf '{%% lego %%}\nsym N\nlayout L = Row(N, 4)\n{%% end %%}\nm = {{ mask(L[i, j]) }} + {{ L.stride(1) }}\n' > "$TMP/num.tpl"
if [ "$(grep -c 'mask=True' "$TMP/true.py")" = 3 ] &&
   ! grep -q 'mask=1' "$TMP/true.py" &&
   [ "$("$LEGO" gen "$TMP/num.tpl")" = "m = True + 1" ] &&
   [ "$("$LEGO" gen --target c "$TMP/num.tpl")" = "m = 1 + 1" ]; then
	ok "a mask proved true is True in Triton, 1 in C"
else
	ko "a mask proved true is True in Triton, 1 in C"
fi
golden $EX/grouped_gemm.lego $EX/grouped_gemm.py.tpl $EX/grouped_gemm.py
golden $EX/grouped_gemm.lego $EX/grouped_gemm_tma.py.tpl $EX/grouped_gemm_tma.py

if "$LEGO" gen "$HERE/cases/block.tpl" > "$TMP/block" &&
   cmp -s "$TMP/block" "$HERE/cases/block.expected"; then
	ok "spec block, shared subexpressions, slices"
else
	ko "spec block, shared subexpressions, slices"
fi

# expect_error NAME TEMPLATE_TEXT MESSAGE [ARGS...]: exit 1, the message on
# stderr, and an existing OUT left as it was.
expect_error() {
	name=$1 text=$2 msg=$3
	shift 3
	printf '%s\n' "$text" > "$TMP/t.tpl"
	echo keep > "$TMP/out"
	"$LEGO" gen "$@" "$TMP/t.tpl" -o "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -qF -- "$msg" "$TMP/err" &&
	   [ "$(cat "$TMP/out")" = keep ] &&
	   [ -z "$(ls "$TMP" | grep '^out\.')" ]; then
		ok "error: $name"
	else
		ko "error: $name (exit $rc: $(cat "$TMP/err"))"
	fi
}

SPEC=$EX/matmul_ab.lego
expect_error "unknown name" 'x = {{ A[pid_m, k, :, :] }}
y = {{ Q[0] }}' "t.tpl:2:8: error: unknown name 'Q'" $SPEC
expect_error "wrong number of indices" '  x = {{ A[i, j, :] }}' \
	"t.tpl:1:19: error: layout 'A' has rank 4, got 3 indices" $SPEC
expect_error "too many indices" 'x = {{ A[0, 0, 0, 0, 0] }}' \
	"t.tpl:1:22: error: too many indices" $SPEC
expect_error "unterminated placeholder" 'a
x = {{ A[0, 0, 0, 0] }} + {{ M' "t.tpl:2:27: error: unterminated placeholder" $SPEC
expect_error "syntax error" 'x = {{ M + }}' "t.tpl:1:12: error:" $SPEC
expect_error "inverse coordinate" 'x = {{ P.inv(p)[2] }}' \
	"t.tpl:1:17: error: expected a coordinate 0..1" $SPEC
expect_error "Triton cannot print" 'x = 1
y = {{ M }} + {{ isqrt(A[0, 0, :, 0]) }}' "t.tpl:2:15: error: Triton: isqrt" $SPEC
expect_error "unknown target" 'y = {{ M }}' "unknown target 'fortran'" $SPEC --target fortran
expect_error "no spec" 'y = {{ M }}' "error: no spec"
expect_error "spec error in a block" '{% lego %}
sym M
layout A = Row(M, Z)
{% end %}' "t.tpl:3:19: error: unknown name 'Z'"
expect_error "unterminated block" '{% lego %}
sym M' "t.tpl:1:1: error: {% lego %} without {% end %}"
# Indices proved outside their dim, and values past 64 bits (issue 12).
expect_error "constant index outside its dim" '{% lego %}
layout T = Row(8, 8)
{% end %}
x = {{ T[9, 0] }}' "t.tpl:4:10: error: index 9 is outside [0, 8)"
expect_error "negative index" '{% lego %}
layout T = Row(8, 8)
{% end %}
x = {{ T[0, 3 - 4] }}' "t.tpl:4:13: error: index -1 is outside [0, 8)"
expect_error "symbolic index outside its dim" '{% lego %}
sym M
layout S = Row(M, 4)
{% end %}
x = {{ S[M, 0] }}' "t.tpl:5:10: error: index M is outside [0, M)"
expect_error "flat index outside the layout" '{% lego %}
layout T = Row(8, 8)
{% end %}
x = {{ T.inv(64)[0] }}' "t.tpl:4:14: error: index 64 is outside [0, 64)"
expect_error "value past 64 bits" '{% lego %}
layout T = Row(8, 8)
{% end %}
x = {{ T[i, j] * 144115188075855872 }}' \
	"t.tpl:4:5: error: a value of this placeholder can reach 2^62"
expect_error "block inside a block" '{% lego %}
sym M
  {% lego %}
{% end %}' "t.tpl:3:3: error: {% lego %} inside the block of line 1"
expect_error "end without a block" 'x = 1
# {% end %}' "t.tpl:2:3: error: {% end %} without {% lego %}"
expect_error "spec error in a second block" '{% lego %}
sym M
{% end %}
x = {{ M }}
{% lego %}
layout A = Row(M, Z)
{% end %}' "t.tpl:6:19: error: unknown name 'Z'"
expect_error "spec file and a block" '{% lego %}
{% end %}' "t.tpl:1:1: error: the spec is given twice" $SPEC
# Several blocks are one spec: the second block's layout is known on a
# line before it, its markers are left out.
printf '%s\n' '# {% lego %}' 'sym M, N' '# {% end %}' 'x = {{ X[r, 1] }}' \
	'# {% lego %}' 'layout X = Col(M, N)' '# {% end %}' 'y = {{ 2 * M }}' \
	> "$TMP/two.tpl"
if "$LEGO" gen "$TMP/two.tpl" > "$TMP/two" &&
   [ "$(cat "$TMP/two")" = "$(printf 'x = M + r\ny = 2 * M')" ]; then
	ok "two spec blocks"
else
	ko "two spec blocks: $(cat "$TMP/two")"
fi
expect_error "stride of a layout that is not strided" 'x = {{ A.stride(3) }} + {{ P.stride(0) }}' \
	"t.tpl:1:37: error: 'P' is not strided along dim 0" $SPEC
expect_error "stride of a dim out of range" 'x = {{ A.stride(4) }}' \
	"t.tpl:1:17: error: expected a dim 0..3 of 'A'" $SPEC
expect_error "slice beyond its dim" 'x = {{ A[0, 0, 0:9, 0] }}' \
	"beyond the dim" $SPEC -D BM=4

# Python with numpy (and triton for the interpreter runs).
if ! python3 -c 'import numpy' 2>/dev/null; then
	echo "installing numpy and triton with pip"
	python3 -m pip install -q numpy triton >/dev/null 2>&1 ||
		echo "pip install failed: numpy is needed for the numeric tests"
fi
if python3 -c 'import numpy' 2>/dev/null; then
	python3 -c 'import triton' 2>/dev/null ||
		python3 -m pip install -q triton >/dev/null 2>&1 ||
		echo "triton is not installable: interpreter runs are skipped"
	python3 "$HERE/test_triton.py" "$BUILD" > "$TMP/py" 2>&1
	cat "$TMP/py"
	last=$(tail -n 1 "$TMP/py")
	case $last in
	"gen-triton: "*)
		p=$(echo "$last" | sed 's/gen-triton: \([0-9]*\) passed, \([0-9]*\) failed/\1/')
		f=$(echo "$last" | sed 's/gen-triton: \([0-9]*\) passed, \([0-9]*\) failed/\2/')
		pass=$((pass + p)); fail=$((fail + f)) ;;
	*) ko "test_triton.py did not finish" ;;
	esac
else
	ko "numpy is missing: numeric tests not run"
fi

echo "gen: $pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# run.sh BUILD - tests of the `lego` command-line tool: every command, its
# --help, exit statuses and error messages.  Expected values come from
# SEMANTICS.md and the paper, or are computed here independently.  Last
# line: "cli: N passed, N failed".
build=${1:-build}
lego=$build/lego
dir=$(dirname "$0")
ex=$dir/../../examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() {
	pass=$((pass + 1))
}

bad() {
	fail=$((fail + 1))
	echo "FAIL $1"
	[ -s "$tmp/out" ] && sed 's/^/  stdout: /' "$tmp/out" | head -5
	[ -s "$tmp/err" ] && sed 's/^/  stderr: /' "$tmp/err" | head -5
}

# run ARGS...: lego's output in $tmp/out and $tmp/err, status in $rc.
run() {
	"$lego" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# same NAME WANT ARGS...: exit 0 and stdout exactly WANT.
same() {
	name=$1
	want=$2
	shift 2
	run "$@"
	if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ]; then ok; else
		bad "$name: want exit 0 and '$want' (exit $rc)"; fi
}

# has NAME STATUS PATTERN STREAM ARGS...: exit STATUS and a line of STREAM
# (out or err) matching the basic regular expression PATTERN.
has() {
	name=$1
	want_rc=$2
	pattern=$3
	stream=$4
	shift 4
	run "$@"
	if [ "$rc" -eq "$want_rc" ] && grep -q -- "$pattern" "$tmp/$stream"; then
		ok
	else
		bad "$name: want exit $want_rc and $stream matching '$pattern' (exit $rc)"
	fi
}

# ---------------------------------------------------------------- help
has "--help" 0 "^Usage: lego COMMAND" out --help
has "-h" 0 "lego check FILE" out -h
has "--version" 0 "^lego [0-9][0-9.]*$" out --version
for cmd in table apply inv check exprs; do
	has "$cmd --help" 0 "^Usage: lego $cmd FILE" out "$cmd" --help
	has "$cmd -h" 0 "^Options:" out "$cmd" -h
done

# show and analyze (tools/lego/cmd_show.c, cmd_analyze.c) are dispatched.
has "show --help" 0 "^Usage: lego show FILE" out show --help
has "analyze --help" 0 "^Usage: lego analyze" out analyze --help
has "--help lists show" 0 "lego show FILE" out --help

# --------------------------------------------------------- usage errors
has "no command" 2 "^lego: error: no command" err
has "unknown command" 2 "^lego: error: unknown command 'frob'" err frob
has "unknown option" 2 "^lego: error: unknown option '--frob'" err \
	table "$dir/fig9.lego" G --frob
has "missing arguments" 2 "^lego: error: missing arguments" err table "$dir/fig9.lego"
has "too many arguments" 2 "^lego: error: too many arguments" err \
	table "$dir/fig9.lego" G H
has "inv: too many arguments" 2 "too many arguments" err inv "$dir/fig9.lego" G 1 2
has "bad -D" 2 "^lego: error: -D expects NAME=VALUE" err \
	table "$dir/tile.lego" A -D M
has "-D value not an integer" 2 "must be an integer" err \
	table "$dir/tile.lego" A -D M=4x
has "-D without value" 2 "-D needs NAME=VALUE" err table "$dir/tile.lego" A -D
has "bad --lang" 2 "^lego: error: --lang expects c or python" err \
	apply "$dir/fig9.lego" G 4 2 --lang rust
has "usage hint" 2 "^Try 'lego table --help'" err table

# --------------------------------------------------- figure 9 (paper)
same "fig9 apply(4,2) = 15" 15 apply "$dir/fig9.lego" G 4 2
same "fig9 after O2 alone: 23" 23 apply "$dir/fig9.lego" O2 1 1 0 2
same "fig9 inv(15) = (4,2)" "4
2" inv "$dir/fig9.lego" G 15
same "fig9 apply, python" 15 apply "$dir/fig9.lego" G 4 2 --lang python
same "fig9 apply, options first" 15 apply --lang=c "$dir/fig9.lego" G 4 2
same "fig9 apply of an expression" 15 apply "$dir/fig9.lego" G "2*2" "1+1"
# The table is a permutation of 0..35 whose entry for (4, 2) (row-major
# position 26) is 15.
run table "$dir/fig9.lego" G
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
	[ "$(tr ' ' '\n' <"$tmp/out" | sort -n | tr '\n' ' ')" = \
	  "$(seq 0 35 | tr '\n' ' ')" ] &&
	[ "$(cut -d' ' -f27 <"$tmp/out")" = 15 ]; then ok; else
	bad "fig9 table is a permutation with entry 26 = 15"; fi
has "fig9 check" 0 "^G: bijective on 36 elements, inv(apply(i)) == i: ok$" \
	out check "$dir/fig9.lego"
has "fig9 check O1" 0 "^O1: bijective on 36 elements" out check "$dir/fig9.lego" O1
run check "$dir/fig9.lego" G
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ]; then ok; else
	bad "check NAME checks only NAME"; fi

# ------------------------------------------------ TileBy (SEMANTICS.md)
same "TileBy table, Row" \
	"0 1 6 7 2 3 8 9 4 5 10 11 12 13 18 19 14 15 20 21 16 17 22 23" \
	table "$dir/tile.lego" TR
same "TileBy table, Col" \
	"0 4 1 5 8 12 9 13 16 20 17 21 2 6 3 7 10 14 11 15 18 22 19 23" \
	table "$dir/tile.lego" TC
same "symbolic TileBy with -D" \
	"0 1 6 7 2 3 8 9 4 5 10 11 12 13 18 19 14 15 20 21 16 17 22 23" \
	table "$dir/tile.lego" A -D M=4 -D K=6 -D BM=2 -D BK=2
same "-DNAME=VALUE glued" 91 apply "$dir/tile.lego" A 1 2 3 1 \
	-DM=8 -DK=12 -DBM=4 -DBK=3
# (tm*BM + r)*K + tk*BK + c, evaluated by the shell's arithmetic on the
# printed C expression (all values are non-negative: / agrees).
run apply "$dir/tile.lego" A tm tk r c
expr_a=$(cat "$tmp/out")
good=$rc
for v in "0 0 0 0 8 6 4 3" "1 1 3 2 8 6 4 3" "3 2 1 4 32 15 8 5" \
	"0 4 7 0 8 40 8 8"; do
	set -- $v
	want=$((($1 * $7 + $3) * $6 + $2 * $8 + $4))
	e=$(echo "$expr_a" | sed -e "s/\btm\b/$1/g" -e "s/\btk\b/$2/g" \
		-e "s/\br\b/$3/g" -e "s/\bc\b/$4/g" -e "s/\bM\b/$5/g" \
		-e "s/\bK\b/$6/g" -e "s/\bBM\b/$7/g" -e "s/\bBK\b/$8/g")
	got=$(($e)) 2>/dev/null || got=error
	[ "$got" = "$want" ] || good=1
done
if [ "$good" -eq 0 ]; then ok; else
	bad "symbolic apply of A evaluates to (tm*BM+r)*K+tk*BK+c: $expr_a"; fi
has "table needs concrete sizes" 1 "symbolic.*-D M=" err table "$dir/tile.lego" A
has "check skips symbolic layouts (status 3)" 3 "^A: skipped: symbolic sizes (needs.*-D BM=" \
	out check "$dir/tile.lego"
has "check with -D checks them" 0 "^A: bijective on 48 elements" out \
	check "$dir/tile.lego" A -D M=8 -D K=6 -D BM=4 -D BK=3

# ---------------------------------------- grouped program ids (Triton)
# inv(pid) against the tutorial's formula, for every pid at 8, 6, 4.
good=0
pids=""
pid=0
while [ $pid -lt 48 ]; do
	pids="$pids $pid"
	pid=$((pid + 1))
done
for pid in $pids; do
	run inv "$dir/pid.lego" P "$pid" -D npm=8 -D npn=6 -D GM=4
	group=$((pid / 24))
	first=$((group * 4))
	gsize=$((8 - first < 4 ? 8 - first : 4))
	want="$((first + (pid % 24) % gsize))
$(((pid % 24) / gsize))"
	[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] || good=1
done
if [ "$good" -eq 0 ]; then ok; else bad "grouped pid layout = Triton order"; fi
has "symbolic inv prints two coordinates" 0 "" out inv "$dir/pid.lego" P pid
[ "$(wc -l <"$tmp/out")" -eq 2 ] && ok || bad "inv prints one line per dim"

# ------------------------------------------------------------ user GenP
same "user genp table" "0 2 4 1 3 5" table "$dir/tr.lego" T
same "user genp inv" "1
2" inv "$dir/tr.lego" T 5
has "non-bijective genp fails check" 1 "^S: NOT a bijection on 15 elements" out \
	check "$dir/badgenp.lego"
has "check failure names a witness" 1 "witness" out check "$dir/badgenp.lego" S
has "check reports the good layouts too" 1 "^Fine: bijective on 15" out \
	check "$dir/badgenp.lego"

# ------------------------------------------------------- padded layouts
# Element 13 = (row 2, column 3) is in tile (0, 1) at (2, 1); 35 = 7 * 5 is
# past the real tensor.
same "padded inv" "0
1
2
1" inv "$dir/pad.lego" A 13
has "padded inv past the real tensor" 1 "flat index 35 is outside \[0, 35)" err \
	inv "$dir/pad.lego" A 35
has "padded check" 0 "^A: bijective on 35 elements, inv(apply(i)) == i: ok$" out \
	check "$dir/pad.lego"
has "padded show: padding cells" 0 "^| 30   31 | 32   33 | 34    \. |$" out \
	show "$dir/pad.lego" A --ascii
has "padded show --inverse refused" 1 "no inverse view of a padded layout" err \
	show "$dir/pad.lego" A --inverse

# --------------------------------------------------------------- exprs
has "exprs C" 0 "^// apply" out exprs "$dir/fig9.lego" G
has "exprs python inv" 0 "^i1 = " out exprs "$dir/tile.lego" A --lang python
has "exprs help" 0 "^Usage: lego exprs" out exprs --help

# ------------------------------------------------------ input errors
has "syntax error position: the '(' left open" 1 "^[^ ]*syntax.lego:3:19: error: '(' is not closed: .*(4:1: expected ')' or ','" \
	err table "$dir/syntax.lego" Q
has "missing file" 1 "nonexistent.lego: error: cannot read" err \
	table "$dir/nonexistent.lego" G
has "unknown layout" 1 "^lego: error: .*no layout named 'Z' (layouts: O1, O2, G)" \
	err table "$dir/fig9.lego" Z
has "wrong number of indices" 1 "^lego: error: layout G has 2 dims" err \
	apply "$dir/fig9.lego" G 1 2 3
has "-D naming no sym" 1 "error: -D Q: no sym 'Q'" err \
	table "$dir/fig9.lego" G -D Q=3
has "-D of a non-positive value" 1 "tile.lego:4:5: error: -D M=0" err \
	table "$dir/tile.lego" TR -D M=0
has "bad expression argument" 1 "^<expr>:1:4: error: expected an expression" err \
	apply "$dir/fig9.lego" G "4 +" 2
has "check of a bad file" 1 "syntax.lego:3:19: error:" err check "$dir/syntax.lego"
printf 'layout L = RegP([2, 3], [1, 1])\n' >"$tmp/perm.lego"
has "not a permutation" 1 "perm.lego:1:12: error: .*permutation" err \
	check "$tmp/perm.lego"
printf 'layout L = OrderBy(Row(2, 3)).OrderBy(Row(4, 2))\n' >"$tmp/chain.lego"
has "chain sizes differ" 1 "chain.lego:1:12: error: .*differ" err \
	table "$tmp/chain.lego" L

has "index out of range" 1 "^lego: error: index 6 is outside \[0, 6)" err \
	apply "$dir/fig9.lego" G 6 2
has "negative index" 1 "index -1 is outside" err apply "$dir/fig9.lego" G -1 2
has "flat index out of range" 1 "flat index 36 is outside \[0, 36)" err \
	inv "$dir/fig9.lego" G 36
same "last flat index" "5
5" inv "$dir/fig9.lego" G 35
printf 'layout L = Row(100000, 100000, 100000, 100000)\n' >"$tmp/big.lego"
has "size overflow in check" 1 "^L: FAILED: .*64 bits" out check "$tmp/big.lego"
has "size overflow in table" 1 "big.lego:[0-9]*:[0-9]*: error: the size of layout L does not fit in 64 bits" err table "$tmp/big.lego" L
same "apply without enumerating" 1000000000000000 apply "$tmp/big.lego" L 1 0 0 0

# ----------------------------------------------------------- examples
has "examples/fig9.lego checks" 0 ": bijective" out check "$ex/fig9.lego"
for f in gemm nw; do
	has "examples/$f.lego: skipped is not passed" 3 "skipped" out check "$ex/$f.lego"
done
# Skipped is not passed: a symbolic non-bijective GenP exits 3, not 0, and
# the hint names every sym needed (GM of the grouping too), and works.
has "a symbolic non-bijection is skipped (3)" 3 "^H: skipped: .*(needs -D m=..)" \
	out check "$dir/half.lego"
has "the hint works: -D m=4 finds it" 1 "^H: NOT a bijection on 4" \
	out check "$dir/half.lego" -D m=4
has "the hint names GM" 3 "^P: skipped: .*(needs -D npm=.. -D npn=.. -D GM=..)" \
	out check "$dir/pid.lego"
has "the hint names what is left" 3 "^P: skipped: .*(needs -D GM=..)" \
	out check "$dir/pid.lego" -D npm=4 -D npn=6
has "the hint's values check it" 0 "^P: bijective on 24 elements" \
	out check "$dir/pid.lego" -D npm=4 -D npn=6 -D GM=2
cat "$dir/half.lego" "$dir/badgenp.lego" >"$tmp/both.lego"
has "a failure outranks a skip" 1 "^S: NOT a bijection" out check "$tmp/both.lego"
# Each alternative of a `tune layout` is a layout of the file: checked and
# proved as NAME=k, a bad one failing the file.
cat >"$tmp/choice.lego" <<'EOF'
genp shift[a, b](i, j) = i*b + j + 1 inverse (x) = ((x - 1) / b, (x - 1) % b)
tune layout T in {Row(3, 5), GenP([3, 5], shift), Col(3, 5)}
EOF
has "check: a choice's good alternative" 1 "^T=0: bijective on 15" out check "$tmp/choice.lego"
has "check: a choice's bad alternative" 1 "^T=1: NOT a bijection on 15" out check "$tmp/choice.lego"
has "check: every alternative" 1 "^T=2: bijective on 15" out check "$tmp/choice.lego"
has "check -D T=0: that alternative alone" 0 "^T=0: bijective" out check "$tmp/choice.lego" -D T=0
run check "$tmp/choice.lego" -D T=0
grep -q "^T=[12]" "$tmp/out" && bad "check -D T=0 checks only T=0" || ok
has "check --prove: the bad alternative refuted" 1 "^T=1: 0 <= apply < size: REFUTED" \
	out check --prove "$tmp/choice.lego"
has "check --help: exit statuses" 0 "^3 nothing failed" out check --help
has "lego --help: exit statuses" 0 "3 (lego" out --help
has "gemm with sizes" 0 "^P: bijective on 48 elements" out check "$ex/gemm.lego" \
	-D M=64 -D N=48 -D K=32 -D BM=8 -D BN=8 -D BK=8 -D GM=4 -D npm=8 -D npn=6
has "gemm P symbolic inv" 0 "" out inv "$ex/gemm.lego" P pid
[ "$(wc -l <"$tmp/out")" -eq 2 ] && ok || bad "gemm P inv: two lines"
same "examples/fig9.lego apply" 15 apply "$ex/fig9.lego" G 4 2

# ----------------------------------------------------------- check --prove
has "prove figure 9" 0 "^G: proved 4 of 4" out check --prove "$ex/fig9.lego" G
has "prove figure 9: inverse by construction" 0 \
	"^G: apply(inv(x)) == x: proved (construction): RegP x2, built-in GenP (inverse: exhaustive) x1, OrderBy x2, GroupBy (sizes agree) x1$" \
	out check --prove "$ex/fig9.lego" G
has "prove figure 9: simplification by certificate" 0 \
	"^G: simplified == semantics: proved (certificate)" out check --prove "$ex/fig9.lego" G
has "prove nw: antidiag of symbolic n by its certificate" 0 \
	"^W: apply(inv(x)) == x: proved (construction): antidiag by its certificate (every n) x1$" \
	out check --prove "$ex/nw.lego" W
# a template: each placeholder's emitted expression and its indices
has "prove a template's placeholders" 0 \
	"^$ex/cuda/transpose.cu.tpl: 32 placeholders: simplified == semantics proved on 32, indices in range proved on 10 of the 10 with layout references$" \
	out check --prove "$ex/cuda/transpose.lego" "$ex/cuda/transpose.cu.tpl"
printf '{%% lego %%}\nsym N\nindex t in [0, N + 1)\nlayout A = Row(N)\n{%% end %%}\nx = a[{{ A[t / 2] }}];\ny = a[{{ A[t] }}];\n' >"$tmp/oob.tpl"
has "prove a template: an index in range" 1 \
	"^$tmp/oob.tpl:6:7: {{ A\[t / 2\] }}: indices in range: proved" \
	out check --prove "$tmp/oob.tpl"
has "prove a template: an index out of range refuted" 1 \
	"^$tmp/oob.tpl:7:7: {{ A\[t\] }}: indices in range: REFUTED (solver): 0 <= t and t < N: refuted at N=1 t=1$" \
	out check --prove "$tmp/oob.tpl"
# a tile count N/BX carries BX | N (docs/language.md) even after 16 | N:
# src/simplify keeps the second fact pending, and Z3 must be told it
# (it refuted X / BX < N / BX at N=16 BX=3 when it was not)
printf '{%% lego %%}\nsym N, BX\nassume N %% 16 == 0\nindex X in [0, N)\nlayout A = OrderBy(RegP([N/BX, BX], [1, 2]))\n{%% end %%}\nx = a[{{ A[X / BX, X %% BX] }}];\n' >"$tmp/pending.tpl"
has "prove a template: a pending divisibility fact reaches Z3" 0 \
	"^$tmp/pending.tpl:7:7: {{ A\[X / BX, X % BX\] }}: indices in range: proved (solver)" \
	out check --prove "$tmp/pending.tpl"
# a slice [s, stop) needs 0 <= s <= stop <= dim: empty at the end (s = N) is
# in range, a start past the stop is not
printf '{%% lego %%}\nsym N\nindex s in [0, N + 1)\nlayout A = Row(N)\n{%% end %%}\nx = a[{{ A[s:] }}];\ny = a[{{ A[s + 1:] }}];\n' >"$tmp/slice.tpl"
has "prove a template: an empty slice at the end in range" 1 \
	"^$tmp/slice.tpl:6:7: {{ A\[s:\] }}: indices in range: proved" \
	out check --prove "$tmp/slice.tpl"
has "prove a template: a slice starting past its stop refuted" 1 \
	"^$tmp/slice.tpl:7:7: {{ A\[s + 1:\] }}: indices in range: REFUTED (solver): 0 <= s + 1 and s + 1 <= N: refuted at" \
	out check --prove "$tmp/slice.tpl"
# coefficients split between quotient and remainder (src/simplify/split.c):
# 65x = 64x + x, 63x + 63 = 64x + (63 - x), 4032 - 63x = 64(63 - x) + x,
# 33i + 66j = 32(i + 2j) + (i + 2j): the forms, and their certificates
printf '{%% lego %%}\nindex x in [0, 64)\nindex i in [0, 16)\nindex j in [0, 8)\nlayout S = GenP([64, 64], swizzle(5, 0, 6))\n{%% end %%}\na = {{ S[x, x] }};\nb = {{ (63 * x + 63) / 64 + (4032 - 63 * x) %% 64 }};\nc = {{ ((33 * i + 66 * j) >> 5) + ((33 * i + 66 * j) & 31) }};\n' >"$tmp/split.tpl"
has "split coefficients: the swizzle's diagonal" 0 "^a = (65 \* x) ^ (31 & x);$" \
	out gen --target c "$tmp/split.tpl"
has "split coefficients: a leftover of either sign" 0 "^b = 2 \* x;$" \
	out gen --target c "$tmp/split.tpl"
has "split coefficients: two terms, a shift and a mask" 0 "^c = 2 \* i + 4 \* j;$" \
	out gen --target c "$tmp/split.tpl"
has "split coefficients: proved by certificate" 0 \
	"^$tmp/split.tpl: 3 placeholders: simplified == semantics proved on 3," \
	out check --prove "$tmp/split.tpl"
has "prove gemm: symbolic tiles by certificate" 0 \
	"^A: simplified == semantics: proved (certificate)" out check --prove "$ex/gemm.lego" A
has "prove refutes a GenP that is no bijection" 1 \
	"^S: 0 <= apply < size: REFUTED (exhaustive): apply(i) >= size: 15 at " \
	out check --prove "$dir/badgenp.lego" S
printf 'sym N, M\nassume N < M && M < N\nlayout R = Row(N, M)\n' >"$tmp/incons.lego"
has "prove reports inconsistent assumptions" 1 "^R: assumptions: INCONSISTENT" \
	out check --prove "$tmp/incons.lego" R
has "prove: bad timeout" 2 "--timeout expects" err check --prove --timeout 0 "$ex/fig9.lego"
# Z3 is loaded at first use: a libz3 that cannot be loaded is said, and
# what enumeration can prove is still proved.
if LEGO_Z3_LIB=/nonexistent/libz3.so "$lego" check --prove "$ex/fig9.lego" G \
	>"$tmp/out" 2>"$tmp/err" && grep -q "^note: Z3 is not available" "$tmp/out" &&
	grep -q "^G: simplified == semantics: proved" "$tmp/out"; then ok; else
	bad "check --prove without a loadable libz3"; fi
if [ "$(ldd "$lego" 2>/dev/null | grep -c libz3)" -eq 0 ]; then ok; else
	bad "lego links libz3: it must load it at first use"; fi
has "--prove is an option of check only" 2 "unknown option" err table --prove "$ex/fig9.lego" G

# Sizes are proved positive before anything is derived (issue 12).
printf 'sym M\nlayout A = Row(M/0)\n' >"$tmp/div0.lego"
has "prove: a size dividing by zero is a located error" 1 \
	"div0.lego:2:12: error: Row: dim 1 (M / 0) divides by zero" \
	err check --prove "$tmp/div0.lego"
printf 'sym M\nlayout A = Row(M - 5)\n' >"$tmp/m5.lego"
has "prove: a size not proved positive names the assume" 1 \
	"m5.lego:2:12: error: .*assume M - 5 >= 1" err check --prove "$tmp/m5.lego"
# Sizes that multiply to the total but not per dim: a reshape, bijective.
printf 'layout L = OrderBy(Row(4, 6)).TileBy([2, 2], [3, 2])\n' >"$tmp/re.lego"
same "TileBy reshape (issue 12)" \
	"0 1 4 5 8 9 2 3 6 7 10 11 12 13 16 17 20 21 14 15 18 19 22 23" \
	table "$tmp/re.lego" L
same "TileBy reshape inverse" "0
0
1
0" inv "$tmp/re.lego" L 4
# The OrderBy grouped program ids where the sizes agree (GM >= npm), with
# -D: the tutorial's pid 13 of npm=4, npn=5, GM=8 is (13 % 4, 13 / 4).
printf 'sym npm, npn, GM\nlayout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), npn)).TileBy([npm, npn])\n' >"$tmp/pidany.lego"
same "grouped pids, GM >= npm, with -D" "1
3" inv "$tmp/pidany.lego" P 13 -D npm=4 -D npn=5 -D GM=8
has "grouped pids that cannot agree say what to write" 1 \
	"pidany.lego:2:.*assume npm % GM == 0.*docs/partial.md" err check "$tmp/pidany.lego"
# The thread id cannot be given a value (issue 12: it was ignored).
printf 'layout S = Row(32, 32)\n' >"$tmp/smem.lego"
has "analyze -D tid is an error" 2 "-D tid: tid is the thread id" err \
	analyze banks "$tmp/smem.lego" S tid 0 -D tid=3
has "analyze --sweep tid is an error" 2 "--sweep tid: tid is the thread id" \
	err analyze coalesce "$tmp/smem.lego" S tid k --sweep tid=0:4
has "analyze --sweep of another name" 0 "^total: wavefronts 64 (ideal 2) over 2 values" \
	out analyze banks "$tmp/smem.lego" S tid k --sweep k=0:2
# Size limits name the limit and where it is documented.
printf 'layout A = Row(65536, 65536)\n' >"$tmp/big.lego"
has "check limit names 2^31 and the docs" 1 "at most 2^31 = 2147483648 (docs/language.md" \
	err check "$tmp/big.lego"
has "table limit names 2^31 and the docs" 1 "at most 2^31 = 2147483648; docs/language.md" \
	err table "$tmp/big.lego" A
# --prove: --timeout bounds the whole run; progress on stderr; an unknown
# property says what was tried.
has "prove: the total limit is reported" 3 "unknown (none): not tried, the total limit of 1 ms was spent" \
	out check --prove --timeout 1 "$ex/gemm.lego"
has "prove: progress on stderr" 3 "^lego check --prove: P: layout 4 of 4, .* s elapsed" \
	err check --prove --timeout 1 "$ex/gemm.lego"
# A genp formula undefined at a constant index: a located error.
printf 'genp g[m, n](i, j) = i / 0 + j\n    inverse (x) = (x / n, x %% n)\nlayout A = GenP([2, 3], g)\n' >"$tmp/g0.lego"
has "apply of a genp dividing by zero is a located error" 1 \
	"g0.lego:1:22: error: genp 'g': division by zero (or overflow) in 0 / 0" \
	err apply "$tmp/g0.lego" A 0 0
has "table of a genp dividing by zero is a located error" 1 \
	"g0.lego:1:22: error: genp 'g' at (0, 0): division by zero in i / 0" \
	err table "$tmp/g0.lego" A
# ----------------------------------------------------- template braces
# \{{ and \}} are literal; A[i, j] of Row(4, 4) is 4 * i + j (the row-major
# definition); a bare }} is copied and warned about at its column.
printf 'layout A = Row(4, 4)\n' >"$tmp/a.lego"
printf '%s\n' 'int w[2][2] = \{{1, 2}, {3, 4\}};' 'f"\{{x\}}", {{ A[i, j] }}' \
	'bad { A[i, j] }}' >"$tmp/braces.tpl"
run gen "$tmp/a.lego" "$tmp/braces.tpl" --target c
want='int w[2][2] = {{1, 2}, {3, 4}};
f"{{x}}", j + 4 * i
bad { A[i, j] }}'
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ]; then ok; else
	bad "template escapes: want '$want'"; fi
if [ "$(cat "$tmp/err")" = "$tmp/braces.tpl:3:15: warning: '}}' closes no placeholder (a literal '}}' is written '\}}')" ]
then ok; else bad "a bare }} is warned about at 3:15"; fi

# An unclosed bracket is reported where it opens, in a template and in a
# .lego file alike (end of input, or the next declaration).
printf 'layout A = Row(2, 2, 2, 2)\n' >"$tmp/a4.lego"
printf 'x = {{ A[pid_m, k, :, : }}\n' >"$tmp/open.tpl"
has "template: unclosed [ at its column" 1 \
	"open.tpl:1:9: error: '\[' is not closed: expected '\]' before the end of input" \
	err gen "$tmp/a4.lego" "$tmp/open.tpl"
printf 'sym M\nlayout A = Row(M, 4\nlayout B = Row(4, 4)\n' >"$tmp/open.lego"
has ".lego: unclosed ( before the next declaration" 1 \
	"open.lego:2:15: error: '(' is not closed: expected ')' before the next declaration" \
	err check "$tmp/open.lego"
printf 'layout A = Row(4, 4).GroupBy([2, 2]\n' >"$tmp/open2.lego"
has ".lego: unclosed ( at the end of input" 1 \
	"open2.lego:1:29: error: '(' is not closed: expected ')' before the end of input" \
	err check "$tmp/open2.lego"
printf 'layout A = Row(4, 4]\n' >"$tmp/mis.lego"
has "a wrong closer is not an unclosed bracket" 1 \
	"mis.lego:1:20: error: expected ')' or ',', got ']'" err check "$tmp/mis.lego"

# ------------------------------------------------------- did you mean
has "command typo" 2 "unknown command 'chek' (did you mean 'check'?)" err chek x
has "no guess for a far name" 2 "unknown command 'zzzzz'\$" err zzzzz
has "option typo" 2 "unknown option '--prov' (did you mean '--prove'?)" err \
	check --prov "$ex/fig9.lego"
has "option typo of show" 2 "(did you mean '--tile'?)" err show "$ex/fig9.lego" G --tiel 3
has "option typo of gen" 2 "(did you mean '--target'?)" err gen --targt c x
has "layout NAME typo" 1 "no layout named 'g' (did you mean 'G'?)" err table "$ex/fig9.lego" g
printf 'sym BM\nlayout A = Row(BM, 4)\n' >"$tmp/dm.lego"
has "-D typo" 1 "no sym 'Bm' is declared (did you mean 'BM'?)" err check "$tmp/dm.lego" -D Bm=2
# lang: one line a case, the typo and the expected guess.
while IFS='|' read -r text want; do
	printf "$text\n" >"$tmp/typo.lego"
	has "typo: $want" 1 "(did you mean '$want'?)" err check "$tmp/typo.lego"
done <<'EOT'
sym M\nlet x = Mm + 1|M
let x = mni(1, 2)|min
layout L = Rwo(2, 3)|Row
layout A = Row(2, 2)\nlayout L = OrderBy(AA)|A
layout L = GenP([4, 4], mortn)|morton
genp foo[n](i) = i inverse (x) = (x)\nlayout L = GenP([4], fo)|foo
EOT

printf 'sym N\nlayout AB = Row(N, 4)\n' >"$tmp/ab.lego"
printf 'x = {{ AB[i, j] + Nn }}\n' >"$tmp/typo.tpl"
has "template: sym typo" 1 "typo.tpl:1:19: error: unknown name 'Nn' (did you mean 'N'?)" \
	err gen "$tmp/ab.lego" "$tmp/typo.tpl"
printf 'x = {{ Ab[i, j] }}\n' >"$tmp/typo.tpl"
has "template: layout typo" 1 "(did you mean 'AB'?)" err gen "$tmp/ab.lego" "$tmp/typo.tpl"
printf 'x = {{ AB.sise }}\n' >"$tmp/typo.tpl"
has "template: method typo" 1 "unknown layout method 'sise' (did you mean 'size'?)" \
	err gen "$tmp/ab.lego" "$tmp/typo.tpl"

# Sizes that cannot be proved to agree name the assume that makes them
# agree; adding it works.
printf 'sym N\nlayout L = Row(N).GroupBy([8, N/8])\n' >"$tmp/as.lego"
has "assume hint: divisibility" 1 "GroupBy: dim 2 (N / 8) is not proved positive: state it with \`assume N % 8 == 0\`" \
	err check "$tmp/as.lego"
printf 'sym N\nassume N %% 8 == 0\nlayout L = Row(N).GroupBy([8, N/8])\n' >"$tmp/as.lego"
has "assume hint followed" 0 "^L: bijective on 16" out check "$tmp/as.lego" -D N=16
printf 'sym N, M\nlayout L = Row(N).GroupBy([M])\n' >"$tmp/as.lego"
has "assume hint: two syms" 1 "(add \`assume M == N\` if it holds)" err check "$tmp/as.lego"
printf 'sym N, M\nassume M == N\nlayout L = Row(N).GroupBy([M])\n' >"$tmp/as.lego"
has "assume hint followed (2)" 0 "^L: bijective on 5" out check "$tmp/as.lego" -D N=5 -D M=5
printf 'layout L = Row(4, 6).TileBy([3, 3], [2, 2])\n' >"$tmp/tb.lego"
has "a TileBy's error says TileBy" 1 "error: TileBy: the tiled layout and the tile sizes: the sizes 24 and 36 differ" \
	err check "$tmp/tb.lego"

# ------------------------------------------------------- show: slices
# Row(N, N, N): slice k holds N^2 k .. N^2 (k + 1) - 1 (row-major
# definition), row r of it N^2 k + N r .. N^2 k + N r + N - 1.
printf 'sym N\nlayout C = Row(N, N, N)\n' >"$tmp/c3.lego"
run show "$tmp/c3.lego" C -D N=4 --ascii --slice 3
if [ "$rc" -eq 0 ] && [ "$(head -1 "$tmp/out")" = "C[3, :, :]" ] &&
	[ "$(sed 1d "$tmp/out" | grep -o '[0-9][0-9]*' | tr '\n' ' ')" = "$(seq 48 63 | tr '\n' ' ')" ] &&
	[ "$(grep -c '^| [0-9]' "$tmp/out")" -eq 4 ]; then ok; else
	bad "show --slice 3 of Row(4, 4, 4): 48 .. 63 in 4 rows"; fi
run show "$tmp/c3.lego" C -D N=8 --ascii
if [ "$rc" -eq 0 ] && [ "$(grep -c '^C\[[0-7], :, :\]$' "$tmp/out")" -eq 8 ] &&
	grep -q "^| *64 *65 *66 *67 *68 *69 *70 *71 |$" "$tmp/out"; then ok; else
	bad "show of Row(8, 8, 8), 64 columns as one grid: 8 slices captioned C[k, :, :]"; fi
has "show of Row(4, 4, 4): one grid of 16 columns" 0 "^|  0    1 .*   15 |$" \
	out show "$tmp/c3.lego" C -D N=4 --ascii
run show "$tmp/c3.lego" C -D N=16 --svg
w=$(sed -n '1s/.* width="\([0-9]*\)".*/\1/p' "$tmp/out")
if [ "$rc" -eq 0 ] && [ "${w:-99999}" -le 4000 ] &&
	[ "$(grep -c '<g transform' "$tmp/out")" -eq 16 ]; then ok; else
	bad "show --svg of Row(16, 16, 16): 16 slices, at most 4000 px wide (got $w)"; fi
has "show --rows 1: one grid" 0 "^|  0    1 .*   15 |$" \
	out show "$tmp/c3.lego" C -D N=4 --ascii --rows 1 --tile none
has "show --slice out of range" 1 "slice 4: the view has 4 slices (0..3)" \
	err show "$tmp/c3.lego" C -D N=4 --slice 4

# ------------------------------------------------- analyze: access width
# A 32 x 64 fp16 tile, row-major (128-byte rows).  Hand counts:
# - thread t reads 8 halfs (16 bytes) at row t / 8, column 8 * (t % 8): the
#   warp reads bytes 0 .. 511 once: 512 bytes, 16 sectors, 4 lines; shared
#   memory in 4 phases of 8 threads (128 bytes each), no conflict.
# - thread t reads 16 bytes at row t, column 0: a phase's 8 threads are 128
#   bytes apart, all in banks 0-3: 8 distinct words in bank 0, 8 wavefronts
#   a phase, 32 in all.
printf 'layout S = Row(32, 64)\nlayout V = Row(32, 8)\n' >"$tmp/vec.lego"
vec="--elem-bytes 2 --access-bytes 16"
run analyze coalesce "$tmp/vec.lego" S tid/8 'tid%8*8' $vec
if [ "$rc" -eq 0 ] && grep -q "^sectors: 16 (ideal 16)$" "$tmp/out" &&
	grep -q "^lines: 4$" "$tmp/out" && grep -q "^bytes: 512$" "$tmp/out" &&
	grep -q "2-byte elements in 16-byte accesses" "$tmp/out"; then ok; else
	bad "16-byte accesses, contiguous: 16 sectors, 4 lines, 512 bytes"; fi
has "16-byte accesses, contiguous: 4 wavefronts" 0 "^wavefronts: 4 (ideal 4)$" out \
	analyze banks "$tmp/vec.lego" S tid/8 'tid%8*8' $vec
has "16-byte accesses down a column: 32 wavefronts" 0 "^wavefronts: 32 (ideal 4)$" out \
	analyze banks "$tmp/vec.lego" S tid 0 $vec
has "the conflict is 8-way in bank 0" 0 "^conflicts: 8-way in bank 0 of phase 0: threads 0 1 2 3 4 5 6 7$" out \
	analyze banks "$tmp/vec.lego" S tid 0 $vec
# The same accesses through a second, chunk-level layout (V: 16-byte
# elements): the model without vectors must agree.
for k in banks coalesce; do
	for idx in "tid/8 tid%8*8|tid/8 tid%8" "tid 0|tid 0" "tid%4 tid/4*8|tid%4 tid/4"; do
		run analyze $k "$tmp/vec.lego" S ${idx%|*} $vec
		sed 1d "$tmp/out" >"$tmp/vec1"
		run analyze $k "$tmp/vec.lego" V ${idx#*|} --elem-bytes 16
		if sed 1d "$tmp/out" | cmp -s - "$tmp/vec1"; then ok; else
			bad "analyze $k: S[${idx%|*}] in 16-byte accesses != V[${idx#*|}]"; fi
	done
done
has "a misaligned vector access is an error" 1 "thread 0: byte address 2 is not aligned to its 16-byte access" \
	err analyze banks "$tmp/vec.lego" S tid 1 $vec
has "access narrower than the element" 1 "expected 1, 2, 4, 8 or 16, a multiple of the element size 4" \
	err analyze banks "$tmp/vec.lego" S tid 0 --access-bytes 2

# ------------------------------------------- -D in effect for the whole parse
# Row(M - 5) is refused unless M is known to exceed 5: every command that
# reads a spec must parse it with the -D values (analyze once parsed it
# without them first).  Row(M - 5) with M = 40 is the identity on 35.
printf 'sym M\nlayout A = Row(M - 5)\n' >"$tmp/dm.lego"
printf 'x = {{ A[2] }};\n' >"$tmp/dm.tpl"
printf '{%% lego %%}\nsym M\nlayout A = Row(M - 5)\n{%% end %%}\nx = {{ A[2] }};\n' \
	>"$tmp/dm_inline.tpl"
printf 'sym M\ntune B in {1, 2}\nlayout A = Row(M - 5, B)\n' >"$tmp/dm_tune.lego"
same "-D: table" "$(seq -s ' ' 0 34)" table "$tmp/dm.lego" A -D M=40
same "-D: apply" 34 apply "$tmp/dm.lego" A 34 -D M=40
same "-D: inv" 7 inv "$tmp/dm.lego" A 7 -D M=40
same "-D: mask" 1 mask "$tmp/dm.lego" A 7 -D M=40
has "-D: exprs" 0 "^i_flat = i0;" out exprs "$tmp/dm.lego" A -D M=40
has "-D: check" 0 "bijective on 35 elements" out check "$tmp/dm.lego" A -D M=40
has "-D: accessor" 0 "LEGO_ACCESSOR_A_H" out accessor "$tmp/dm.lego" A -D M=40
has "-D: mlir" 0 "@A_apply" out mlir "$tmp/dm.lego" A -D M=40
has "-D: show" 0 " 34 " out show "$tmp/dm.lego" A -D M=40
has "-D: analyze" 0 "^conflicts: none" out analyze banks "$tmp/dm.lego" A tid -D M=40
has "-D: analyze, expression names too" 0 "^conflicts: none" out \
	analyze banks "$tmp/dm.lego" A "tid + r" -D M=40 -D r=3
same "-D: gen" "x = 2;" gen --target c "$tmp/dm.lego" "$tmp/dm.tpl" -D M=40
same "-D: gen, inline spec" "x = 2;" gen --target c "$tmp/dm_inline.tpl" -D M=40
has "-D: tune" 0 "^space: 2 configurations" out \
	tune "$tmp/dm_tune.lego" "$tmp/dm.tpl" --space -D M=40
has "-D: without it, refused" 1 "dm.lego:2:12: error: Row: dim 1 (M - 5) is not proved positive" \
	err analyze banks "$tmp/dm.lego" A tid

# Errors about what the file declares name the declaration.
printf 'sym M\nlayout A = Row(M, 4)\nlayout C = Row(1 << 20, 1 << 20)\n' \
	>"$tmp/where.lego"
has "table of symbolic sizes: located" 1 "where.lego:2:8: error: layout A has symbolic sizes" \
	err table "$tmp/where.lego" A
has "table too large: located" 1 "where.lego:3:8: error: layout C has 1099511627776 elements" \
	err table "$tmp/where.lego" C
has "show of symbolic sizes: located" 1 "where.lego:2:8: error: layout A has symbolic sizes" \
	err show "$tmp/where.lego" A

# The doc-test refuses a command that names a build folder (it would pass
# in the plain run only, whose build that is): located, not run.  A page
# with `lego` (BUILD first on the PATH) passes; build/lego, ./build-san/...
# and a quoted "../build" fail at their lines; rebuild/ and --build do not.
if command -v python3 >/dev/null 2>&1; then
	printf '# p\n\n    $ lego --help | head -n 1\n    Usage: lego COMMAND [ARGS]...\n\n    $ build/lego --help | head -n 1\n    Usage: lego COMMAND [ARGS]...\n\n    $ ./build-san/lego x\n    $ cd e && "../build"/lego x\n    $ echo rebuild/x --build\n    rebuild/x --build\n' >"$tmp/page.md"
	python3 "$dir/../docs/doctest.py" "$build" "$tmp/page.md" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(sed -n 's|.*/page.md:\([0-9]*\): FAIL .*|\1|p' "$tmp/out" | tr '\n' ' ')
	if [ "$rc" -eq 1 ] && [ "$got" = "6 9 10 " ] &&
	   grep -q "names the build folder 'build-san'" "$tmp/out" &&
	   grep -q "^docs: 2 passed, 3 failed$" "$tmp/out"; then
		ok
	else
		bad "doc-test: build folders refused at lines 6 9 10, got '$got' (exit $rc)"
	fi
fi

# ---------------------------------------------------- templates in range
# Every template of examples/ and bench/ proved with its spec
# (tests/cli/templates.txt): an index refuted is an access out of range
# for values the spec admits (bench/lud's block starts were, declared over
# [0, n)); a template not listed fails, so every new one is proved.
root=$dir/../..
listed=$(sed -n 's/^[a-z]* \([^ ]*\) .*/\1/p' "$dir/templates.txt" | sort)
found=$(cd "$root" && find examples bench -name '*.tpl' | sort)
if [ "$listed" = "$found" ]; then ok; else
	: >"$tmp/out"
	: >"$tmp/err"
	bad "templates.txt lists the templates of examples/ and bench/: $(echo "$found" | grep -vxF "$listed" | tr '\n' ' ')"
fi
grep '^[a-z]' "$dir/templates.txt" >"$tmp/templates"
while read -r status tpl spec; do
	case $spec in
	-) set -- "$root/$tpl" ;;
	choice:*)
		v=${spec#choice:}
		if ! sh "$root/bench/tune/choice.sh" "$root" "$v" "$tmp/choice"; then
			bad "prove $tpl: choice.sh $v failed"
			continue
		fi
		set -- "$tmp/choice/matmul_choice_$v.lego" \
			"$tmp/choice/matmul_choice_$v.py.tpl" ;;
	*) set -- "$root/$spec" "$root/$tpl" ;;
	esac
	run check --prove "$@"
	if grep -q ': error' "$tmp/out" "$tmp/err" ||
	   ! grep -q ' placeholders: ' "$tmp/out"; then
		bad "prove $tpl: not checked (exit $rc)"
	elif grep -q ': REFUTED' "$tmp/out"; then
		if [ "$status" = refuted ]; then ok; else
			grep ': REFUTED' "$tmp/out" | head -3 >"$tmp/err"
			: >"$tmp/out"
			bad "prove $tpl: an index refuted"
		fi
	elif [ "$status" = unrefuted ]; then ok
	else bad "prove $tpl: marked refuted, no longer refuted: mark it unrefuted"
	fi
done <"$tmp/templates"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

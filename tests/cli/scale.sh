#!/bin/sh
# scale.sh BUILD - inputs that used to hang, blow up or clobber (issue 12):
# long chains, shared subexpressions, outputs that are links, FIFOs,
# devices or inputs, and write errors.  Each run is under `timeout` so that
# a regression fails here instead of hanging the suite.  Last line:
# "scale: N passed, N failed".
build=${1:-build}
lego=$(cd "$(dirname "$build/lego")" && pwd)/lego
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL $1"
	[ -s "$tmp/err" ] && sed 's/^/  stderr: /' "$tmp/err" | head -3
}

# run SECONDS ARGS...: lego under a time limit; status in $rc.
run() {
	limit=$1
	shift
	timeout "$limit" "$lego" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# ------------------------------------------------------- chains (item 7)
# Row(2,2) as an order is the identity on a 2x2 block, so any number of
# links leaves Row(4)'s split into (i, j): flat = 2*i + j, inverse k/2, k%2.
chain() {
	printf 'layout A = Row(4)'
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '.OrderBy(Row(2,2))'
		i=$((i + 1))
	done
	echo
}
chain 63 >"$tmp/chain.lego"
run 10 apply "$tmp/chain.lego" A i j
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "j + 2 * i" ] && ok ||
	bad "63-link chain: apply is 2*i + j (exit $rc, $(wc -c <"$tmp/out") bytes)"
run 10 inv "$tmp/chain.lego" A k
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'k / 2\nk %% 2')" ] && ok ||
	bad "63-link chain: inv is k/2, k%2 (exit $rc)"
for cmd in accessor exprs check table; do
	case $cmd in table|check) set -- "$tmp/chain.lego" ;; *) set -- "$tmp/chain.lego" A ;; esac
	[ "$cmd" = table ] && set -- "$@" A
	run 10 "$cmd" "$@"
	[ "$rc" -eq 0 ] && [ "$(wc -c <"$tmp/out")" -lt 4000 ] && ok ||
		bad "63-link chain: $cmd is small and quick (exit $rc)"
done

# Three nested anti-diagonals: the inverse is a DAG whose tree is
# hundreds of MB.  inv shares it through temporaries; evaluated by Python
# for every k it must invert the table (an independent enumeration).
ad='GenP([10, 10], antidiag)'
echo "layout A = OrderBy($ad).OrderBy($ad).OrderBy($ad)" >"$tmp/ad.lego"
run 10 inv "$tmp/ad.lego" A k --lang python
cp "$tmp/out" "$tmp/inv.py"
size=$(wc -c <"$tmp/inv.py")
[ "$rc" -eq 0 ] && [ "$size" -lt 100000 ] && ok ||
	bad "nested anti-diagonals: inv --lang python is small (exit $rc, $size bytes)"
run 10 table "$tmp/ad.lego" A
if command -v python3 >/dev/null 2>&1 && [ "$rc" -eq 0 ]; then
	python3 - "$tmp/out" "$tmp/inv.py" <<'PY' && ok || bad "nested anti-diagonals: inv inverts the table"
import math, sys
table = [int(v) for v in open(sys.argv[1]).read().split()]
src = open(sys.argv[2]).read()
for pos, flat in enumerate(table):
    env = {"math": math, "k": flat}
    exec(src, env)
    assert (env["i0"], env["i1"]) == divmod(pos, 10), (pos, flat)
PY
fi

# A chain of a user GenP whose inverse has floor modulos of possibly
# negative values: C's corrected `%` writes its operand twice, so the
# printers name it once (a temporary) instead of doubling per link.
g='genp g[a, b](i, j) = ((i + j) % a) * b + j inverse (x) = ((x / b + a - x % b) % a, x % b)'
{
	echo "$g"
	printf 'layout A = OrderBy(GenP([6, 6], g))'
	i=1
	while [ "$i" -lt 63 ]; do printf '.OrderBy(GenP([6, 6], g))'; i=$((i + 1)); done
	echo
} >"$tmp/ug.lego"
for args in "exprs $tmp/ug.lego A" "inv $tmp/ug.lego A k" \
	"accessor $tmp/ug.lego A" "exprs $tmp/ug.lego A --lang python"; do
	# shellcheck disable=SC2086
	run 10 $args
	[ "$rc" -eq 0 ] && [ "$(wc -c <"$tmp/out")" -lt 20000 ] && ok ||
		bad "63 user GenPs: $args is small and quick (exit $rc)"
done
# The C accessor, compiled, against `lego table` (as tests/gen_c does).
here=$(dirname "$0")
if command -v cc >/dev/null 2>&1; then
	run 10 accessor "$tmp/ug.lego" A --target c -o "$tmp/acc_A.h"
	"$lego" table "$tmp/ug.lego" A >"$tmp/want" &&
		cc -std=c11 -O1 -I"$tmp" -DHDR='"acc_A.h"' -DAT=A_at -DINV=A_inv \
			-DD0=6 -DD1=6 "$here/../gen_c/table_check.c" -o "$tmp/check" &&
		"$tmp/check" >"$tmp/got" && cmp -s "$tmp/got" "$tmp/want" && ok ||
		bad "63 user GenPs: the compiled C accessor agrees with the table"
fi

# --------------------------------------------- many names (item 8)
# 80,000 syms took 131 s with a linked list; a hash table parses them in
# a fraction of a second (the figure is in `make bench`).
awk 'BEGIN { for (i = 0; i < 80000; i++) print "sym s" i;
	print "layout A = Row(s79999, 2)" }' >"$tmp/many.lego"
run 20 table "$tmp/many.lego" A -D s79999=2
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "0 1 2 3" ] && ok ||
	bad "80,000 syms: parsed and the last one found (exit $rc)"

# ------------------------------------------------ memory (item 9)
# Inputs stop at 4 MiB: /dev/zero is refused at once, in little memory.
for args in "check /dev/zero" "table /dev/zero A" "gen $tmp/s.lego /dev/zero"; do
	# shellcheck disable=SC2086
	run 10 $args
	[ "$rc" -eq 1 ] && grep -q "error: input larger than 4194304 bytes" "$tmp/err" &&
		ok || bad "$args: refused past the input limit (exit $rc)"
done
# AddressSanitizer reserves terabytes of address space: no cap there.
if grep -q __asan_init "$lego"; then cap=unlimited; else cap=32768; fi
# Tables stream: 2^22 elements under a 32 MB address-space cap (the old
# array alone took 32 MB).  Value i of Row(2048, 2048) is i.
echo 'layout B = Row(2048, 2048)' >"$tmp/big.lego"
awk 'BEGIN { printf "0"; for (i = 1; i < 4194304; i++) printf " %d", i; print "" }' \
	>"$tmp/want"
(ulimit -v $cap && timeout 60 "$lego" table "$tmp/big.lego" B) 2>"$tmp/err" |
	cmp -s - "$tmp/want" && ok ||
	bad "table of 2^22 elements streams in bounded memory"
# A padded check keeps a bit per real element: 2^24 padded elements
# (a word each was 128 MB) under the same cap.
echo 'layout P = OrderBy(Row(4000, 4000)).TileBy([cdiv(4000, 48), cdiv(4000, 48)], [48, 48])' >"$tmp/pad.lego"
(ulimit -v $cap && timeout 60 "$lego" check "$tmp/pad.lego") >"$tmp/out" 2>"$tmp/err"
grep -q "P: bijective on 16000000 elements" "$tmp/out" && ok ||
	bad "padded check of 2^24 elements in bounded memory"

# ------------------------------------------------------ -o (item 10)
printf 'layout A = Row(4, 4)\nindex i in [0, 4)\nindex j in [0, 4)\n' >"$tmp/s.lego"
printf 'x = {{ A[i, j] }}\n' >"$tmp/t.tpl"
want='x = j + 4 * i'
ln -s /proc/self/fd/1 "$tmp/fd1"
out=$(timeout 10 "$lego" gen "$tmp/s.lego" "$tmp/t.tpl" --target c -o "$tmp/fd1" 2>"$tmp/err")
[ "$out" = "$want" ] && [ -L "$tmp/fd1" ] && ok ||
	bad "-o through a link to stdout writes stdout and keeps the link"
echo old >"$tmp/real"
chmod 600 "$tmp/real"
ln -s real "$tmp/lnk"
run 10 gen "$tmp/s.lego" "$tmp/t.tpl" --target c -o "$tmp/lnk"
[ "$rc" -eq 0 ] && [ -L "$tmp/lnk" ] && [ "$(cat "$tmp/real")" = "$want" ] &&
	[ "$(ls -l "$tmp/real" | cut -c1-10)" = "-rw-------" ] && ok ||
	bad "-o onto a link to a file replaces the file, keeps link and mode"
if mkfifo "$tmp/fifo" 2>/dev/null; then
	timeout 10 cat "$tmp/fifo" >"$tmp/fromfifo" &
	run 10 gen "$tmp/s.lego" "$tmp/t.tpl" --target c -o "$tmp/fifo"
	wait
	[ "$rc" -eq 0 ] && [ -p "$tmp/fifo" ] &&
		[ "$(cat "$tmp/fromfifo")" = "$want" ] && ok ||
		bad "-o onto a FIFO writes into it and keeps it"
fi
cp "$tmp/t.tpl" "$tmp/t.keep"
ln "$tmp/t.tpl" "$tmp/hard"
for o in "$tmp/t.tpl" "$tmp/s.lego" "$tmp/hard"; do
	run 10 gen "$tmp/s.lego" "$tmp/t.tpl" -o "$o"
	[ "$rc" -eq 1 ] && grep -q "error: .*is the input" "$tmp/err" &&
		cmp -s "$tmp/t.tpl" "$tmp/t.keep" && ok ||
		bad "-o $(basename "$o"), an input: refused, input kept (exit $rc)"
done
run 10 accessor "$tmp/s.lego" A -o "$tmp/s.lego"
[ "$rc" -eq 1 ] && grep -q "A" "$tmp/s.lego" && ok ||
	bad "accessor -o SPEC is refused"

# ------------------------------------------- write errors (item 11)
if [ -w /dev/full ]; then
	f=$tmp/s.lego
	for args in "table $f A" "apply $f A 1 2" "mask $f A 1 2" "inv $f A 5" \
		"check $f" "exprs $f A" "show $f A" "mlir $f A" \
		"accessor $f A" "gen $f $tmp/t.tpl" "analyze banks $f A 0 tid --threads 4" \
		"--help" "table --help"; do
		# shellcheck disable=SC2086
		timeout 10 "$lego" $args >/dev/full 2>"$tmp/err"
		rc=$?
		[ "$rc" -ne 0 ] && [ "$rc" -lt 124 ] &&
			grep -q "cannot write" "$tmp/err" && ok ||
			bad "lego $args >/dev/full fails with a message (exit $rc)"
	done
	run 10 gen "$f" "$tmp/t.tpl" -o /dev/full
	[ "$rc" -eq 1 ] && [ -c /dev/full ] && ok ||
		bad "gen -o /dev/full fails and keeps the device"
fi

echo "scale: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

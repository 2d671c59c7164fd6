#!/bin/sh
# Tests of the C, CUDA and OpenCL code liblego generates, by running it:
#   - golden files: the examples of examples/{c,cuda,opencl} regenerate
#     unchanged;
#   - accessor headers (C) of rank-2 layouts compiled and run: NAME_at over
#     every index equals `lego table`, NAME_inv inverts it;
#   - examples/c/nw.c: Needleman-Wunsch through the anti-diagonal accessor
#     against a plain array;
#   - examples/opencl: matmul, transpose and anti-diagonal kernels from
#     `lego gen --target opencl`, run on the OpenCL CPU driver (PoCL;
#     scripts/opencl.sh installs it), against plain computations;
#   - examples/opencl/matmul_odd: a matrix multiply whose tiles do not
#     divide the sizes (padded TileBy, loads and stores guarded by masks),
#     run on PoCL for two odd shapes against a triple loop;
#   - generated code is total (total.py): guarded partial operations never
#     trap, in C under UBSan and in Triton run as plain Python;
#   - examples/cuda: compiled with nvcc -arch=sm_90 (skipped when nvcc is
#     absent; nothing runs them here).
# Usage: sh tests/gen_c/run.sh BUILD_DIR.  Last line:
# "genc: N passed, N failed".
BUILD=${1:-build}
LEGO=$BUILD/lego
HERE=$(dirname "$0")
EX=examples
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CC=${CC:-cc}
CFLAGS="-std=c11 -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

# golden GOLDEN COMMAND...: the command's -o output equals GOLDEN.
golden() {
	g=$1
	shift
	if "$@" -o "$TMP/golden" && cmp -s "$TMP/golden" "$g"; then
		ok "golden $g"
	else
		ko "golden $g (regenerate and diff to see the change)"
	fi
}

OCL="-D M=32 -D N=24 -D K=16 -D BM=8 -D BK=4 -D n=16"
ODD="-D M=37 -D N=53 -D K=29 -D BM=8 -D BN=16 -D BK=4"
TR="-D M=4096 -D N=4096 -D TILE=32"
golden $EX/c/W.h "$LEGO" accessor $EX/nw.lego W --target c -D n=17
golden $EX/cuda/W.cuh "$LEGO" accessor $EX/nw.lego W --target cuda -D n=17
golden $EX/cuda/transpose.cu "$LEGO" gen $EX/cuda/transpose.lego \
	$EX/cuda/transpose.cu.tpl --target cuda $TR
golden $EX/opencl/W.h "$LEGO" accessor $EX/opencl/kernels.lego W \
	--target opencl $OCL
golden $EX/opencl/kernels.cl "$LEGO" gen $EX/opencl/kernels.lego \
	$EX/opencl/kernels.cl.tpl --target opencl $OCL
golden $EX/opencl/matmul_odd.cl "$LEGO" gen $EX/opencl/matmul_odd.lego \
	$EX/opencl/matmul_odd.cl.tpl --target opencl $ODD

# table SPEC NAME ROWS COLS -D..: the C accessor against `lego table`.
table() {
	spec=$1 name=$2 rows=$3 cols=$4
	shift 4
	h=$TMP/acc_$name.h
	if "$LEGO" accessor "$spec" "$name" --target c "$@" -o "$h" &&
	   "$LEGO" table "$spec" "$name" "$@" > "$TMP/want" &&
	   $CC $CFLAGS -I"$TMP" -DHDR="\"acc_$name.h\"" -DAT=${name}_at \
		-DINV=${name}_inv -DD0=$rows -DD1=$cols \
		"$HERE/table_check.c" -o "$TMP/check" &&
	   "$TMP/check" > "$TMP/got" && cmp -s "$TMP/got" "$TMP/want"; then
		ok "accessor $spec $name $*"
	else
		ko "accessor $spec $name $*"
	fi
}
for n in 1 2 5 17 64; do
	table $EX/nw.lego W $n $n -D n=$n
done
table $EX/fig9.lego G 6 6
table $EX/opencl/kernels.lego Out 24 32 $OCL
table $EX/opencl/kernels.lego B 16 24 $OCL
table $EX/cuda/transpose.lego Swz 32 32 -D M=32 -D N=32 -D TILE=32
table $EX/cuda/transpose.lego Out 32 64 -D M=64 -D N=32 -D TILE=32

# padded SPEC NAME D0 D1 D2 D3 REAL -D..: a padded layout's accessor (with
# NAME_mask) against `lego table`, and its inverse on the real tensor.
padded() {
	spec=$1 name=$2
	dims="-DD0=$3 -DD1=$4 -DD2=$5 -DD3=$6 -DREAL=$7"
	shift 7
	h=$TMP/pad_$name.h
	if "$LEGO" accessor "$spec" "$name" --target c "$@" -o "$h" &&
	   "$LEGO" table "$spec" "$name" "$@" > "$TMP/want" &&
	   $CC $CFLAGS -I"$TMP" -DHDR="\"pad_$name.h\"" -DAT=${name}_at \
		-DINV=${name}_inv -DMASK=${name}_mask $dims \
		"$HERE/padded_check.c" -o "$TMP/check" &&
	   "$TMP/check" > "$TMP/got" && cmp -s "$TMP/got" "$TMP/want"; then
		ok "padded accessor $spec $name $*"
	else
		ko "padded accessor $spec $name $*"
	fi
}
padded $EX/opencl/matmul_odd.lego A 5 8 8 4 1073 $ODD
padded $EX/opencl/matmul_odd.lego B 8 4 4 16 1537 $ODD

# A symbolic-size accessor compiles as C and as CUDA's C++ wrapper.
if "$LEGO" accessor $EX/nw.lego W --target c -o "$TMP/Ws.h" &&
   printf '#include "Ws.h"\nlong long f(void);\nlong long f(void) { long long i, j; W_inv(40, 9, &i, &j); return W_at(i, j, 9); }\n' \
	> "$TMP/sym.c" && $CC $CFLAGS -c -I"$TMP" "$TMP/sym.c" -o "$TMP/sym.o"; then
	ok "symbolic-size C accessor compiles"
else
	ko "symbolic-size C accessor compiles"
fi

for n in 17 64; do
	# (a copy: nw.c's directory holds the n=17 W.h)
	if "$LEGO" accessor $EX/nw.lego W --target c -D n=$n -o "$TMP/W.h" &&
	   cp $EX/c/nw.c "$TMP/nw.c" &&
	   $CC $CFLAGS -DNW=$n -I"$TMP" "$TMP/nw.c" -o "$TMP/nw" &&
	   "$TMP/nw"; then
		ok "examples/c/nw.c n=$n"
	else
		ko "examples/c/nw.c n=$n"
	fi
done

# OpenCL on the CPU.
if [ -f /usr/include/CL/cl.h ]; then
	K=$TMP/ocl
	mkdir -p "$K"
	if "$LEGO" gen $EX/opencl/kernels.lego $EX/opencl/kernels.cl.tpl \
		--target opencl $OCL -o "$K/kernels.cl" &&
	   "$LEGO" accessor $EX/opencl/kernels.lego W --target opencl $OCL \
		-o "$K/W.h" &&
	   for x in A C Out W; do
		"$LEGO" table $EX/opencl/kernels.lego $x $OCL > "$K/$x.txt" || exit 1
	   done &&
	   $CC $CFLAGS -DM=32 -DN=24 -DK=16 -DBM=8 -DBK=4 -DNW=16 \
		$EX/opencl/host.c -lOpenCL -o "$K/host" &&
	   "$K/host" "$K" "$K"; then
		ok "examples/opencl on $(ls /etc/OpenCL/vendors 2>/dev/null | tr '\n' ' ')"
	else
		ko "examples/opencl (scripts/opencl.sh installs PoCL)"
	fi
	# odd M N K BM BN BK: matmul_odd generated and run for these sizes.
	odd() {
		D="-D M=$1 -D N=$2 -D K=$3 -D BM=$4 -D BN=$5 -D BK=$6"
		if "$LEGO" gen $EX/opencl/matmul_odd.lego \
			$EX/opencl/matmul_odd.cl.tpl --target opencl $D \
			-o "$K/matmul_odd.cl" &&
		   $CC $CFLAGS $(echo "$D" | sed 's/-D /-D/g') \
			$EX/opencl/matmul_odd.c -lOpenCL -lm -o "$K/odd" &&
		   "$K/odd" "$K"; then
			ok "examples/opencl/matmul_odd $D"
		else
			ko "examples/opencl/matmul_odd $D"
		fi
	}
	odd 37 53 29 8 16 4
	odd 19 7 13 4 8 8
else
	ko "examples/opencl: no OpenCL headers (run scripts/opencl.sh)"
fi

# Sizes named like the accessor's own names or a keyword of the target are
# refused (they gave headers that do not compile), at the sym's declaration:
# TARGET SYMS LAYOUT WHY COL.
acc_clash() {
	printf 'sym %s\nlayout A = %s\n' "$2" "$3" > "$TMP/clash.lego"
	if "$LEGO" accessor "$TMP/clash.lego" A --target "$1" \
		> "$TMP/clash.h" 2> "$TMP/clash.err"; then
		ko "accessor $1 $2: accepted"
	elif grep -qF "$TMP/clash.lego:1:$5: error: accessor of 'A': $4" \
		"$TMP/clash.err"; then
		ok "accessor $1 '$2' refused"
	else
		ko "accessor $1 $2: $(cat "$TMP/clash.err")"
	fi
}
acc_clash c "i0, i1" "Row(i0, i1)" "the size 'i1' is an output parameter" 9
acc_clash c "n, t0" "Row(n, t0)" "the size 't0' is a temporary" 8
acc_clash cuda "base, n" "Row(n, base)" "the size 'base' is a name of the NAME_arr" 5
acc_clash cuda "row, n" "Row(n, row)" "the size 'row' is a name of the NAME_arr" 5
acc_clash opencl "n, half" "Row(n, half)" "the size 'half' is a keyword or type of OpenCL C" 8
acc_clash c "n, A_at" "Row(n, A_at)" "the size 'A_at' is a function of the accessor" 8

# Generated code is total: random templates with guarded divisions, modulos,
# shifts and isqrt, run over the whole index range (C under UBSan, Triton in
# plain Python) against an exact evaluation (tests/gen_c/total.py).
for target in c triton; do
	if python3 "$HERE/total.py" "$LEGO" $target "$TMP" > "$TMP/total.log" 2>&1
	then
		ok "$(cat "$TMP/total.log")"
	else
		ko "generated $target is total: $(cat "$TMP/total.log")"
	fi
done

# Temporaries where they are in scope, for every statement form (the
# bodies of brace-less if/else/for/while/do and of a case go in braces
# with their temporaries): the generated C compiles and computes what
# plain arithmetic does; as CUDA it compiles (nvcc -c); Triton's runs as
# plain Python.  Where no place is right, a located error.
if "$LEGO" gen --target c "$HERE/forms.c.tpl" -D K=6 -o "$TMP/forms.c" &&
   $CC -std=c11 -Wall -Wextra -Werror "$TMP/forms.c" -o "$TMP/forms" &&
   [ "$("$TMP/forms")" = ok ]; then
	ok "temporaries in scope in every statement form (C, run)"
else
	ko "temporaries in scope in every statement form (C, run)"
fi
if ! command -v nvcc >/dev/null 2>&1; then
	echo "SKIP statement forms as CUDA: nvcc not found"
elif "$LEGO" gen --target cuda "$HERE/forms.c.tpl" -D K=6 -o "$TMP/forms.cu" &&
   nvcc -c "$TMP/forms.cu" -o "$TMP/forms.o" > "$TMP/nvcc.log" 2>&1; then
	ok "temporaries in scope in every statement form (nvcc -c)"
else
	cat "$TMP/nvcc.log"
	ko "temporaries in scope in every statement form (nvcc -c)"
fi
if "$LEGO" gen --target triton "$HERE/forms.py.tpl" -D K=6 -o "$TMP/forms.py" &&
   [ "$(python3 "$TMP/forms.py")" = ok ]; then
	ok "temporaries in scope in every statement form (Triton as Python)"
else
	ko "temporaries in scope in every statement form (Triton as Python)"
fi
# form TARGET LINE COL WHAT TEXT: TEXT (one line after a spec) is refused
# at LINE:COL, the message naming WHAT.
form() {
	printf '{%% lego %%}\nsym K\nlayout A = Row(8, K)\n{%% end %%}\n%b\n' \
		"$5" > "$TMP/form.tpl"
	if "$LEGO" gen --target "$1" "$TMP/form.tpl" -D K=6 > "$TMP/form.out" \
		2> "$TMP/form.err"; then
		ko "form $5: accepted"
	elif grep -q "^$TMP/form.tpl:$2:$3: error: the placeholders share .*$4" \
		"$TMP/form.err"; then
		ok "form $5: refused at $2:$3"
	else
		cat "$TMP/form.err"
		ko "form $5: want an error at $2:$3 naming '$4'"
	fi
}
X='7 * A[i, j] / 5 + 7 * A[i, j] % 5'
form c 5 33 "may change a name" "for (int i = 0; i < 8; i++) x = {{ $X }};"
form c 5 5 "may change a name" "x = {{ $X }}, i++, y = {{ $X }};"
form c 5 15 "preprocessor line" "#define F(i) ({{ $X }})"
form c 6 3 "preprocessor line" "#define F(i) \\\\\n\t({{ $X }})"
form c 5 13 "else or a label" "case 1: x = {{ $X }};"
form c 6 2 "continuation" "x = 1 +\n\t{{ $X }};"
form c 6 13 "without braces" "for (;;)\n\tif (1) x = {{ $X }};"
form triton 5 24 "may change a name" "for i in range(8): x = {{ $X }}"
form triton 6 5 "continuation" "x = (1 +\n    {{ $X }})"

# CUDA: compile only.
if command -v nvcc >/dev/null 2>&1; then
	for f in transpose nw; do
		if nvcc -O3 -arch=sm_90 -I$EX/cuda $EX/cuda/$f.cu \
			-o "$TMP/$f" > "$TMP/nvcc.log" 2>&1; then
			ok "nvcc -arch=sm_90 examples/cuda/$f.cu"
		else
			cat "$TMP/nvcc.log"
			ko "nvcc -arch=sm_90 examples/cuda/$f.cu"
		fi
	done
else
	echo "SKIP examples/cuda: nvcc not found (CUDA compiles not checked)"
fi

echo "genc: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

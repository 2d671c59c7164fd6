#!/bin/sh
# run.sh BUILD - MLIR tests: every generated module parses and verifies
# with mlir-opt; its index functions, lowered to LLVM IR and compiled with
# a C driver, are run on the CPU for every logical index and every flat
# index and compared with `lego table` (apply) and its inverse permutation
# (inv); the example GPU kernel lowers to PTX for sm_90.  Last line:
# "mlir: N passed, N failed".
build=${1:-build}
lego=$build/lego
here=$(dirname "$0")
root=$here/../..
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() {
	echo "mlir: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

if ! bin=$(sh "$root/scripts/mlir-tools.sh"); then
	fail=1
	finish
fi
opt=$bin/mlir-opt
translate=$bin/mlir-translate
# LLVM IR is compiled by clang (14 reads what mlir-translate 22 writes
# for these functions: integers only, no pointers).
if ! command -v clang >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	apt-get install -y -qq clang >/dev/null 2>&1
fi
cc=${MLIR_CC:-clang}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The argument names of `func.func @FN(...)` in FILE, one per line.
args_of() {
	sed -n "s/^func.func @$2(\(.*\)) -> .*{\$/\1/p" "$1" | tr ',' '\n' |
		sed 's/^ *%\([^:]*\):.*/\1/'
}

# Appends to FILE one function NAME_inv_K per coordinate, returning
# coordinate K alone, so that the C driver sees only int64_t results.
add_inv_wrappers() { # FILE NAME RANK
	inv_args=$(args_of "$1" "$2_inv" | sed 's/^/%/' | paste -sd, - |
		sed 's/,/, /g')
	ntypes=$(args_of "$1" "$2_inv" | sed 's/.*/index/' | paste -sd, - |
		sed 's/,/, /g')
	rtypes=$(seq "$3" | sed 's/.*/index/' | paste -sd, - | sed 's/,/, /g')
	params=$(echo "$inv_args" | sed 's/\(%[^,]*\)/\1: index/g')
	k=0
	while [ "$k" -lt "$3" ]; do
		cat >>"$1" <<MLIR

func.func @$2_inv_$k($params) -> index {
  %r:$3 = func.call @$2_inv($inv_args) : ($ntypes) -> ($rtypes)
  return %r#$k : index
}
MLIR
		k=$((k + 1))
	done
}

# A C program: argv = the dims, then the symbols' values; prints the
# apply table and the inverse table (row-major logical number of inv(x),
# -1 when outside the dims).
write_driver() { # NAME RANK NSYMS
	rank=$2
	nsyms=$3
	ints=$(seq $((rank + nsyms)) | sed 's/.*/I/' | paste -sd, -)
	iints=$(seq $((1 + nsyms)) | sed 's/.*/I/' | paste -sd, -)
	syms=$(seq 0 $((nsyms - 1)) 2>/dev/null | sed 's/.*/, s[&]/' | tr -d '\n')
	ix=$(seq 0 $((rank - 1)) | sed 's/.*/ix[&]/' | paste -sd, -)
	cat <<C
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
typedef int64_t I;
I $1_apply($ints);
C
	k=0
	while [ "$k" -lt "$rank" ]; do
		echo "I $1_inv_$k($iints);"
		k=$((k + 1))
	done
	cat <<C
int main(int argc, char **argv)
{
	I d[$rank], s[$nsyms + 1], ix[$rank], c[$rank], n = 1;
	if (argc != 1 + $rank + $nsyms)
		return 2;
	for (int k = 0; k < $rank; k++)
		n *= d[k] = atoll(argv[1 + k]);
	for (int k = 0; k < $nsyms; k++)
		s[k] = atoll(argv[1 + $rank + k]);
	for (I l = 0; l < n; l++) {
		I r = l;
		for (int k = $rank - 1; k >= 0; k--) {
			ix[k] = r % d[k];
			r /= d[k];
		}
		printf(l ? " %lld" : "%lld", (long long)$1_apply($ix$syms));
	}
	putchar('\n');
	for (I x = 0; x < n; x++) {
		I l = 0;
		int in = 1;
C
	k=0
	while [ "$k" -lt "$rank" ]; do
		echo "		c[$k] = $1_inv_$k(x$syms);"
		k=$((k + 1))
	done
	cat <<C
		for (int k = 0; k < $rank; k++) {
			in = in && c[k] >= 0 && c[k] < d[k];
			l = l * d[k] + c[k];
		}
		printf(x ? " %lld" : "%lld", in ? (long long)l : -1LL);
	}
	putchar('\n');
	return 0;
}
C
}

# Verifies MLIR, lowers it with the driver to a program BIN.
build_prog() { # MLIR NAME RANK BIN
	if ! "$opt" "$1" -o /dev/null 2>"$tmp/err"; then
		bad "$1: mlir-opt does not verify it: $(head -3 "$tmp/err")"
		return 1
	fi
	ok
	add_inv_wrappers "$1" "$2" "$3"
	nsyms=$(($(args_of "$1" "$2_apply" | wc -l) - $3))
	write_driver "$2" "$3" "$nsyms" >"$4.c"
	if ! "$opt" "$1" --arith-expand --convert-arith-to-llvm \
		--convert-func-to-llvm --reconcile-unrealized-casts \
		-o "$4.llvm.mlir" 2>"$tmp/err" ||
	   ! "$translate" --mlir-to-llvmir "$4.llvm.mlir" -o "$4.ll" \
		2>>"$tmp/err" ||
	   ! "$cc" -O1 -w "$4.c" "$4.ll" -o "$4" 2>>"$tmp/err"; then
		bad "$1: lowering or compiling: $(head -3 "$tmp/err")"
		return 1
	fi
}

# Runs BIN and compares with `lego table`.
compare() { # LABEL BIN FILE NAME DIMS DEFS SYMVALUES
	dflags=$(for d in $6; do printf ' -D %s' "$d"; done)
	# shellcheck disable=SC2086
	if ! "$lego" table "$3" "$4" $dflags >"$tmp/table"; then
		bad "$1: lego table failed"
		return
	fi
	awk '{for (i = 1; i <= NF; i++) inv[$i] = i - 1;
	      for (x = 0; x < NF; x++) printf("%s%d", x ? " " : "", inv[x]);
	      printf("\n")}' "$tmp/table" >"$tmp/invtable"
	# shellcheck disable=SC2086
	if ! "$2" $5 $7 >"$tmp/got"; then
		bad "$1: the driver failed"
		return
	fi
	sed -n 1p "$tmp/got" | cmp -s - "$tmp/table" && ok ||
		bad "$1: apply differs from lego table"
	sed -n 2p "$tmp/got" | cmp -s - "$tmp/invtable" && ok ||
		bad "$1: inv differs from the inverse of lego table"
}

# The value of each symbol argument of NAME_apply, from DEFS.
sym_values() { # MLIR NAME RANK DEFS
	args_of "$1" "$2_apply" | tail -n +$(($3 + 1)) | while read -r s; do
		v=$(for d in $4; do echo "$d"; done | sed -n "s/^$s=//p")
		echo "${v:-missing_$s}"
	done | paste -sd' ' -
}

# check MODES FILE NAME "DIMS" "DEFS": MODES "conc" (sizes given to lego
# mlir with -D) and/or "sym" (sizes passed to the functions at run time).
check() {
	modes=$1 file=$2 name=$3 dims=$4 defs=$5
	rank=$(echo "$dims" | wc -w)
	label="$name($defs)"
	dflags=$(for d in $defs; do printf ' -D %s' "$d"; done)
	key=$(basename "$file" .lego)-$name
	case $modes in *conc*)
		m=$tmp/$key-conc.mlir
		# shellcheck disable=SC2086
		if ! "$lego" mlir "$file" "$name" $dflags -o "$m"; then
			bad "$label concrete: lego mlir"
		elif build_prog "$m" "$name" "$rank" "$tmp/conc"; then
			compare "$label concrete" "$tmp/conc" "$file" "$name" \
				"$dims" "$defs" ""
		fi
	esac
	case $modes in *sym*)
		m=$tmp/$key-sym.mlir
		# One program per layout, run for every set of sizes.
		if [ ! -x "$tmp/$key-sym" ]; then
			if ! "$lego" mlir "$file" "$name" -o "$m"; then
				bad "$label symbolic: lego mlir"
				return
			fi
			build_prog "$m" "$name" "$rank" "$tmp/$key-sym" || return
		fi
		compare "$label symbolic" "$tmp/$key-sym" "$file" "$name" \
			"$dims" "$defs" "$(sym_values "$m" "$name" "$rank" "$defs")"
	esac
}

ex=$root/examples
t=$here/layouts.lego
start=$(date +%s)
check conc "$ex/fig9.lego" G "6 6" ""
check conc "$ex/fig9.lego" O2 "2 3 2 3" ""
for defs in "M=8 K=12 BM=4 BK=3" "M=6 K=6 BM=1 BK=6" "M=16 K=8 BM=16 BK=2"; do
	set -- $defs
	M=${1#M=} K=${2#K=} BM=${3#BM=} BK=${4#BK=}
	check "sym conc" "$ex/gemm.lego" A "$((M / BM)) $((K / BK)) $BM $BK" "$defs"
done
check "sym conc" "$ex/gemm.lego" B "4 2 3 5" "K=12 N=10 BK=3 BN=5"
check "sym conc" "$ex/gemm.lego" C "2 2 4 5" "M=8 N=10 BM=4 BN=5"
for defs in "npm=8 npn=6 GM=4" "npm=6 npn=5 GM=2" "npm=7 npn=3 GM=1" \
	    "npm=8 npn=3 GM=8" "npm=12 npn=7 GM=3"; do
	set -- $defs
	check "sym conc" "$ex/gemm.lego" P "${1#npm=} ${2#npn=}" "$defs"
done
# The template path: `lego gen --target mlir` writes P's functions with the
# signatures of `lego mlir`; run them the same way.
m=$tmp/gen-P.mlir
if ! "$lego" gen "$here/pid.mlir.tpl" --target mlir -o "$m"; then
	bad "lego gen --target mlir $here/pid.mlir.tpl"
elif build_prog "$m" P 2 "$tmp/gen-P"; then
	for defs in "npm=8 npn=6 GM=4" "npm=12 npn=7 GM=3"; do
		set -- $defs
		compare "P($defs) through lego gen" "$tmp/gen-P" "$ex/gemm.lego" \
			P "${1#npm=} ${2#npn=}" "$defs" "$(sym_values "$m" P 2 "$defs")"
	done
fi
for n in 1 2 3 4 5 7 8 16 31 33 64 100; do
	check "sym conc" "$t" W "$n $n" "n=$n"
done
check "sym conc" "$ex/nw.lego" Grid "4 4 9 9" "n=9"
check conc "$t" Z "4 8" "ZR=4 ZC=8"
check conc "$t" Z "16 16" "ZR=16 ZC=16"
check conc "$t" ZT "2 3 8 4" "ZR=8 ZC=4"
check conc "$t" S "8 64" ""
check "sym conc" "$t" ST "3 2 8 64" "R=3 C=2"
for defs in "R=4 C=8" "R=3 C=5" "R=1 C=7"; do
	set -- $defs
	check "sym conc" "$t" Rot "${1#R=} ${2#C=}" "$defs"
done
# The layouts of the benchmark modules (bench/mlir): the swizzled shared
# tiles of the matmul and of the transpose, the matmul's program ids.
bm=$root/bench/mlir
check conc "$bm/matmul.lego" SA "128 32" ""
check conc "$bm/matmul.lego" SB "32 128" ""
check "sym conc" "$bm/matmul.lego" P "4 3" "M=512 N=384 GM=2"
check "sym conc" "$bm/matmul.lego" P "16 5" "M=2048 N=640 GM=8"
check "sym conc" "$bm/matmul_wgmma.lego" P "4 3" "M=512 N=768 GM=2 WG=2"
check "sym conc" "$bm/matmul_wgmma.lego" P "16 5" "M=2048 N=640 GM=8 WG=1"
check conc "$bm/transpose.lego" Swz "32 32" "TILE=32"
echo "mlir: index functions checked in $(($(date +%s) - start)) s"

# PTX for sm_90 (TOOLCHAIN.md): the pipeline's output holds the PTX text.
to_ptx() { # LABEL MLIR
	if "$opt" "$2" --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa" \
		-o "$tmp/ptx.out" 2>"$tmp/err" &&
	   grep -q '\.target sm_90' "$tmp/ptx.out"; then
		ok
	else
		bad "$1: no PTX for sm_90: $(head -3 "$tmp/err")"
	fi
}

# The example kernel: regenerated as checked in, and lowered.
if sh "$ex/mlir/make.sh" "$lego" "$tmp/transpose.mlir" &&
   cmp -s "$tmp/transpose.mlir" "$ex/mlir/transpose.mlir"; then
	ok
else
	bad "examples/mlir/transpose.mlir differs from what make.sh generates"
fi
to_ptx "examples/mlir/transpose.mlir" "$ex/mlir/transpose.mlir"
grep -q 'call @In_apply' "$tmp/transpose.mlir" && ok ||
	bad "transpose.mlir does not call the layout functions"

# Every kind of operation, on the GPU too: the symbolic modules (isqrt,
# signed division and modulo, min/max/select, bit operations) inside a
# gpu.module with a kernel calling them.
for key in layouts-W layouts-Rot \
	   layouts-ST gemm-P; do
	m=$tmp/$key-sym.mlir
	name=${key##*-}
	if [ ! -f "$m" ]; then
		bad "$key: no symbolic module to lower"
		continue
	fi
	nargs=$(args_of "$m" "${name}_apply" | wc -l)
	types=$(seq "$nargs" | sed 's/.*/index/' | paste -sd, - | sed 's/,/, /g')
	params=$(seq 0 $((nargs - 1)) | sed 's/.*/%a&: index/' | paste -sd, - |
		sed 's/,/, /g')
	call=$(seq 0 $((nargs - 1)) | sed 's/.*/%a&/' | paste -sd, - |
		sed 's/,/, /g')
	{
		echo 'module attributes {gpu.container_module} {'
		echo '  gpu.module @kernels {'
		sed 's/^./    &/' "$m"
		cat <<MLIR
    gpu.func @k(%out: memref<?xindex>, $params) kernel {
      %v = func.call @${name}_apply($call) : ($types) -> index
      %tid = gpu.thread_id x
      memref.store %v, %out[%tid] : memref<?xindex>
      gpu.return
    }
  }
}
MLIR
	} >"$tmp/gpu-$name.mlir"
	to_ptx "$name in a gpu.module" "$tmp/gpu-$name.mlir"
done
# Two placeholder lines in one function: their temporaries must not
# redefine each other's SSA names.
if "$lego" gen "$here/two_lines.mlir.tpl" --target mlir >"$tmp/two.mlir" &&
   "$opt" "$tmp/two.mlir" >/dev/null 2>"$tmp/err"; then
	ok
else
	bad "two placeholder lines in one function: $(head -3 "$tmp/err")"
fi
# Generated code is total: guarded divisions, modulos, shifts and isqrt of
# random templates, lowered and run over the whole index range, never trap
# although arith.select computes both arms (tests/gen_c/total.py).
if MLIR_CC=$cc python3 "$root/tests/gen_c/total.py" "$lego" mlir "$tmp" \
	"$bin" >"$tmp/total.log" 2>&1; then
	ok
else
	bad "generated MLIR is total: $(head -5 "$tmp/total.log")"
fi
# The benchmark modules: regenerated as checked in, lowered to PTX for
# sm_90 (sm_90a: the wgmma matmuls) by the benchmark's own script, holding
# the instructions they are written for; assembled by ptxas when the CUDA
# toolkit is installed (CI installs only the MLIR tools: there the PTX is
# checked as text).
count() { grep -c "$1" "$2" || true; }
wgmma='wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16'
wait='mbarrier\.try_wait\.parity\.shared\.b64'
tma='cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes'
expect() { # LABEL PATTERN FILE N
	n=$(count "$2" "$3")
	[ "$n" -eq "$4" ] && ok || bad "$1: $n lines with '$2', expected $4"
}
if sh "$bm/gen.sh" "$lego" "$tmp" 2>"$tmp/err"; then
	ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
	for mc in transpose:sm_90 matmul:sm_90 matmul_wgmma:sm_90a; do
		m=${mc%:*}
		chip=${mc#*:}
		cmp -s "$tmp/$m.mlir" "$bm/$m.mlir" && ok ||
			bad "bench/mlir/$m.mlir differs from what gen.sh generates"
		if ! MLIR_BIN=$bin sh "$bm/lower.sh" "$bm/$m.mlir" \
			"$tmp/$m.ptx" "$chip" 2>"$tmp/err"; then
			bad "bench/mlir/$m.mlir: no PTX: $(head -3 "$tmp/err")"
			continue
		fi
		ok
		if [ -x "$ptxas" ]; then
			"$ptxas" -arch="$chip" "$tmp/$m.ptx" -o "$tmp/$m.cubin" \
				2>"$tmp/err" && ok ||
				bad "$m.ptx: ptxas: $(head -3 "$tmp/err")"
		else
			echo "mlir: no ptxas here: $m.ptx checked as text only"
		fi
	done
	p=$tmp/transpose.ptx
	expect "transpose.ptx kernels" '^\.visible \.entry transpose_' "$p" 3
	expect "transpose.ptx barriers" 'bar\.sync' "$p" 2
	p=$tmp/matmul.ptx
	# One k slice of 32 per warp: 2 x 32 mma, 2 x 4 ldmatrix of A, 2 x 4
	# transposed of B, 4 x 2 cp.async of 16 bytes.
	expect "matmul.ptx mma" 'mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32' "$p" 64
	expect "matmul.ptx ldmatrix A" 'ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16' "$p" 8
	expect "matmul.ptx ldmatrix B" 'ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16' "$p" 8
	expect "matmul.ptx cp.async" 'cp\.async\.cg\.shared\.global .*, 16;' "$p" 8
	expect "matmul.ptx wait" 'cp\.async\.wait_group' "$p" 2
	# One k slice of 64 per warpgroup: 2 x 4 wgmma m64n128k16 from shared
	# memory descriptors, one commit, one mbarrier wait (a loop), 4
	# mbarriers; the TMA loads: 1 + 4 boxes a slice, in 3 copies (LLVM
	# peels the first two iterations of the k loop).
	p=$tmp/matmul_wgmma.ptx
	expect "matmul_wgmma.ptx wgmma" "$wgmma" "$p" 8
	expect "matmul_wgmma.ptx commit" 'wgmma\.commit_group\.sync\.aligned' "$p" 1
	expect "matmul_wgmma.ptx mbarrier wait" "$wait" "$p" 1
	expect "matmul_wgmma.ptx mbarrier init" 'mbarrier\.init\.shared\.b64' "$p" 4
	expect "matmul_wgmma.ptx TMA" "$tma" "$p" 15
else
	bad "bench/mlir/gen.sh: $(head -3 "$tmp/err")"
fi
echo "mlir: done in $(($(date +%s) - start)) s"
finish

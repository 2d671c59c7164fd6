#!/bin/sh
# warp.sh - the warp layer of CUDA (B_red = 2, src/mdh/warp.c) checked on
# the GPU: dot, matvec, matmul and absmax (a user operator) at odd sizes,
# each configuration with the shuffles and with the shared-memory tree
# (B_red = 1), every output point against a float64 reference (warp.cu);
# the two strategies' outputs compared bit for bit (the butterfly combines
# in the tree's order); and a planted error, each shuffle at the wrong
# offset (lane ^ 2 in place of lane ^ 1), that must fail.
#   sh warp.sh gen LEGO DIR   lowers the kernels into DIR (no GPU needed)
#   sh warp.sh run DIR        builds and runs them (nvcc, a GPU)
# Last line: "warp: N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
cases() {
	cat <<'EOF'
dot 1001 -D L_k=32
dot 1001 -D L_k=8 -D P_k=2 -D G_k=4
dot 1001 -D L_k=2
matvec 37 1001 -D L_i=4 -D L_k=8
matvec 37 1001 -D L_i=1 -D L_k=32 -D P_i=2 -D G_k=2
matvec 37 1001 -D L_i=8 -D L_k=16 -D P_k=4 -D O_k=3
matmul 33 45 77 -D L_i=2 -D L_j=4 -D L_k=4
matmul 33 45 77 -D L_j=8 -D L_k=32 -D P_j=2 -D O_j=2
matmul 33 45 77 -D L_i=4 -D L_j=4 -D L_k=8 -D G_k=2 -D M_A=3
absmax 37 101 -D L_i=4 -D L_j=16
absmax 37 101 -D L_i=1 -D L_j=32 -D G_j=2
EOF
}

# the sizes' names of each example, in its order
names() {
	case $1 in
	dot) echo N ;; matvec) echo I K ;; matmul) echo M N K ;;
	absmax) echo M N ;;
	esac
}

# gen writes list.txt, a line a configuration: its number, the example,
# its sizes, then its parameters; run reads it.
gen() { # $LEGO, $DIR
	mkdir -p "$DIR"
	cp "$here/warp.cu" "$here/warp.sh" "$DIR/"
	c=0
	cases | while read -r n rest; do
		c=$((c + 1))
		set -- $rest
		defs=""
		sizes=""
		for s in $(names "$n"); do
			defs="$defs -D $s=$1"
			sizes="$sizes $1"
			shift
		done
		echo "$c $n$sizes $*" >> "$DIR/list.txt"
		for r in 1 2; do
			# shellcheck disable=SC2086
			"$LEGO" mdh "$here/../../examples/mdh/$n.mdh" \
				--target cuda $defs "$@" -D B_red=$r \
				-o "$DIR/k$c-$r.cu" || exit 1
		done
		sed 's/, mdh_s);$/, mdh_s == 1 ? 2 : mdh_s);/' "$DIR/k$c-2.cu" \
			> "$DIR/k$c-bad.cu"
	done
}

# one check: configuration $c, variant $1, $sizes; its line in $out, its
# status in $rc
check() {
	# shellcheck disable=SC2086
	out=$(./k$c-$1 o$c-$1 "$seed" $sizes 2>&1)
	rc=$?
}

run() { # $DIR
	cd "$DIR" || exit 1
	while read -r c n rest; do
		for v in 1 2 bad; do
			echo "nvcc -O3 -arch=sm_90 -w -DKERNEL='\"k$c-$v.cu\"' -DW_$n warp.cu -o k$c-$v"
		done
	done < list.txt > nvcc.txt
	xargs -d '\n' -P "$(nproc)" -n 1 sh -c < nvcc.txt || true
	pass=0
	fail=0
	while read -r c n rest; do
		sizes=$(echo "$rest" | sed 's/ -D.*//')
		seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
		check 1
		r1=$rc t=$out
		check 2
		r2=$rc w=$out
		check bad
		if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s o$c-1 o$c-2 &&
		   [ $rc -eq 1 ]; then
			pass=$((pass + 1))
			echo "PASS $n $rest (seed $seed): tree $t; shuffles $w, bit-identical; planted $out"
		else
			fail=$((fail + 1))
			echo "FAIL $n $rest (seed $seed): tree ($r1) $t; shuffles ($r2) $w; planted ($rc) $out"
		fi
	done < list.txt
	echo "warp: $pass passed, $fail failed"
	[ $fail -eq 0 ]
}

case ${1:-} in
gen) LEGO=$2 DIR=$3 gen ;;
run) DIR=$2 run ;;
*) echo "usage: sh warp.sh gen LEGO DIR | run DIR" >&2; exit 2 ;;
esac

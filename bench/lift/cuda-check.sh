#!/bin/sh
# The Lift examples generated for CUDA, checked on a GPU against plain C
# (tests/lift/check.c built by nvcc with tests/lift/cuda_shim.h), at the
# sizes of tests/lift/benches.txt.
#   sh bench/lift/cuda-check.sh build DIR [BUILD]  here: nvcc builds DIR/*/check
#   sh bench/lift/cuda-check.sh run DIR            on the GPU machine
set -e
mode=$1
DIR=$2
BUILD=${3:-build}
HERE=tests/lift
if [ "$mode" = build ]; then
	mkdir -p "$DIR"
	cp "$HERE/benches.txt" "$DIR/"
	while read -r name sizes; do
		mkdir -p "$DIR/$name"
		"$BUILD/lego" lift --target cuda "examples/lift/$name.lift" \
			-o "$DIR/$name/kernel.cu"
		"$BUILD/lego" lift --target cuda --host "examples/lift/$name.lift" \
			-o "$DIR/$name/host.h"
		nvcc -O2 -arch=sm_90 -x cu -DCUDA -DBENCH_$name \
			-DKERNEL='"kernel.cu"' -DHOST='"host.h"' -I"$DIR/$name" \
			-I"$HERE" "$HERE/check.c" -o "$DIR/$name/check"
	done < "$HERE/benches.txt"
elif [ "$mode" = run ]; then
	pass=0
	fail=0
	while read -r name sizes; do
		if "$DIR/$name/check" "$DIR/$name" $sizes; then
			pass=$((pass + 1))
			echo "PASS $name on CUDA $sizes"
		else
			fail=$((fail + 1))
			echo "FAIL $name on CUDA $sizes"
		fi
	done < "$DIR/benches.txt"
	echo "lift cuda: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
else
	echo "usage: cuda-check.sh build|run DIR [BUILD]" >&2
	exit 2
fi

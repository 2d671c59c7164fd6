#!/bin/sh
# The LEGO authors' stencil programs (bricks/, bricks-laplace/ of their
# repository, kept unchanged in the anchors folder) built for another N: their
# kernels and driver spell N = 384 as literals (384, 3072 = 8 N, 24576 =
# 64 N, 147456 = N^2, 1179648 = 8 N^2 = (N/8)^2 512), so a copy of main.cu in
# BIN has each literal replaced by its expression in AUTHORS_N (compiled with
# -DAUTHORS_N=N), and their 100 timed launches after 25 warm-ups by REPS
# after REPS / 4 (a device call's time: their f3d at N = 512, R = 4 takes
# about 0.37 s a launch).  Nothing of theirs enters the project: the copies
# live in BIN, an ignored folder.  Built with AUTHORS_N = 384, the copies'
# PTX equals that of their unchanged main.cu (checked by `check`).
#   sh bench/stencil/authors_at.sh ANCHORS BIN N [REPS]   f3d-r<R>-n<N>, lap-r<R>-n<N>
#   sh bench/stencil/authors_at.sh check ANCHORS BIN      the PTX at N = 384
set -e
sub() {
	sed -e 's/\b1179648\b/(8*AUTHORS_N*AUTHORS_N)/g' \
		-e 's/\b147456\b/(AUTHORS_N*AUTHORS_N)/g' \
		-e 's/\b24576\b/(64*AUTHORS_N)/g' \
		-e 's/\b3072\b/(8*AUTHORS_N)/g' \
		-e 's/\b384\b/AUTHORS_N/g' \
		-e 's/const int REPS = 100;/const int REPS = AUTHORS_REPS;/' \
		-e 's/const int WARPMUP = 25;/const int WARPMUP = AUTHORS_REPS \/ 4;/' "$1"
}
NVCC="nvcc -O3 -use_fast_math -arch=sm_90"
if [ "$1" = check ]; then
	anchors=$2 bin=$3
	mkdir -p "$bin"
	for d in bricks bricks-laplace; do
		sub "$anchors/$d/main.cu" > "$bin/$d-n.cu"
		grep -q 'AUTHORS_N' "$bin/$d-n.cu"
		$NVCC -ptx -DRD_RADIUS=2 "$anchors/$d/main.cu" -o "$bin/$d-orig.ptx"
		$NVCC -ptx -DRD_RADIUS=2 -DAUTHORS_N=384 -DAUTHORS_REPS=100 "$bin/$d-n.cu" -o "$bin/$d-n.ptx"
		# The PTX names its source file; the rest must be equal.
		if diff "$bin/$d-orig.ptx" "$bin/$d-n.ptx" | grep -v '\.file\|^[0-9]\|^---' | grep -q .; then
			echo "$d: PTX at N = 384 differs from theirs"
			exit 1
		fi
		echo "$d: PTX at N = 384 equal to theirs"
	done
	exit 0
fi
anchors=$1 bin=$2 n=$3 reps=${4:-100}
mkdir -p "$bin"
sub "$anchors/bricks/main.cu" > "$bin/bricks-n.cu"
sub "$anchors/bricks-laplace/main.cu" > "$bin/bricks-laplace-n.cu"
for r in 1 2 3 4; do
	$NVCC -DRD_RADIUS=$r -DAUTHORS_N=$n -DAUTHORS_REPS=$reps "$bin/bricks-n.cu" -o "$bin/f3d-r$r-n$n" &
	$NVCC -DRD_RADIUS=$r -DAUTHORS_N=$n -DAUTHORS_REPS=$reps "$bin/bricks-laplace-n.cu" -o "$bin/lap-r$r-n$n"
	wait
done

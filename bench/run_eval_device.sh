#!/bin/sh
# Issue 17's device runs: ours and the LEGO authors' kernels side by side.
#   sh bench/run_eval_device.sh [lud] [stencil] [layernorm]   (default: all)
# The CUDA programs are built beforehand (nvcc -arch=sm_90 on the build
# machine) into $BIN: lud_bench and stencil_bench (build lines at the top
# of bench/lud/lud_bench.cu, bench/stencil/stencil_bench.cu) and the
# authors' binaries, built from /work/shared/anchors/lego-authors as its
# README says, all with nvcc -O3 -use_fast_math -arch=sm_90:
#   lud-orig16/32 (lud/, -DRD_WG_SIZE_0=16/32), lud-lego2/4/8/16
#   (-DLEGO_R<R>=1 -DRD_WG_SIZE_0=64), f3d-r<R> (bricks/, -DRD_RADIUS=R),
#   lap-r<R> (bricks-laplace/, -DRD_RADIUS=R).
# The stencils run at each N of $STENCIL_NS (default 384 512).  Their
# programs know N = 384 alone (literals); for another N, f3d-r<R>-n<N> and
# lap-r<R>-n<N> are built from copies of their main.cu with the literals
# rewritten in N, 20 timed launches after 5 warm-ups (the device call's
# time), in $BIN, never in the project:
#   sh bench/stencil/authors_at.sh ANCHORS $BIN 512 20
#   sh bench/stencil/authors_at.sh check ANCHORS /tmp/x   (at 384: their PTX)
# Layernorm runs bench/layernorm/bench.py from $LN with the authors'
# layernorm.py at $AUTHORS_LN (LN_NS, LN_DIRS pass through: bench.py), then
# $LN/ceiling.py (every copy of the forward's bytes at N = 2048, 4096;
# LN_OURS, LN_CELLS pass through: ceiling.py) and, under Nsight Compute,
# $LN/profile.py (the counters of our forward and the copies, one launch on
# a flushed L2: OUT/ncu.csv, OUT/labels.txt; LN_NCU=0 leaves it out).
# Logs go to $OUT.
BIN=${BIN:-.dev-eval/bin}
LN=${LN:-bench/layernorm}
AUTHORS_LN=${AUTHORS_LN:-.dev-eval/anchors/triton/layernorm.py}
OUT=${OUT:-.}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
for study in ${*:-lud stencil layernorm}; do
	case $study in
	lud)
		timeout 150 $BIN/lud_bench 4096 8192 16384 > $OUT/lud.log 2>&1
		cat $OUT/lud.log
		for s in 4096 8192 16384; do
			for b in lud-orig16 lud-orig32 lud-lego2 lud-lego4 lud-lego8 lud-lego16; do
				echo "== $b -s $s"
				timeout 60 $BIN/$b -s $s -r 5 -w 2 | grep -E "median"
			done
		done > $OUT/lud-authors.log 2>&1
		cat $OUT/lud-authors.log
		;;
	stencil)
		for n in ${STENCIL_NS:-384 512}; do
			at=$([ "$n" = 384 ] || echo "-n$n")
			for r in 1 2 3 4; do
				echo "== f3d-r$r$at"; timeout 60 $BIN/f3d-r$r$at
				echo "== lap-r$r$at"; timeout 60 $BIN/lap-r$r$at
			done
		done > $OUT/stencil-authors.log 2>&1
		grep -E "==|launch" $OUT/stencil-authors.log
		timeout 400 $BIN/stencil_bench ${STENCIL_NS:-384 512} > $OUT/stencil.log 2>&1
		cat $OUT/stencil.log
		;;
	layernorm)
		OUT=$OUT timeout 500 python3 $LN/bench.py $AUTHORS_LN > $OUT/layernorm.log 2>&1
		tail -60 $OUT/layernorm.log
		OUT=$OUT timeout 200 python3 $LN/ceiling.py 5 > $OUT/ceiling.log 2>&1
		sed -n '/interleaved rounds/,$p' $OUT/ceiling.log
		[ "${LN_NCU:-1}" = 0 ] && continue
		(cd $LN && timeout 170 ncu --profile-from-start off --clock-control none \
			--print-units base --csv --page raw --metrics "$(python3 profile.py metrics)" \
			--log-file $OUT/ncu.csv python3 profile.py $OUT/labels.txt) > $OUT/profile.log 2>&1
		python3 $LN/profile.py summary $OUT/ncu.csv $OUT/labels.txt
		;;
	esac
done

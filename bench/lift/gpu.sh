#!/bin/sh
# gpu.sh OUT [BUILD] - builds the Lift GPU study (bench/lift/README.md)
# here: every benchmark's Lift program generated for CUDA by lego lift
# into OUT/lift_all.cuh (a namespace each; mmtiled.lift also with its
# tile side 4 made 8, 16 and 32), then bench/lift/gpu.cu by nvcc for the
# H100 into OUT/gpu.  On the device: OUT/gpu (add an argument for small
# sizes), and python3 bench/lift/sgemm.py for cuBLAS.
set -e
out=$1
lego=${2:-build}/lego
here=$(dirname "$0")
mkdir -p "$out"
: > "$out/lift_all.cuh"
gen() {  # NAMESPACE FILE [STEPS]: STEPS rewrites (lego lift --rewrite)
	rw=${3:+--rewrite $3}
	"$lego" lift --target cuda $rw "$2" -o "$out/$1.cu"
	"$lego" lift --target cuda --host $rw "$2" -o "$out/$1.h"
	printf 'namespace %s {\n#include "%s.cu"\n#include "%s.h"\n}\n' \
		"$1" "$1" "$1" >> "$out/lift_all.cuh"
}
# variant NAME FILE TO SED: FILE's kernel NAME renamed TO (extern "C"
# names must differ) and edited by SED into OUT/TO.lift
variant() {
	sed -e "s/^kernel $1(/kernel $3(/" -e "$4" "$2" > "$out/$3.lift"
}
for b in dot dotvec gemv gemvwg matmul nbody kmeans nn nnvec md conv2d stencil2d jacobi3d; do
	gen "ex_$b" "examples/lift/$b.lift"
done
# the explored variants that unroll (the unroll rule) the 2-D stencils'
# reduction over the neighbourhood (jacobi3d.lift has none: 7 reads)
for b in conv2d stencil2d; do
	variant "$b" "examples/lift/$b.lift" "${b}_u" ""
	gen "ex_${b}_u" "$out/${b}_u.lift" unroll:0
done
# jacobi3d with its planes in parallel too (the to-glb rule on its map
# over z: mapGlb(2, ..), launched with a grid along z)
variant jacobi3d examples/lift/jacobi3d.lift jacobi3dz \
	's/mapSeq(mapGlb(1, mapGlb(0,/mapGlb(2, mapGlb(1, mapGlb(0,/'
gen ex_jacobi3dz "$out/jacobi3dz.lift"
# mmtiled at tile sides 4 to 32, each also with its product over a tile
# unrolled; gemvwg with work-groups of 32 to 1024 partial sums
for t in 4 8 16 32; do
	variant mmtiled examples/lift/mmtiled.lift "mmtiled$t" "s/\\b4\\b/$t/g"
	gen "ex_mmtiled$t" "$out/mmtiled$t.lift"
	variant "mmtiled$t" "$out/mmtiled$t.lift" "mmtiled${t}_u" ""
	gen "ex_mmtiled${t}_u" "$out/mmtiled${t}_u.lift" unroll:1
done
# mmlocal (tiles of A and B in local memory, a block of C a work-item in
# private memory) with work-groups of T x T, blocks of R x R a work-item
# (tiles of T * R) and slices of K of KT: mmlocalTxRkKT, each also with
# its sizes fixed and with its product over a slice unrolled; form w
# (mmlocalw...) transposes A's tile on the written side, so that its
# copy reads A along k (coalesced) and writes local memory across
transA='s/toLocal(mapLcl(1, mapLcl(0, id))) \$ transpose(get(0, tiles))/toLocal(transpose o mapLcl(1, mapLcl(0, id))) $ get(0, tiles)/;'
for v in 16,4,16 16,4,8 16,8,8 16,8,16 8,8,8 8,8,16; do
	set -- $(echo "$v" | tr , ' ')
	for form in "" w; do
		n="mmlocal$form$1x$2k$3"
		w=""
		[ -z "$form" ] || w=$transA
		variant mmlocal examples/lift/mmlocal.lift "$n" "$w
			s/\\b4\\b/@T/g; s/\\b2\\b/@R/g; s/\\b8\\b/@B/g; s/\\b3\\b/@K/g;
			s/@T/$1/g; s/@R/$2/g; s/@B/$(($1 * $2))/g; s/@K/$3/g"
		gen "ex_$n" "$out/$n.lift"
		variant "$n" "$out/$n.lift" "${n}_u" ""
		gen "ex_${n}_u" "$out/${n}_u.lift" unroll:1
		mmlocal_fixed="$mmlocal_fixed $n"
	done
done
# mmvec (mmlocal with each work-item's rows and columns 4 at a time, read
# from local memory as 16-byte loads) with work-groups of T x T, blocks
# of R x R (R a multiple of 4) and slices of K of KT: mmvecTxRkKT, each
# also with its product over a slice unrolled (unroll:1), with its slices
# not double-buffered (form s: reduceSeq for reduceSeqPipe), and with its
# sizes fixed
for v in 16,8,16 16,8,8; do
	set -- $(echo "$v" | tr , ' ')
	for form in "" s; do
		n="mmvec$form$1x$2k$3"
		w=""
		[ -z "$form" ] || w='s/reduceSeqPipe(/reduceSeq(/;'
		variant mmvec examples/lift/mmvec.lift "$n" "$w
			s/\\b3\\b/@T/g; s/\\b8\\b/@R/g; s/\\b24\\b/@B/g; s/\\b5\\b/@K/g;
			s/@T/$1/g; s/@R/$2/g; s/@B/$(($1 * $2))/g; s/@K/$3/g"
		gen "ex_$n" "$out/$n.lift"
		variant "$n" "$out/$n.lift" "${n}_u" ""
		# the unroll rule's sites are reduceSeq's: the slice loop's
		# reduceSeqPipe is none
		u=unroll:1
		[ -n "$form" ] || u=unroll:0
		gen "ex_${n}_u" "$out/${n}_u.lift" $u
		mmvec_fixed="$mmvec_fixed $n:$u"
	done
done
# mmvecv (mmvec not double-buffered, A's tile copied by 16-byte loads)
# with work-groups of T x T, blocks of R x R and slices of KT (its 9, the
# work-items of a group, made T * T), each also unrolled and with its
# sizes fixed
for v in 16,8,16 16,8,8; do
	set -- $(echo "$v" | tr , ' ')
	n="mmvecv$1x$2k$3"
	variant mmvecv examples/lift/mmvecv.lift "$n" "
		s/\\b3\\b/@T/g; s/\\b8\\b/@R/g; s/\\b24\\b/@B/g; s/\\b12\\b/@K/g;
		s/\\b9\\b/@Q/g; s/@T/$1/g; s/@R/$2/g; s/@B/$(($1 * $2))/g; s/@K/$3/g;
		s/@Q/$(($1 * $1))/g"
	gen "ex_$n" "$out/$n.lift"
	variant "$n" "$out/$n.lift" "${n}_u" ""
	gen "ex_${n}_u" "$out/${n}_u.lift" unroll:1
	mmvec_fixed="$mmvec_fixed $n:unroll:1"
done
# conv2dlocal (slide-tiled into local memory) at tile sides 8 to 32,
# unrolled
for t in 8 16 32; do
	variant conv2dlocal examples/lift/conv2dlocal.lift "conv2dlocal$t" \
		"s/\\b4\\b/$t/g; s/slide(8, $t)/slide($((t + 4)), $t)/g"
	gen "ex_conv2dlocal$t" "$out/conv2dlocal$t.lift" unroll:0
done
for w in 32 64 128 512 1024; do
	variant gemvwg examples/lift/gemvwg.lift "gemvwg$w" "s/\\b256\\b/$w/g"
	gen "ex_gemvwg$w" "$out/gemvwg$w.lift"
done
# fixed NAME FILE STEPS SIZE=V...: the kernel NAME of FILE (after STEPS)
# with its sizes compile-time constants (lego lift --macros, as lego
# tune's templates have them), for the study's full sizes, as NAME_f
fixed() {
	name=$1 file=$2 rw=${3:+--rewrite $3}
	shift 3
	variant "$name" "$file" "${name}_f" ""
	"$lego" lift --target cuda --macros $rw "$out/${name}_f.lift" \
		-o "$out/ex_${name}_f.cu"
	{
		echo "namespace ex_${name}_f {"
		for d; do echo "#define ${d%%=*} ${d#*=}"; done
		echo "#include \"ex_${name}_f.cu\""
		for d; do echo "#undef ${d%%=*}"; done
		echo "}"
	} >> "$out/lift_all.cuh"
}
fixed conv2d examples/lift/conv2d.lift unroll:0 M=8192 N=8192
fixed jacobi3d examples/lift/jacobi3d.lift "" L=512 M=512 N=512
fixed jacobi3dz "$out/jacobi3dz.lift" "" L=512 M=512 N=512
fixed nbody examples/lift/nbody.lift "" N=32768
fixed md examples/lift/md.lift "" N=262144 K=128
fixed matmul examples/lift/matmul.lift "" M=4096 N=4096 K=4096
# mmreg (register-tiled: a 4 x 4 block of C a work-item) at blocks of
# 2 x 2 to 8 x 8, each also with its sizes fixed
for r in 2 4 8; do
	variant mmreg examples/lift/mmreg.lift "mmreg$r" "s/\\b4\\b/$r/g"
	gen "ex_mmreg$r" "$out/mmreg$r.lift"
	fixed "mmreg$r" "$out/mmreg$r.lift" "" M=4096 N=4096 K=4096
done
for n in $mmlocal_fixed $mmvec_fixed; do
	u=${n#*:}
	[ "$u" != "$n" ] || u=unroll:1
	n=${n%%:*}
	fixed "$n" "$out/$n.lift" "" M=4096 N=4096 K=4096
	fixed "${n}_u" "$out/${n}_u.lift" $u M=4096 N=4096 K=4096
done
for w in 64 128; do
	fixed "gemvwg$w" "$out/gemvwg$w.lift" "" M=8192 K=8192
done
fixed gemvwg examples/lift/gemvwg.lift "" M=8192 K=8192
# gemvvec (gemvwg reading float4 vectors) with 64 to 256 partial sums a
# row, each also with its sizes fixed
for w in 64 128 256; do
	variant gemvvec examples/lift/gemvvec.lift "gemvvec$w" \
		"s/\\b256\\b/$w/g; s/\\b1024\\b/$((4 * w))/g"
	gen "ex_gemvvec$w" "$out/gemvvec$w.lift"
	fixed "gemvvec$w" "$out/gemvvec$w.lift" "" M=8192 K=8192
done
cp "$here/refs.cuh" "$out/"
nvcc -O3 -arch=sm_90 -std=c++17 -I"$out" "$here/gpu.cu" -o "$out/gpu"
# the experiment of pipeline.cu (mmvec16x8k16 software-pipelined by hand)
nvcc -O3 -arch=sm_90 -std=c++17 -I"$out" "$here/pipeline.cu" -o "$out/pipeline"

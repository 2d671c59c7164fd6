#!/bin/sh
# run.sh [BUILD] - prepares the GPU check of the cost model: layouts
# (row-major, padded, CuTe, synthesised) and their tables, the manifest of
# (layout, access) kernels, liblego's predictions (model.txt) and smem.cu
# built for sm_90, all in DIR (default /work/main/.dev-synth, which the
# device call carries).  On the device:
#   cd DIR && ./smem manifest && ncu --metrics $METRICS --csv ./smem manifest
# then table.py joins ncu's counts with model.txt (results.md).
build=${1:-build}
dir=${2:-/work/main/.dev-synth}
here=$(cd "$(dirname "$0")" && pwd)
lego=$build/lego
mkdir -p "$dir"
: >"$dir/manifest"
# layout NAME ROWS COLS LOGICAL_COLS EB SPEC KIND...: a table and its kernels
layout() {
	name=$1 rows=$2 cols=$3 lcols=$4 eb=$5 text=$6
	shift 6
	printf '%s\n' "$text" >"$dir/$name.lego"
	"$lego" table "$dir/$name.lego" S >"$dir/$name.tab" || exit 1
	for kind in "$@"; do
		echo "$name.$kind $name.tab $rows $cols $lcols $eb $kind" >>"$dir/manifest"
	done
}
# The layouts measured on 2026-11-24 (results.md), written out so that the
# run stays the same: "synth" is what `lego synth` chose for the tile's two
# accesses then, "cute" the best CuTe swizzle of B <= 4 (the space then).
rot96='genp S_f[nr, nc](r, c) = r * nc + ((c + r) % 96)
    inverse (x) = (x / nc, ((x % nc) + 96 - (x / nc) % 96) % 96)
layout S = GenP([96, 96], S_f)'
layout f16-64x64-row 64 64 64 2 'layout S = Row(64, 64)' st16 ldm4
layout f16-64x64-pad8 64 64 72 2 'layout S = Row(64, 72)' st16 ldm4
layout f16-64x64-synth 64 64 64 2 'layout S = GenP([64, 64], swizzle(3, 3, 3))' st16 ldm4
layout f16-96x40-synth 96 40 40 2 'layout S = Row(96, 40)' st16 ldm1
layout f32-48x80-row 48 80 80 4 'layout S = Row(48, 80)' st16 col4
layout f32-48x80-synth 48 80 80 4 'layout S = GenP([48, 80], swizzle(2, 2, 3))' st16 col4
layout s32-65x65-synth 65 65 65 4 'layout S = Row(65, 65)' st4 col4
layout s32-96x96-row 96 96 96 4 'layout S = Row(96, 96)' st4 col4
layout s32-96x96-pad1 96 96 97 4 'layout S = Row(96, 97)' st4 col4
layout s32-96x96-cute 96 96 96 4 'layout S = GenP([96, 96], swizzle(4, 0, 5))' st4 col4
layout s32-96x96-synth 96 96 96 4 "$rot96" st4 col4
cc -std=c11 -O2 -I"$here/../../../include" -o "$dir/model" "$here/model.c" \
	"$build/liblego.a" -lsqlite3 -ldl -lpthread -lm || exit 1
(cd "$dir" && ./model manifest >model.txt) || exit 1
nvcc -arch=sm_90 -O2 -o "$dir/smem" "$here/smem.cu" || exit 1
cat "$dir/model.txt"

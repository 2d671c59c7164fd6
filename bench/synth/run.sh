#!/bin/sh
# run.sh [BUILD] - `lego synth` on tiles of powers of two and not: the
# time a tile takes (whole process, start-up included, best of 5; target
# < 100 ms) and the wavefronts and padding of its choice beside those of
# the best CuTe swizzle (--space cute) and the best padding (--space pad)
# on the same accesses.
build=${1:-build}
lego=$build/lego
spec=$(dirname "$0")/tiles.lego
ms_of() {
	best=
	for _ in 1 2 3 4 5; do
		t0=$(date +%s%N)
		"$lego" synth "$spec" "$@" >/dev/null || return 1
		t1=$(date +%s%N)
		ms=$(( (t1 - t0) / 100000 ))
		[ -z "$best" ] || [ "$ms" -lt "$best" ] && best=$ms
	done
	echo "$((best / 10)).$((best % 10))"
}
# "W (ideal I), P B pad" of a run
summary() {
	out=$("$lego" synth "$spec" "$@" 2>/dev/null) || { echo "none"; return; }
	w=$(echo "$out" | sed -n 's/^# total: \([0-9]*\) wavefronts (ideal \([0-9]*\))/\1 (\2)/p')
	p=$(echo "$out" | sed -n 's/^# padding: \([0-9]*\) bytes.*/\1/p')
	echo "$w, ${p} B"
}
printf '%-9s %-6s %-10s %-20s %-20s %-20s %s\n' tile type accesses \
	"synth: wf (ideal), pad" "CuTe only" "padding only" "ms (target < 100)"
run() {
	tile=$1 type=$2
	shift 2
	printf '%-9s %-6s %-10s %-20s %-20s %-20s %s\n' "$tile" "$type" "$*" \
		"$(summary "$@" --tile "$tile")" \
		"$(summary "$@" --tile "$tile" --space cute)" \
		"$(summary "$@" --tile "$tile" --space pad)" \
		"$(ms_of "$@" --tile "$tile")"
}
run 64x64 f16 cp16 ldm4
run 128x64 f16 cp16 ldm4
run 128x128 f16 cp16 ldm4
run 32x32 f16 cp16 ldt2
run 96x40 f16 cp16 ldm1
run 80x80 f16 cp16 ldm1
run 64x128 f32 acc cpf
run 48x80 f32 cpf colf
run 65x65 int32 cpi coli
run 96x96 int32 cpi coli
run 40x96 int32 cpi coli
run 128x128 int32 cpi coli

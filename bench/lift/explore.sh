#!/bin/sh
# explore.sh LEGO FILE KERNEL DEPTH EVALS SIZES... - one benchmark's
# exploration timed end to end (bench/lift/README.md): every program
# that DEPTH rewrites make from FILE (lego lift --explore --template, the
# program as written first), each a lego tune template whose split and
# work-group sizes are tuned on the GPU by the CUDA runner (NVRTC, at
# most EVALS candidates a program, each checked against the program as
# written, --macros), the best of each and of all printed with the wall
# time of the whole.  SIZES: -D N=... arguments.  TARGET=opencl: the
# same on OpenCL (PoCL here, a dry run at small sizes).
set -e
t=${TARGET:-cuda}
lego=$1 file=$2 kernel=$3 depth=$4 evals=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s.%N)
"$lego" lift --explore "$depth" --template --target $t "$file" |
	sed -n 's/^--rewrite //p' > "$tmp/paths"
"$lego" lift --macros --target $t "$file" -o "$tmp/ref.$t"
# the reference's range: every size its first maps cover (grid-stride
# loops, so any block does)
"$lego" lift --template --target $t "$file" -o "$tmp/orig.tpl"
refg=$(sed -n 's/^# global: //p' "$tmp/orig.tpl" |
	sed 's/(\([A-Z]*\) + LOCAL[0-9] - 1) \/ LOCAL[0-9] \* LOCAL[0-9]/\1/g')
n=0
{ echo "-"; cat "$tmp/paths"; } | while read -r steps; do
	n=$((n + 1))
	rw=
	[ "$steps" = - ] || rw="--rewrite $steps"
	"$lego" lift --template --target $t $rw "$file" -o "$tmp/$n.tpl"
	if "$lego" tune "$tmp/$n.tpl" --target $t --runner $t \
		--kernel "$kernel" \
		--args "$(sed -n 's/^# args: //p' "$tmp/$n.tpl")" \
		--global "$(sed -n 's/^# global: //p' "$tmp/$n.tpl")" \
		--local "$(sed -n 's/^# local: //p' "$tmp/$n.tpl")" \
		--reference "$tmp/ref.$t" --ref-global "$refg" \
		--strategy random --evals "$evals" --jobs 8 --timeout 1 \
		--db "$tmp/$n.db" -q "$@" > "$tmp/out" 2> "$tmp/err"; then
		printf '%-40s %s  [%s]\n' "${steps}" "$(cat "$tmp/out")" \
			"$(tail -n 1 "$tmp/err")"
	else
		printf '%-40s failed: %s\n' "${steps}" "$(tail -n 2 "$tmp/err" | tr '\n' ' ')"
	fi
done | tee "$tmp/log"
best=$(sed -n 's/.*best: .*  \([0-9.e-]*\) ms .*/\1 &/p' "$tmp/log" | sort -g | head -n 1 | cut -d' ' -f2-)
end=$(date +%s.%N)
echo "programs: $(($(wc -l < "$tmp/paths") + 1)), best: $best"
echo "exploration wall time: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s"

#!/bin/sh
# Tests of the kernels of issue 17's studies (bench/stencil, bench/lud,
# bench/layernorm):
#   - golden files: the committed kernels regenerate unchanged from their
#     templates (gen.sh of each study, lego gen for layernorm);
#   - the stencils' brick layout against a brick index written by hand, at
#     every point of a 16^3 grid (bricks_table.py);
#   - every generated CUDA header compiled with nvcc -arch=sm_90 (skipped
#     when nvcc is absent; nothing runs here: bench/run_eval_device.sh runs
#     them on a GPU);
#   - the generated Triton layernorm run in Triton's interpreter against
#     numpy (layernorm_interp.py; skipped without triton).
# Usage: sh tests/studies/run.sh BUILD_DIR.  Last line:
# "studies: N passed, N failed".
BUILD=${1:-build}
LEGO=$BUILD/lego
HERE=$(dirname "$0")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

# same DIR FILES...: each file of DIR equals the one in $TMP.
same() {
	dir=$1
	shift
	for f in "$@"; do
		if cmp -s "$TMP/$f" "$dir/$f"; then
			ok "golden $dir/$f"
		else
			ko "golden $dir/$f (regenerate with the study's gen.sh and diff)"
		fi
	done
}

if sh bench/stencil/gen.sh "$LEGO" "$TMP"; then
	same bench/stencil b111.cuh b888.cuh b444.cuh b884.cuh b1644.cuh b4416.cuh b161616.cuh
else
	ko "bench/stencil/gen.sh"
fi
if sh bench/lud/gen.sh "$LEGO" "$TMP"; then
	same bench/lud lud_r2.cuh lud_r4.cuh lud_r8.cuh lud_r16.cuh lud_r4_nopad.cuh \
		lud_r4_swz.cuh lud_r8_swz.cuh
else
	ko "bench/lud/gen.sh"
fi
if "$LEGO" gen bench/layernorm/layernorm.lego bench/layernorm/layernorm.py.tpl \
	-o "$TMP/layernorm.py"; then
	same bench/layernorm layernorm.py
else
	ko "lego gen bench/layernorm/layernorm.py.tpl"
fi

python3 "$HERE/bricks_table.py" "$LEGO" > "$TMP/bricks.log" 2>&1
grep -q FAIL "$TMP/bricks.log" && cat "$TMP/bricks.log"
pass=$((pass + $(grep -c '^PASS' "$TMP/bricks.log")))
fail=$((fail + $(grep -c '^FAIL' "$TMP/bricks.log")))
grep -q '^PASS' "$TMP/bricks.log" || ko "bricks_table.py ran"

if command -v nvcc >/dev/null 2>&1; then
	if nvcc -arch=sm_90 -c -Ibench/stencil -Ibench/lud "$HERE/compile_check.cu" \
		-o "$TMP/compile_check.o" > "$TMP/nvcc.log" 2>&1; then
		ok "nvcc -arch=sm_90: the stencil and LUD kernels"
	else
		cat "$TMP/nvcc.log"
		ko "nvcc -arch=sm_90: the stencil and LUD kernels"
	fi
else
	echo "SKIP nvcc not found (CUDA compiles not checked)"
fi

if python3 -c "import triton, numpy" 2>/dev/null; then
	python3 "$HERE/layernorm_interp.py" > "$TMP/ln.log" 2>&1
	pass=$((pass + $(grep -c '^PASS' "$TMP/ln.log")))
	fail=$((fail + $(grep -c '^FAIL' "$TMP/ln.log")))
	grep -q '^FAIL' "$TMP/ln.log" && grep '^FAIL' "$TMP/ln.log"
	grep -q '^layernorm: ' "$TMP/ln.log" || { cat "$TMP/ln.log"; ko "layernorm_interp.py ran"; }
else
	echo "SKIP triton or numpy missing (the layernorm interpreter run)"
fi

echo "studies: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

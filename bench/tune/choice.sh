#!/bin/sh
# choice.sh ROOT V DIR - writes DIR/matmul_choice_V.lego (the spec
# bench/tune/matmul_any_V.lego, ESIZE: the inputs' bytes an element, and
# the template choice of choice.lego) and DIR/matmul_choice_V.py.tpl (the
# pointer, masked and TMA templates of ROOT/examples/triton, the split-K
# and stream-K templates of ROOT/bench/triton, the generic kernel of the layout, then
# choice.py's launch), the spec and template of the study's cells
# (study.sh with CHOICE=1) and of `lego gen --tuned`.
R=$1 v=$2 dir=$3
T=$R/bench/tune
E=$R/examples/triton
mkdir -p "$dir"
case $v in *_e4m3) esize=1 ;; *) esize=2 ;; esac
{ cat "$T/matmul_any_$v.lego"; echo "let ESIZE = $esize"; cat "$T/choice.lego"; } \
	>"$dir/matmul_choice_$v.lego"
# The generic kernel is the committed one that `lego gen` wrote from
# examples/triton/matmul_V.lego with every size symbolic (no placeholder
# left), renamed beside the pointer kernel of the same template.
{ cat "$E/matmul.py.tpl" "$E/matmul_masked.py.tpl" "$E/matmul_tma.py.tpl" \
	"$R/bench/triton/matmul_splitk.py.tpl" "$R/bench/triton/matmul_streamk.py.tpl"
  sed 's/^def matmul_kernel(/def matmul_generic_kernel(/' "$E/matmul_${v%%_*}.py"
  cat "$T/choice.py"; } >"$dir/matmul_choice_$v.py.tpl"

#!/bin/sh
# choice.sh ROOT V DIR - writes DIR/matmul_choice_V.lego (the spec
# bench/tune/matmul_any_V.lego, ESIZE: the inputs' bytes an element, and
# the template choice of choice.lego)
# and DIR/matmul_choice.py.tpl (the pointer, masked and TMA templates of
# ROOT/examples/triton, then choice.py's launch), the spec and template
# of the study's cells (study.sh with CHOICE=1) and of `lego gen --tuned`.
R=$1 v=$2 dir=$3
T=$R/bench/tune
E=$R/examples/triton
mkdir -p "$dir"
case $v in *_e4m3) esize=1 ;; *) esize=2 ;; esac
{ cat "$T/matmul_any_$v.lego"; echo "let ESIZE = $esize"; cat "$T/choice.lego"; } \
	>"$dir/matmul_choice_$v.lego"
cat "$E/matmul.py.tpl" "$E/matmul_masked.py.tpl" "$E/matmul_tma.py.tpl" \
	"$T/choice.py" >"$dir/matmul_choice.py.tpl"

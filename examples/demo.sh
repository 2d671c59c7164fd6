#!/bin/sh
# demo.sh LEGO - the built-in example: the paper's figure 9 layout and a
# tiled matrix multiply, through the command-line tool.
lego=${1:-build/lego}
set -e
say() { printf '\n$ %s\n' "$*"; "$@"; }

echo "== The paper's figure 9 (examples/fig9.lego)"
sed -n '/^layout/p' examples/fig9.lego
say "$lego" apply examples/fig9.lego G 4 2
say "$lego" inv examples/fig9.lego G 15
say "$lego" check examples/fig9.lego G
say "$lego" show examples/fig9.lego G

echo
echo "== A tiled matrix multiply with symbolic sizes (examples/gemm.lego)"
sed -n '/^sym/p;/^assume/p;/^layout/p' examples/gemm.lego
say "$lego" apply examples/gemm.lego A tm tk r c
say "$lego" apply examples/gemm.lego B tk tn r c --lang python
say "$lego" inv examples/gemm.lego P pid --lang python
say "$lego" check examples/gemm.lego P -D M=64 -D N=48 -D K=32 -D BM=8 -D BN=8 -D BK=8 -D npm=8 -D npn=6 -D GM=4

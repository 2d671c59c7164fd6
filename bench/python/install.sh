#!/bin/sh
# Times `pip install .` in a fresh virtual environment from a fresh copy
# of the committed tree (git archive HEAD: no object of an earlier build
# reused), the package built from src/*/*.c and its dependency numpy
# downloaded (pip's cache off).  Target < 60 s on the 2-core machine.
# Usage: sh bench/python/install.sh
venv=$(mktemp -d)
tree=$(mktemp -d)
trap 'rm -rf "$venv" "$tree"' EXIT
git archive HEAD | tar -x -C "$tree" || exit 1
python3 -m venv "$venv" || exit 1
t0=$(date +%s%N)
"$venv/bin/pip" install -q --no-cache-dir "$tree" || exit 1
t1=$(date +%s%N)
"$venv/bin/python" -c 'import lego; assert lego.OrderBy(lego.Row(2, 3))[1, 2] == 5' || exit 1
echo "pip install . in a fresh venv (build + numpy): $(( (t1 - t0) / 1000000 )) ms; target < 60000 ms; load: $(cut -d' ' -f1-3 /proc/loadavg)"

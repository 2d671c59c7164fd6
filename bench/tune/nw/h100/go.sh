#!/bin/sh
# The tune10 device call: the NW study, then the softmax study (bench/tune/nw, softmax).
cd .dev-tune10
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/device.txt
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' >> $OUT/device.txt 2>&1
S=$(date +%s)
OUT=$OUT/nw timeout 150 sh bench/tune/nw/run.sh ./lego > $OUT/nw.log 2>&1
rc=$?
echo "nw: $(($(date +%s) - S)) s, rc $rc" >> $OUT/device.txt
S=$(date +%s)
OUT=$OUT/softmax timeout 110 sh bench/tune/softmax/run.sh ./lego > $OUT/softmax.log 2>&1
rc=$?
echo "softmax: $(($(date +%s) - S)) s, rc $rc" >> $OUT/device.txt
python3 bench/tune/softmax/runner.py quit /tmp/lego-softmax.sock 2>/dev/null
cd $OUT && tar czf nw/csv.tgz nw/*.csv 2>/dev/null; tar czf softmax/csv.tgz softmax/*.csv 2>/dev/null; rm -f nw/*.csv softmax/*.csv
cat device.txt nw.log softmax.log

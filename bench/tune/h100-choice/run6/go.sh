#!/bin/sh
# issue 15, tune6: split-K in one launch (the last program of a tile adds the partials),
# tuned on the time from a CUDA graph (no host launch: at 1000 and 1024 a Python launch
# takes longer than the kernel), ab 1024 and atb 1000 from an empty cache; compare.py
# times both ways as always.
CHOICE=1 TIMING=graph TUNE_UNTIL=150 STOP=200 REMEASURE=3 ROUNDS=3 \
CELLS="ab:1024:1024:1024 atb:1000:1000:1000" \
  sh .dev-tune6/bench/tune/study.sh .dev-tune6 >$OUT/study.log 2>&1
cp /tmp/study/server.log $OUT/ 2>/dev/null
tail -12 $OUT/study.log

#!/bin/sh
# issue 15, tune7, the second call: the cells still under the cuBLAS floor from a graph
# (1000, 8192x128x8192) tuned exhaustively on the graph's time, resumed from the first
# call's cache (its 30 configurations a cell are not measured again), then compared again.
mkdir -p $OUT && cp .dev-tune7/run7.db $OUT/tune.db
CHOICE=1 TIMING=graph OVERLAP=1 TUNE_UNTIL=200 STOP=255 REMEASURE=3 ROUNDS=3 \
COMPARE_REP=30 CELLS="ab:1000:1000:1000 abt:1000:1000:1000 atb:1000:1000:1000
atbt:1000:1000:1000 ab:8192:128:8192 abt:8192:128:8192 atb:8192:128:8192
atbt:8192:128:8192" \
  sh .dev-tune7/bench/tune/study.sh .dev-tune7 >$OUT/study.log 2>&1
cp /tmp/study/server.log $OUT/ 2>/dev/null
tail -20 $OUT/study.log

#!/bin/sh
# issue 15, tune8 (call 2: OCC, two stream-K programs an SM): stream-K (KERNEL 5) in the space; the missed cells and the three
# autotune cells tuned on the time from a CUDA graph, exhaustively, resumed from run7's
# cache re-keyed to the new template hashes (RESUME=1: only the configurations it
# lacks are compiled and measured), then compared in interleaved rounds.
cp .dev-tune8/tune.db $OUT/tune.db
CHOICE=1 TIMING=graph OVERLAP=1 RESUME=1 TUNE_UNTIL=${TUNE_UNTIL:-200} STOP=${STOP:-300} \
REMEASURE=3 ROUNDS=3 COMPARE_REP=30 CELLS="ab:1000:1000:1000 atb:1000:1000:1000
atbt:1000:1000:1000 ab:8192:128:8192 abt:8192:128:8192 ab:4097:4097:4097
atbt:4097:4097:4097 abt:4097:4097:4097 atb:2048:2048:2048" \
  sh .dev-tune8/bench/tune/study.sh .dev-tune8 >$OUT/study.log 2>&1
tail -40 $OUT/study.log

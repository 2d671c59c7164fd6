#!/bin/sh
# issue 15, tune9, second call: the first call's cache (run9/tune.db) with the records of
# abt 1000 and atb, atbt 8192x128x8192 re-keyed for a tuned BK (rekey.py); the eight
# cells where 64 x 64 tiles leave the SMs under two waves at 1000 and 8192x128x8192
# tuned over the new space (the first call's five measure nothing), the other twelve
# FP16 cells and FP8 abt 1024 compared from the cache: the one table of run9.
cp .dev-tune9/tune.db $OUT/tune.db
CHOICE=1 TIMING=graph OVERLAP=1 RESUME=1 FREE_BK=1 TUNE_UNTIL=${TUNE_UNTIL:-200} \
STOP=${STOP:-420} REMEASURE=3 ROUNDS=3 COMPARE_REP=30 CELLS="ab:1000:1000:1000
abt:1000:1000:1000 atb:1000:1000:1000 atbt:1000:1000:1000 ab:8192:128:8192
abt:8192:128:8192 atb:8192:128:8192 atbt:8192:128:8192" \
COMPARE="ab:1024:1024:1024 abt:1024:1024:1024 atb:1024:1024:1024 atbt:1024:1024:1024
ab:2048:2048:2048 abt:2048:2048:2048 atb:2048:2048:2048 atbt:2048:2048:2048
ab:4097:4097:4097 abt:4097:4097:4097 atb:4097:4097:4097 atbt:4097:4097:4097
abt_e4m3:1024:1024:1024" \
  sh .dev-tune9/bench/tune/study.sh .dev-tune9 >$OUT/study.log 2>&1
tail -45 $OUT/study.log

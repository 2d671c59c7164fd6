#!/bin/sh
# issue 15, tune9: BK (32, 64, 128) and a fifth stage in the space where 64 x 64 tiles
# leave the SMs under two waves (the specs and choice.lego); the five cells short of or
# on the edge of the cuBLAS floor after run8 tuned on the time from a CUDA graph over
# what run8's cache lacks (RESUME=1, FREE_BK=1: its records re-keyed by rekey.py), and
# the other 15 FP16 cells and FP8 abt 1024 compared from the cache (COMPARE), all in
# one call, side by side with cuBLAS.
cp .dev-tune9/tune.db $OUT/tune.db
CHOICE=1 TIMING=graph OVERLAP=1 RESUME=1 FREE_BK=1 TUNE_UNTIL=${TUNE_UNTIL:-260} \
STOP=${STOP:-420} REMEASURE=3 ROUNDS=3 COMPARE_REP=30 CELLS="ab:1000:1000:1000
atb:1000:1000:1000 atbt:1000:1000:1000 ab:8192:128:8192 abt:8192:128:8192" \
COMPARE="abt:1000:1000:1000 ab:1024:1024:1024 abt:1024:1024:1024 atb:1024:1024:1024
atbt:1024:1024:1024 ab:2048:2048:2048 abt:2048:2048:2048 atb:2048:2048:2048
atbt:2048:2048:2048 ab:4097:4097:4097 abt:4097:4097:4097 atb:4097:4097:4097
atbt:4097:4097:4097 atb:8192:128:8192 atbt:8192:128:8192 abt_e4m3:1024:1024:1024" \
  sh .dev-tune9/bench/tune/study.sh .dev-tune9 >$OUT/study.log 2>&1
tail -45 $OUT/study.log

#!/bin/sh
# issue 15, tune7: the small and awkward cells tuned on the time from a CUDA graph
# (TIMING=graph), with tiles of 32 in the space where 64x64 tiles leave the SMs under two
# waves; 30 configurations a cell drawn by the seeded random search from the constrained
# space (BUDGET), compiled beside the tuning (OVERLAP); compare.py times per call, from a
# graph, and the tuned kernel's pre-bound launch.
CHOICE=1 TIMING=graph BUDGET=30 OVERLAP=1 TUNE_UNTIL=200 STOP=300 REMEASURE=3 ROUNDS=3 \
COMPARE_REP=30 CELLS="ab:1024:1024:1024 abt:1024:1024:1024 atb:1024:1024:1024
atbt:1024:1024:1024 ab:1000:1000:1000 abt:1000:1000:1000 atb:1000:1000:1000
atbt:1000:1000:1000 abt_e4m3:1024:1024:1024 ab:2048:2048:2048 abt:2048:2048:2048
atb:2048:2048:2048 atbt:2048:2048:2048 ab:8192:128:8192 abt:8192:128:8192
atb:8192:128:8192 atbt:8192:128:8192 ab:4097:4097:4097 abt:4097:4097:4097
atb:4097:4097:4097 atbt:4097:4097:4097" \
  sh .dev-tune7/bench/tune/study.sh .dev-tune7 >$OUT/study.log 2>&1
cp /tmp/study/server.log $OUT/ 2>/dev/null
tail -30 $OUT/study.log

#!/bin/sh
# issue 15, tune6: the cells that missed in run4 (1024, 1000, 2048, FP8 1024, 8192x128x8192)
# from an empty cache with the new space (KERNEL 4: the generic kernel; SPLIT_K in
# {1, 2, 4, 8}), timed per call, the 3 fastest of each cell re-measured in 3 interleaved
# rounds; compare.py adds the CUDA-graph timing.  The smallest cells first: split-K is for them.
CHOICE=1 TUNE_UNTIL=${TUNE_UNTIL:-440} STOP=${STOP:-580} REMEASURE=3 ROUNDS=3 CELLS=${CELLS:-"
ab:1024:1024:1024 abt:1024:1024:1024 atb:1024:1024:1024 atbt:1024:1024:1024
ab:1000:1000:1000 abt:1000:1000:1000 atb:1000:1000:1000 atbt:1000:1000:1000
atb:2048:2048:2048 ab:2048:2048:2048 abt_e4m3:1024:1024:1024
abt:2048:2048:2048 atbt:2048:2048:2048"} \
  sh .dev-tune6/bench/tune/study.sh .dev-tune6 >$OUT/study.log 2>&1
cp /tmp/study/server.log $OUT/ 2>/dev/null
tail -40 $OUT/study.log

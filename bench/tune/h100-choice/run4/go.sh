#!/bin/sh
# issue 15, tune5: the whole FP16 grid and FP8 from an empty cache, timed per call
# (triton_runner.bench), the 3 fastest of each cell re-measured in 3 interleaved rounds;
# compare.py adds the CUDA-graph timing.  Launch-bound cells and autotune's misses first,
# so that they are compared if the call's time runs out.
CHOICE=1 TUNE_UNTIL=420 STOP=575 REMEASURE=3 ROUNDS=3 CELLS="
ab:1024:1024:1024 abt:1024:1024:1024 atb:1024:1024:1024 atbt:1024:1024:1024
ab:1000:1000:1000 abt:1000:1000:1000 atb:1000:1000:1000 atbt:1000:1000:1000
abt_e4m3:1024:1024:1024
atb:2048:2048:2048 abt:4097:4097:4097 atbt:4097:4097:4097
ab:2048:2048:2048 abt:2048:2048:2048 atbt:2048:2048:2048
ab:4097:4097:4097 atb:4097:4097:4097
ab:8192:128:8192 abt:8192:128:8192 atb:8192:128:8192 atbt:8192:128:8192
ab:4096:4096:4096 abt:4096:4096:4096 atb:4096:4096:4096 atbt:4096:4096:4096
ab:8192:8192:8192 abt:8192:8192:8192 atb:8192:8192:8192 atbt:8192:8192:8192
abt_e4m3:4096:4096:4096 abt_e4m3:8192:8192:8192" \
  sh .dev-tune5/bench/tune/study.sh .dev-tune5 >$OUT/study.log 2>&1
cp /tmp/study/server.log $OUT/ 2>/dev/null
tail -45 $OUT/study.log

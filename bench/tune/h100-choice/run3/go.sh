#!/bin/sh
# issue 15, tune4: the runner's time now takes the host's time of a call (triton_runner.bench)
CHOICE=1 TUNE_UNTIL=230 STOP=330 CELLS="atbt:1024:1024:1024 abt_e4m3:1024:1024:1024 ab:1000:1000:1000 abt:1000:1000:1000 atbt:1000:1000:1000" \
  sh .dev-tune4/bench/tune/study.sh .dev-tune4 >$OUT/study.log 2>&1
cp /tmp/study/server.log $OUT/ 2>/dev/null
tail -30 $OUT/study.log

#!/bin/sh
# The device run of the Triton benchmark (one call of the device tool):
#   sh bench/triton/run.sh        (OUT is set by the device tool)
# Prints the GPU, then bench.py's table; bench.log, results.json, table.md
# and fig12.png land in $OUT.
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
PYTHONUNBUFFERED=1 python3 bench/triton/bench.py "$@"

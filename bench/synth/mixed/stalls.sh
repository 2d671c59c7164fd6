#!/bin/sh
# stalls.sh N K M NAME.. - on the device, in the folder of build.sh: why the
# warps of one instance wait (ncu's stall reasons a issued instruction, its
# HMMA count and pipe use), one call each (prof.py checks it first).  The
# PC sampling behind ncu's WarpStateStats breakdown is not available there.
m=smsp__average_warps_issue_stalled
metrics=sm__inst_executed_pipe_tensor_op_hmma.sum,smsp__inst_executed.sum,gpu__time_duration.sum
metrics=$metrics,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,smsp__issue_active.avg.per_cycle_active,smsp__warps_active.avg.per_cycle_active
metrics=$metrics,launch__registers_per_thread
for s in barrier long_scoreboard short_scoreboard math_pipe_throttle mio_throttle wait not_selected \
	selected dispatch_stall lg_throttle membar no_instruction branch_resolving drain imc_miss misc \
	tex_throttle sleeping; do
	metrics=$metrics,${m}_${s}_per_issue_active.ratio
done
exec ncu --clock-control none -k regex:w4a16 --metrics "$metrics" python3 prof.py "$@"

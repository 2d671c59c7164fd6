#!/bin/sh
# ncu.sh OUT - on the device: the counters of bench/lift/ncu-h100.txt
# (OUT built by gpu.sh): DRAM bytes, L1 and L2 sectors of the Lift
# Jacobi 2-D and 3-D kernels beside their references and the copy, and
# the best unrolled mmvec's issue, occupancy and bank conflicts.  The
# RESULT lines ncu lets through are timed under the profiler: not the
# study's figures (those are h100.txt's).
g=$1/gpu
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
m=$m,sm__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,lts__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
for k in stencil2d ref_stencil2d ref_copy; do
	LIFT_ONLY=jacobi2d ncu -k regex:"^$k\$" -c 1 --metrics $m "$g"
done
for k in jacobi3d_f ref_jacobi3d; do
	LIFT_ONLY=jacobi3d ncu -k regex:"^$k\$" -c 1 --metrics $m "$g"
done
LIFT_ONLY=matmul ncu -k regex:'^mmvec16x8k16_u_f$' -c 1 --section SpeedOfLight \
	--section WarpStateStats --section Occupancy --metrics \
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum \
	"$g"

#!/bin/sh
# run_device.sh DIR OUT - on the GPU machine: the runner over the cubins
# that bench/mlir/build.sh put in DIR (log in OUT/run.log), then Nsight
# Compute on the first 4096 launch of the wgmma matmul (OUT/ncu.txt).
# Both under a time limit (a kernel that hangs still leaves its log).
# libcublas from the CUDA toolkit, else from the Python wheels
# (nvidia-cublas).
dir=${1:-build/mlir-bench}
out=${2:-.}
lib=/usr/local/cuda/lib64
if [ ! -e "$lib/libcublas.so.13" ]; then
	lib=$(python3 -c 'import nvidia.cublas, os; print(os.path.dirname(nvidia.cublas.__file__) + "/lib")' 2>/dev/null)
fi
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv |
	tee "$out/run.log"
timeout 150 "$dir/runner" "$dir" >"$out/runner.log" 2>&1
status=$?
cat "$out/runner.log" >>"$out/run.log" && rm -f "$out/runner.log"
cat "$out/run.log"
# Launches 1-4 of matmul_wgmma are the small checks it supports; the 5th
# is its first 4096 launch.
timeout 90 ncu --kernel-name matmul_wgmma --launch-skip 4 --launch-count 1 \
	--section SpeedOfLight --section Occupancy --section WarpStateStats \
	--section LaunchStats --section ComputeWorkloadAnalysis \
	"$dir/runner" "$dir" matmul >"$out/ncu.txt" 2>&1
grep -E "Throughput|Pipe|Occupancy|Stall|Registers|Issued|Eligible|Active Warps|Duration" \
	"$out/ncu.txt" | head -60
exit $status

#!/bin/sh
# mlir-tools.sh - makes sure the MLIR tools (mlir-opt, mlir-translate) are
# installed and prints their directory.  Debian's mlir-22-tools first,
# mlir-19-tools when 22 is not packaged; apt-get needs root.
# Progress and errors go to stderr, so `dir=$(sh scripts/mlir-tools.sh)`.
for v in 22 19; do
	if [ -x /usr/lib/llvm-$v/bin/mlir-opt ] &&
	   [ -x /usr/lib/llvm-$v/bin/mlir-translate ]; then
		echo /usr/lib/llvm-$v/bin
		exit 0
	fi
done
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "mlir-tools: not installed; as root: apt-get install mlir-22-tools" >&2
	exit 1
fi
apt-get update -qq >&2
for v in 22 19; do
	if apt-cache show mlir-$v-tools >/dev/null 2>&1; then
		echo "mlir-tools: installing mlir-$v-tools" >&2
		if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			mlir-$v-tools >&2 && [ -x /usr/lib/llvm-$v/bin/mlir-opt ]; then
			echo /usr/lib/llvm-$v/bin
			exit 0
		fi
	fi
done
echo "mlir-tools: neither mlir-22-tools nor mlir-19-tools could be installed" >&2
exit 1

#!/bin/sh
# nw_cpu.sh LEGO TEMPLATE OUT - every configuration of the NW study's
# space (bench/tune/nw/nw.cu.tpl at N = 128) generated, compiled with
# nw_cpu.cc's stand-ins for CUDA and run on the CPU against the
# recurrence; OUT: a scratch folder.  Prints nw_cpu.cc's lines.
lego=$1 tpl=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
: >"$out/nw_kernels.h"
list=
for cfg in $("$lego" tune "$tpl" --list -D N=128 | tr ' ' ,); do
	name=nw_$(echo "$cfg" | tr -d 'BS=' | tr , _)
	b=$(echo "$cfg" | sed 's/^B=\([0-9]*\),.*/\1/')
	"$lego" gen "$tpl" --target cuda -D N=128 $(echo ",$cfg" | sed 's/,/ -D /g') \
		-o "$out/k.cu" || exit 1
	{ echo "namespace $name {"; sed 's/^extern "C" //' "$out/k.cu"; echo "}"; } \
		>>"$out/nw_kernels.h"
	list="$list X($name, $b)"
done
echo "#define LEGO_NW_KERNELS(X)$list" >>"$out/nw_kernels.h"
c++ -std=c++14 -O1 -pthread -I"$out" -o "$out/nw_cpu" "$here/nw_cpu.cc" || exit 1
"$out/nw_cpu"

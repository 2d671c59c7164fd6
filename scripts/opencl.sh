#!/bin/sh
# Installs what the OpenCL examples need (PoCL, the CPU OpenCL driver, and
# the ICD loader with headers) when missing.  Debian/Ubuntu; used by CI.
set -e
if [ -f /usr/include/CL/cl.h ] && ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
	exit 0
fi
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq pocl-opencl-icd ocl-icd-opencl-dev

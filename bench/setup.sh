#!/bin/sh
# bench/setup.sh — installs what `make bench` uses beyond the build's own
# dependencies, from Debian's packages: POCL's CPU OpenCL device and the
# ICD loader (the POCL baseline), Oclgrind (the emulator baseline),
# gnuplot (the plots) and clinfo (to look at the OpenCL platforms).
# Idempotent: packages already installed are left as they are.  Run as
# root (or with sudo) on Debian 12:
#     sh bench/setup.sh
# wbench needs no OpenCL header or library to build: it loads
# libOpenCL.so.1 at run time, so without these packages the benchmarks
# still run and the missing baselines are reported as n/a.
set -eu

pkgs="pocl-opencl-icd ocl-icd-libopencl1 oclgrind gnuplot-nox clinfo"

missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "bench/setup.sh: everything is installed ($pkgs)"
else
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			SUDO=sudo
		else
			echo "bench/setup.sh: run as root to install:$missing" >&2
			exit 1
		fi
	else
		SUDO=
	fi
	echo "bench/setup.sh: installing:$missing"
	$SUDO apt-get update -q
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
fi

# Show what OpenCL sees (POCL should be listed).
if command -v clinfo >/dev/null 2>&1; then
	clinfo -l || true
fi

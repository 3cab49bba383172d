#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The upstream-suite fixture: an unmodified rdma-core built with pyverbs.
#
#   build_rdma_core.sh SOURCE WORKDIR PYTHON
#
# SOURCE is a release tarball (rdma-core-64.0.tar.xz) or a checkout;
# WORKDIR/src holds the extracted tree, WORKDIR/build the build, whose
# bin/run_tests.py run_suite.sh runs.  A build that is already there is
# only brought up to date.  Without SOURCE: SKIPPED, exit 77.
set -euo pipefail

src=${1:?source}
work=${2:?workdir}
py=${3:-/usr/bin/python3}

if [ ! -e "$src" ]; then
	echo "SKIPPED: no rdma-core source at $src (-DRDMA_CORE_SOURCE=)"
	exit 77
fi
for tool in cmake ninja "$py"; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIPPED: $tool is not installed (cmake/debian-packages.txt)"
		exit 77
	fi
done
if ! "$py" -c 'import Cython' 2>/dev/null; then
	echo "SKIPPED: $py has no Cython (Debian package cython3)"
	exit 77
fi

mkdir -p "$work"
start=$(date +%s)
if [ -d "$src" ]; then
	tree=$(cd "$src" && pwd)
else
	# one extraction per tarball (its size and time name it)
	stamp="$(stat -c '%s %Y' "$src") $src"
	if [ "$(cat "$work/src.stamp" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$work/src" "$work/build" "$work/src.stamp"
		mkdir -p "$work/src"
		tar -xf "$src" -C "$work/src"
		echo "$stamp" >"$work/src.stamp"
	fi
	tree=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d | head -n1)
fi
if [ ! -f "$tree/CMakeLists.txt" ]; then
	echo "build_rdma_core.sh: $src is not an rdma-core tree" >&2
	exit 1
fi

if [ ! -f "$work/build/build.ninja" ]; then
	cmake -S "$tree" -B "$work/build" -GNinja -DNO_MAN_PAGES=1 \
		-DPYTHON_EXECUTABLE="$py" >"$work/cmake.log" 2>&1 || {
		tail -n 40 "$work/cmake.log" >&2
		exit 1
	}
fi
ninja -C "$work/build" -j2 >"$work/ninja.log" 2>&1 || {
	tail -n 40 "$work/ninja.log" >&2
	exit 1
}
if [ ! -f "$work/build/bin/run_tests.py" ] ||
   ! ls "$work/build/python/pyverbs/"*.so >/dev/null 2>&1; then
	echo "build_rdma_core.sh: the build has no pyverbs" >&2
	exit 1
fi
echo "rdma-core with pyverbs built in $work/build in $(($(date +%s) - start)) s"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# upstream_check_build: rdma-core's own buildlib/check-build --src, as its
# CI runs it, on the patched tree the upstream_rdma_core fixture built
# (gcc, -DENABLE_STATIC=1, man pages, pyverbs): symbol versions, provider
# private ABI, every public header compiled alone (C and C++), and static
# and shared links of every library through pkg-config.
# usage: check_build.sh PATCHED_TREE
set -uo pipefail
name=upstream_check_build
tree=$1
if [[ ! -x "$tree/buildlib/check-build" || ! -f "$tree/build/build.ninja" ]]
then
	echo "FAIL: $name: no patched build at $tree (fixture upstream_build)"
	exit 1
fi
cd "$tree/build" || exit 1
if /usr/bin/python3 ../buildlib/check-build --src .. --cc gcc; then
	echo "PASS: $name: buildlib/check-build --src passes on the patched tree"
	exit 0
fi
echo "FAIL: $name: buildlib/check-build --src fails on the patched tree"
exit 1

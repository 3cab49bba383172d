#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The upstream fixture: builds rdma-core twice from SOURCE (a tarball made
# with git archive, or a checkout) under WORK:
#   WORK/base      unpatched: libibverbs and libmlx5 only
#   WORK/patched   the series applied with git am one patch at a time,
#                  libibverbs and libmlx5 built with -Werror after each
#                  patch, then the whole tree with pyverbs, static
#                  libraries and man pages
# (RelWithDebInfo without -g: RC_NO_DEBUG_INFO, tests/common;
# build dirs WORK/{base,patched}/build, configured IN_PLACE so that the
# build's own libibverbs finds the build's providers), then this
# repository's scenario programs against each (WORK/{base,patched}/apps).
#
# usage: build_rdma_core.sh SOURCE SERIES_DIR PROJECT_ROOT WORK
set -euo pipefail

name=upstream_build
src=${1:-} series=$2 root=$3 work=$4

if [[ -z "$src" || ! -e "$src" ]]; then
	echo "SKIPPED: $name: no rdma-core source (configure with" \
	     "-DRDMA_CORE_SOURCE=<tarball or checkout>)"
	exit 77
fi
for tool in git ninja cmake tar; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIPPED: $name: $tool is not installed"
		exit 77
	fi
done

jobs=${UPSTREAM_JOBS:-1}
python=/usr/bin/python3
# -Werror through rdma-core's own switch; no man pages (pandoc).
# rc_unpack, rc_git_base (a fixed identity for git am), rc_am_build,
# rc_cmake_python, RC_NO_DEBUG_INFO (RelWithDebInfo's -O2 without -g)
. "$root/tests/common/rdma_core_tree.sh"

common=(-GNinja -DIN_PLACE=1 -DENABLE_WERROR=1 -DNO_MAN_PAGES=1
	-DCMAKE_BUILD_TYPE=RelWithDebInfo "${RC_NO_DEBUG_INFO[@]}")

build_apps() {
	cmake -S "$root/tests/upstream/against" -B "$1/apps" \
		-DRDMA_CORE_BUILD="$1/build" -DPROJECT_ROOT="$root" >/dev/null
	cmake --build "$1/apps" -j "$jobs"
}

# The unpatched build depends on the source alone: a rerun on the same
# source reuses it.
stamp="$(realpath "$src") $(stat -c '%s %Y' "$src")"
if [[ "$(cat "$work/base/.built-from" 2>/dev/null)" != "$stamp" ]]; then
	echo "== unpatched: libibverbs and libmlx5"
	rm -rf "$work/base"
	rc_unpack "$src" "$work/base"
	# shellcheck disable=SC2046
	cmake -S "$work/base" -B "$work/base/build" "${common[@]}" \
		-DNO_PYVERBS=1 $(rc_cmake_python) >/dev/null
	ninja -C "$work/base/build" -j "$jobs" ibverbs mlx5 >/dev/null
	echo "$stamp" >"$work/base/.built-from"
else
	echo "== unpatched: reusing $work/base/build"
fi
build_apps "$work/base"

rm -rf "$work/patched"

echo "== patched: one patch at a time"
rc_unpack "$src" "$work/patched"
rc_git_base "$work/patched" "rdma-core $(basename "$src")"
# Configured with pyverbs from the start: the per-patch builds still
# build only ibverbs and mlx5, and the final one reuses them.
# Static libraries and man pages too, as rdma-core's CI builds the tree
# that its buildlib/check-build inspects (upstream_check_build).
cmake -S "$work/patched" -B "$work/patched/build" "${common[@]}" \
	-DNO_PYVERBS=0 -DPYTHON_EXECUTABLE="$python" -DENABLE_STATIC=1 \
	-DNO_MAN_PAGES=0 >/dev/null
rc_am_build "$work/patched" "$work/patched/build" "$series" "" || exit 1

echo "== patched: whole tree with pyverbs"
if ! ninja -C "$work/patched/build" -j "$jobs" >"$work/patched/ninja.log" \
	2>&1; then
	tail -50 "$work/patched/ninja.log"
	echo "FAIL: the patched tree does not build"
	exit 1
fi
build_apps "$work/patched"
echo "rdma-core built: $work/base/build (unpatched), $work/patched/build"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# upstream_series_v64: the series on another base (rdma-core 64.0, a
# test input: the series is posted for master) applies with git am, and
# libibverbs and libmlx5 build with -Werror after every patch.
# usage: check_base.sh NAME SOURCE PROJECT_ROOT WORK SERIES_DIR
set -euo pipefail
name=$1 src=${2:-} root=$3 work=$4 series=$5
if [[ -z "$src" || ! -e "$src" ]]; then
	echo "SKIPPED: $name: no rdma-core source for this base"
	exit 77
fi
for tool in git ninja cmake tar; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIPPED: $name: $tool is not installed"
		exit 77
	fi
done
. "$root/tests/common/rdma_core_tree.sh"

rm -rf "$work"
rc_unpack "$src" "$work/tree"
rc_git_base "$work/tree" "base $(basename "$src")"
# shellcheck disable=SC2046
cmake -S "$work/tree" -B "$work/build" -GNinja -DIN_PLACE=1 \
	-DENABLE_WERROR=1 -DNO_MAN_PAGES=1 -DNO_PYVERBS=1 $(rc_cmake_python) \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo "${RC_NO_DEBUG_INFO[@]}" >/dev/null
rc_am_build "$work/tree" "$work/build" "$series" "$name: " || exit 1
echo "PASS: $name: the series for $(basename "$src") applies and builds" \
     "with -Werror at every patch"

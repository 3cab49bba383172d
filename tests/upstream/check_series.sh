#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# upstream_series: regenerates the patch series from this repository into
# OUT and fails when it differs from the committed upstream/patches.
# usage: check_series.sh SOURCE PROJECT_ROOT OUT
set -euo pipefail
src=${1:-} root=$2 out=$3
if [[ -z "$src" || ! -e "$src" ]]; then
	echo "SKIPPED: upstream_series: no rdma-core source (configure with" \
	     "-DRDMA_CORE_SOURCE=<tarball or checkout>)"
	exit 77
fi
rm -rf "$out"
/usr/bin/python3 "$root/upstream/gen-series.py" "$src" "$out"
if ! diff -ru "$root/upstream/patches" "$out"; then
	echo "FAIL: upstream/patches is not what upstream/gen-series.py makes;"
	echo "      regenerate: upstream/gen-series.py $src upstream/patches"
	exit 1
fi
echo "PASS: upstream/patches ($(ls "$out" | wc -l) files) is current"

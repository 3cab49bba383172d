#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The figures of the cover letter: upstream_bench against unpatched and
# patched rdma-core 64, in one mlx5-emu run (a benchmark, not a test).
# usage: tests/upstream/run_bench.sh [BUILD_DIR [ITERATIONS]]
set -euo pipefail
build=$(realpath "${1:-build}")
n=${2:-20000}
rc=$build/rdma-core-64
exec "$build/bin/mlx5-emu" run --devices 1 -- bash -c "
	echo '== unpatched rdma-core 64'
	'$rc/base/apps/upstream_bench' $n
	echo '== patched rdma-core 64'
	'$rc/patched/apps/upstream_bench' $n"

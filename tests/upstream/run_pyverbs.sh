#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# upstream_pyverbs: upstream's DEVX and VAR tests and the series' new
# negative tests, through the patched tree's pyverbs, under mlx5-emu.
# Upstream's own skips stand (its traffic tests need a port with a GID);
# the new tests must run, not skip, since mlx5-emu has what they need.
# usage: run_pyverbs.sh PATCHED_TREE
set -uo pipefail
tree=$1
out=$("$tree/build/bin/run_tests.py" -v -k test_mlx5_devx -k test_mlx5_var \
	-k test_mlx5_export_checks 2>&1)
rc=$?
printf '%s\n' "$out"
ran=$(grep -c "test_mlx5_export_checks.*\.\.\. ok$" <<<"$out")
if [[ $rc -ne 0 ]]; then
	echo "FAIL: upstream_pyverbs: unittest failed (exit $rc)"
	exit 1
fi
if [[ $ran -lt 7 ]]; then
	echo "FAIL: upstream_pyverbs: only $ran of the new tests passed" \
	     "(the rest skipped)"
	exit 1
fi
echo "PASS: upstream_pyverbs ($ran new tests passed)"

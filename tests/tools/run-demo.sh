#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs mlx5-share-demo and checks what a user would look at: its exit
# status, its summary, and that it said which device it used.
#
#   run-demo.sh OBJECTS DEMO [ARGS...]
#
# OBJECTS is the number of objects the summary must report as shared.
# The demo's output is echoed, so that ctest --output-on-failure shows it.

set -u
name=run-demo
objects=$1
shift
# shellcheck source=demo-output.sh
. "$(dirname "$0")/demo-output.sh"

demo_run 0 "$@"
want '^mlx5-share-demo: using the (emulated \(mlx5-emu\)|real) device mlx5_[0-9]+, node GUID [0-9a-f]{4}(:[0-9a-f]{4}){3}$'
want "^summary: $objects objects? shared \\("
want '^summary: checks: [1-9][0-9]* passed, 0 failed'
if printf '%s\n' "$out" | grep -Eq ' FAIL( |$)'; then
	echo "run-demo: FAIL: a step failed" >&2
	failed=1
fi
demo_done

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
want=$1
shift
out=$("$@" 2>&1)
st=$?
printf '%s\n' "$out"

failed=0
check() {
	if ! printf '%s\n' "$out" | grep -Eq -- "$1"; then
		echo "run-demo: FAIL: no line matching '$1'" >&2
		failed=1
	fi
}
if [ "$st" -ne 0 ]; then
	echo "run-demo: FAIL: the demo exited $st" >&2
	failed=1
fi
check '^mlx5-share-demo: using the (emulated \(mlx5-emu\)|real) device mlx5_[0-9]+, node GUID [0-9a-f]{4}(:[0-9a-f]{4}){3}$'
check "^summary: $want objects? shared \\("
check '^summary: checks: [1-9][0-9]* passed, 0 failed'
if printf '%s\n' "$out" | grep -Eq ' FAIL( |$)'; then
	echo "run-demo: FAIL: a step failed" >&2
	failed=1
fi
[ "$failed" -eq 0 ] && echo "run-demo: ok"
exit "$failed"

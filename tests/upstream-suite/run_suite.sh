#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdma-core's whole tests/ suite (tests/run_tests.py, pyverbs) under
# mlx5-emu with two devices; passes only with no error and no failure.
#
#   run_suite.sh MLX5_EMU RDMA_CORE_BUILD
#
# RDMA_CORE_BUILD is any rdma-core build tree with pyverbs (this folder's
# fixture builds an unmodified one; a patched one serves as well); its
# bin/run_tests.py is a shell wrapper that runs tests/run_tests.py with
# the python the tree was configured with.
# Prints the pass/skip/error/failure counts and the skip reasons.
set -uo pipefail

emu=${1:?mlx5-emu}
build=${2:?rdma-core build dir}

if [ ! -f "$build/bin/run_tests.py" ]; then
	echo "SKIPPED: no rdma-core build with pyverbs at $build"
	exit 77
fi
if ! command -v rdma >/dev/null; then
	echo "SKIPPED: iproute2's rdma is not installed (the harness runs it)"
	exit 77
fi

# UPSTREAM_SUITE_LOG keeps the whole unittest -v log there
log=${UPSTREAM_SUITE_LOG:-$(mktemp)}
[ -n "${UPSTREAM_SUITE_LOG:-}" ] || trap 'rm -f "$log"' EXIT
start=$(date +%s)
"$emu" run --devices 2 -- "$build/bin/run_tests.py" -v >"$log" 2>&1
rc=$?
secs=$(($(date +%s) - start))

ran=$(sed -n 's/^Ran \([0-9]*\) tests\? in .*/\1/p' "$log" | tail -n1)
count() {
	sed -n "s/^\(OK\|FAILED\) .*[(,] *$1=\([0-9]*\).*/\2/p" "$log" |
		tail -n1
}
failures=$(count failures)
errors=$(count errors)
skipped=$(count skipped)
xfail=$(count 'expected failures')
xpass=$(count 'unexpected successes')
failures=${failures:-0} errors=${errors:-0} skipped=${skipped:-0}
xfail=${xfail:-0} xpass=${xpass:-0}

if [ -z "$ran" ]; then
	tail -n 60 "$log"
	echo "upstream-suite: the suite did not finish (exit $rc)"
	exit 1
fi
passed=$((ran - failures - errors - skipped - xfail - xpass))

echo "== skip reasons (count, reason) =="
# unittest quotes a reason with repr(): double quotes when it has a '
sed -n -e "s/.*\bskipped '\(.*\)'$/\1/p" \
	-e 's/.*\bskipped "\(.*\)"$/\1/p' "$log" | sort | uniq -c | sort -rn
if [ "$errors" -ne 0 ] || [ "$failures" -ne 0 ]; then
	echo "== errors and failures =="
	grep -E '^(ERROR|FAIL):' "$log"
	echo "== details =="
	sed -n '/^======/,$p' "$log" | head -n 400
fi
echo "upstream-suite: ran $ran in $secs s: $passed passed, $skipped skipped," \
	"$errors errors, $failures failures"
[ "$errors" -eq 0 ] && [ "$failures" -eq 0 ] && [ "$xpass" -eq 0 ] &&
	[ "$ran" -gt 0 ]

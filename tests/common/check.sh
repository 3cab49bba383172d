# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The shell tests' harness, check.h's counterpart; sourced by a script
# that has set name:
#   check WHAT CMD...  counts a pass when CMD succeeds, else a failure
#   ok / fail WHAT     count one directly (a step already judged)
#   skip WHY           prints "SKIPPED: name: WHY" and exits 77
#   finish             prints "name: N passed, N failed" and exits 0 or 1
passed=0 failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
check() { local what=$1; shift; if "$@"; then ok; else fail "$what"; fi; }
skip() { echo "SKIPPED: $name: $*"; exit 77; }
finish() {
	echo "$name: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

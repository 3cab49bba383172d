#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The runner's own contract (tests/vm/README.md), two boots: a guest
# program's exit code comes back as vm_run.sh's, and a program that hangs
# is killed at the timeout and reported failed with the console's tail.
# Usage: vm_selftest.sh WORK_DIR
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
W=$1
fail() { echo "FAIL: $*"; exit 1; }

out=$(sh "$HERE/vm_run.sh" --work "$W" --no-rxe -- /bin/sh -c \
	'echo guest-says-hello; exit 3')
rc=$?
echo "$out"
[ "$rc" != 77 ] || exit 77
[ "$rc" = 3 ] || fail "exit code $rc, want the guest's 3"
echo "$out" | grep -q '^guest-says-hello$' ||
	fail "the guest's output is missing"

out=$(sh "$HERE/vm_run.sh" --work "$W" --no-rxe --timeout 25 -- \
	/bin/sleep 1000)
rc=$?
echo "$out"
[ "$rc" = 1 ] || fail "a hang gave exit code $rc, want 1"
echo "$out" | grep -q '^FAIL: timeout after 25 s' ||
	fail "no timeout report"
echo "$out" | grep -q -- '^-- console tail:' || fail "no console tail"
echo "PASS: exit code passed through, hang killed and reported"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The runner's own contract (tests/vm/README.md), three boots: a guest
# program's exit code comes back as vm_run.sh's, a program that hangs
# is killed at the timeout and reported failed with the console's tail,
# and a guest kernel that panics is a failure named as a panic, with the
# panic's lines, even when the program had already exited 0.
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
# sysrq's crash panics the kernel from the shell that asked for it; the
# first command has exited 0 by then, the second never runs
cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT
printf '%s\n' /bin/true 'echo c >/proc/sysrq-trigger' >"$cmds"
out=$(sh "$HERE/vm_run.sh" --work "$W" --no-rxe --timeout 120 --cmds "$cmds")
rc=$?
echo "$out"
[ "$rc" = 1 ] || fail "a panic gave exit code $rc, want 1"
echo "$out" | grep -q '^FAIL: guest kernel panic: Kernel panic' ||
	fail "the panic is not named as one"
echo "$out" | grep -q 'sysrq' || fail "the panic's own lines are missing"

echo "PASS: exit code passed through, hang killed and reported," \
	"panic named with its lines"

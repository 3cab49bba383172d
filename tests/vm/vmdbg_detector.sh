#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Proves on the debug kernel that the runner's strict console check can
# fail: the guest asks for sysrq-l (a backtrace of the active CPUs,
# harmless), whose "Call Trace:" must make the runner exit 1 with
# "FAIL: guest kernel report".  Passes (0) when it did; 1 when the run
# passed or failed for another reason; 77 when the runner skipped.
#
# Usage: vmdbg_detector.sh VM_RUN_COMMAND... (with --kernel and
#        --strict-console; the guest command is this script's)
out=$("$@" -- /bin/sh -c 'echo l >/proc/sysrq-trigger; sleep 1' 2>&1)
rc=$?
echo "$out"
[ "$rc" = 77 ] && exit 77
if [ "$rc" = 1 ] && echo "$out" | grep -q '^FAIL: guest kernel report: '; then
	echo "PASS: the kernel's report failed the run, as it must"
	exit 0
fi
echo "FAIL: the runner exited $rc without naming the report"
exit 1

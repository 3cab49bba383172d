#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A debug kernel's console log judged (tests/kernel/build_debug_kernel.sh,
# the runners' strict mode): exit 1 when the kernel reported anything --
# a KASAN report, a lockdep splat ("WARNING: possible ...", "inconsistent
# lock state", ...), "suspicious RCU usage", "BUG: sleeping function
# called from invalid context", any other BUG:/WARNING:, or any stack
# trace -- printing "FAIL: guest kernel report: <its line>", the count of
# reports, and the console from the first one; 0 when there is none.
# Only the kernel's own lines count: they carry its "[ seconds.micro]"
# stamp (CONFIG_PRINTK_TIME), which the guest programs' output on the
# same console does not, wherever a line of theirs was cut by one of
# the kernel's.  The runners call it before console_panic.sh, so a report
# is named for what it is even when an oops followed it.
#
# Usage: console_reports.sh CONSOLE_LOG
log=$1
[ -r "$log" ] || { echo "FAIL: no console log $log"; exit 1; }
stamp='\[ *[0-9]+\.[0-9]{6}\] '
# the reports' first lines (lockdep's "WARNING: ..." and "INFO: ..." ones,
# the RCU and sleep checks', KASAN's "BUG: KASAN: ...") and the traces
what='BUG:|WARNING:|INFO: (possible|trying to register|lockdep)'
what="$what|suspicious RCU usage|Call Trace:|UBSAN:|Oops|Kernel panic"
what="$what|kernel BUG at|general protection fault|list_(add|del) corruption"
tr -d '\r' <"$log" >"$log.reports.tmp"
n=$(grep -cE "$stamp($what)" "$log.reports.tmp" || true)
if [ "$n" = 0 ]; then
	rm -f "$log.reports.tmp"
	exit 0
fi
first=$(grep -nE "$stamp($what)" "$log.reports.tmp" | head -n 1 | cut -d: -f1)
# a lockdep or KASAN report opens with a "=====" rule a line before
from=$first
[ "$first" -gt 1 ] &&
	sed -n "$((first - 1))p" "$log.reports.tmp" | grep -qE "$stamp=+$" &&
	from=$((first - 1))
line=$(sed -n "${first}p" "$log.reports.tmp" |
	sed -E "s/.*$stamp//")
echo "FAIL: guest kernel report: $line"
echo "-- $n report line(s) (BUG/WARNING/INFO/Call Trace) on the console;" \
	"from the first:"
sed -n "$from,\$p" "$log.reports.tmp" | head -n 60
rm -f "$log.reports.tmp"
exit 1

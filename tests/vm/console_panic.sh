#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A guest kernel's console log judged: exit 1 and a "FAIL: guest kernel
# panic" line with the panic's own lines when the kernel oopsed, panicked
# or died of a CPU exception; 0 otherwise.  The runners call it on every
# boot, before they look at the program's result, so a panic is always
# reported as one and never passes for a slow or silent guest.
#
# Usage: console_panic.sh CONSOLE_LOG
log=$1
[ -r "$log" ] || exit 0
# the kernel's own words for a dead CPU or kernel (die(), panic(), BUG())
pat='Kernel panic|Oops|BUG:|general protection fault|double fault'
pat="$pat|invalid opcode:|^(\\[ *[0-9.]+\\] )?int3:|stack segment:"
pat="$pat|kernel stack overflow"
first=$(tr -d '\r' <"$log" | grep -nE "$pat" | head -n 1 | cut -d: -f1)
[ -n "$first" ] || exit 0
echo "FAIL: guest kernel panic: $(tr -d '\r' <"$log" | sed -n "${first}p" |
	sed 's/^\[ *[0-9.]*\] //')"
echo "-- the panic's lines (console):"
tr -d '\r' <"$log" | sed -n "$first,\$p" | head -n 40
exit 1

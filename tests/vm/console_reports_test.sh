#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# console_reports.sh on recorded console texts (console-fixtures/): the
# clean one passes although its guest output says "WARNING:" and "BUG:";
# each report fails the check, which names the report's own line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
F=$here/console-fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
expect() {	# FIXTURE RC NAMED-LINE
	cp "$F/$1" "$tmp/console.log"
	out=$(sh "$here/console_reports.sh" "$tmp/console.log")
	rc=$?
	named=$(echo "$out" | sed -n 's/^FAIL: guest kernel report: //p')
	if [ "$rc" = "$2" ] && [ "$named" = "$3" ]; then
		echo "ok   $1: exit $rc${named:+, named \"$named\"}"
	else
		echo "FAIL $1: exit $rc, named \"$named\"; want exit $2," \
			"named \"$3\""
		echo "$out"
		bad=1
	fi
}
expect clean.txt 0 ""
expect kasan.txt 1 "BUG: KASAN: slab-use-after-free in made_up_function+0x2a/0x80"
expect lockdep.txt 1 "WARNING: possible circular locking dependency detected"
expect rcu.txt 1 "WARNING: suspicious RCU usage"
expect sleep.txt 1 "BUG: sleeping function called from invalid context at made/up.c:12"
expect warn.txt 1 "WARNING: CPU: 1 PID: 60 at made/up.c:34 made_up+0x10/0x20"
expect trace.txt 1 "Call Trace:"
expect cut.txt 1 "WARNING: CPU: 0 PID: 1 at made/up.c:56 made_up+0x1/0x2"
# the report's excerpt starts at the rule above the lockdep header
cp "$F/lockdep.txt" "$tmp/console.log"
sh "$here/console_reports.sh" "$tmp/console.log" | grep -q '=====$' ||
	{ echo "FAIL lockdep.txt: the excerpt lacks the report's rule"; bad=1; }
exit $bad

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Boots a runner N times in a row and counts: the measurement behind
# tests/vm/README.md's boot figures (not a ctest: 200 boots take an hour).
#
# Usage: boot_loop.sh N LOG_DIR -- RUNNER [ARGS...]
#   e.g. boot_loop.sh 200 /tmp/boots -- tests/vm/vm_run.sh \
#		--work build/tests/vm/work -- /bin/true
# Each boot's output is kept in LOG_DIR/NNN.log; a line per boot, then
# the count of boots, passes, guest panics (console_panic.sh's verdict)
# and other failures, and the wall time per boot (min, median, max).
# Exit 0 when every boot passed.
set -u
[ $# -ge 4 ] && [ "$3" = -- ] ||
	{ echo "usage: boot_loop.sh N LOG_DIR -- RUNNER [ARGS...]" >&2; exit 2; }
n=$1 dir=$2
shift 3
mkdir -p "$dir"
: >"$dir/times"
pass=0 panic=0 other=0
i=1
while [ "$i" -le "$n" ]; do
	log=$(printf '%s/%03d.log' "$dir" "$i")
	t0=$(date +%s.%N)
	"$@" >"$log" 2>&1
	rc=$?
	t=$(echo "$(date +%s.%N) - $t0" | bc)
	echo "$t" >>"$dir/times"
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1)) verdict=ok
	elif grep -q '^FAIL: guest kernel panic' "$log"; then
		panic=$((panic + 1))
		verdict="PANIC $(grep -m1 '^FAIL: guest kernel panic' "$log")"
	else
		other=$((other + 1)) verdict="FAILED (exit $rc)"
	fi
	printf 'boot %03d: %5.1f s %s\n' "$i" "$t" "$verdict"
	i=$((i + 1))
done
sort -n "$dir/times" | awk -v n="$n" -v p="$pass" -v k="$panic" -v o="$other" '
	{ t[NR] = $1 }
	END {
		printf "%d boots: %d passed, %d panicked, %d failed otherwise\n",
			n, p, k, o
		printf "wall per boot: min %.1f s, median %.1f s, max %.1f s\n",
			t[1], t[int((NR + 1) / 2)], t[NR]
	}'
[ "$pass" = "$n" ]

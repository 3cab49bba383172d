#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The last close destroys what a process left, retrying the destroys the
# firmware refuses while another object still uses theirs: run
# test_teardown_order under --trace, wait (up to 20 s) until the daemon
# traces the user context's destroy, and read the trace.
#   usage: test_teardown_order.sh MLX5_EMU TEST_PROGRAM
emu=$1
prog=$2
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$emu" run --devices 1 --trace -- sh -c '
	"$1" || exit 1
	i=0
	while ! grep -q "DESTROY_UCTX" "$2" && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done' sh "$prog" "$log" 2>"$log"
rc=$?
fail=0
check() {
	if [ "$1" -ge "$2" ]; then
		echo "ok: $3"
	else
		echo "FAILED: $3 ($1 < $2)"
		fail=1
	fi
}
[ $rc -eq 0 ] || { echo "FAILED: the program (exit $rc)"; cat "$log"; exit 1; }
check "$(grep -c 'DESTROY_FLOW_TABLE.*status 0x6' "$log")" 1 \
	"a table another table misses to was busy at first"
check "$(grep -c 'DESTROY_FLOW_TABLE.*status 0x0' "$log")" 2 \
	"both tables went"
check "$(grep -c 'DESTROY_RQ .*status 0x6' "$log")" 1 \
	"an RQ in an older RQT was busy at first"
check "$(grep -c 'DESTROY_RQ .*status 0x0' "$log")" 2 \
	"both RQs went"
check "$(grep -c 'DESTROY_UCTX.*status 0x0' "$log")" 1 \
	"the user context went, with nothing left in it"
check "$((1 - $(grep -c 'DESTROY_UCTX.*status 0x6' "$log")))" 1 \
	"no user context left busy"
[ $fail -eq 0 ] || cat "$log"
exit $fail

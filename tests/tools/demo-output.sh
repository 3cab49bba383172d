# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sourced by the tests that read the demo's output (name set first):
#   demo_run STATUS CMD...  runs CMD once, echoes its output (for ctest
#                           --output-on-failure) and wants exit STATUS
#   want PATTERN            a line of that output matches (grep -E)
#   demo_done               says ok or not, and exits 0 or 1
failed=0

demo_run() {
	local want_st=$1 st
	shift
	out=$("$@" 2>&1)
	st=$?
	printf '%s\n' "$out"
	if [ "$st" -ne "$want_st" ]; then
		echo "$name: FAIL: the demo exited $st, want $want_st" >&2
		failed=1
	fi
}

want() {
	if ! printf '%s\n' "$out" | grep -Eq -- "$1"; then
		echo "$name: FAIL: no line matching '$1'" >&2
		failed=1
	fi
}

demo_done() {
	[ "$failed" -eq 0 ] && echo "$name: ok"
	exit "$failed"
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The demo's answers to a wrong command line and to a machine without a
# device: exit status 2 and exactly one line on stderr, nothing on stdout.
#
#   demo-usage.sh DEMO

set -u
demo=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# expect STATUS PATTERN ARGS...: with status 2, stderr is one line that
# matches; with 0, stdout matches.
expect() {
	local want=$1 text=$2 st lines
	shift 2
	"$demo" "$@" >"$work/out" 2>"$work/err"
	st=$?
	lines=$(wc -l <"$work/err")
	if [ "$st" -ne "$want" ]; then
		echo "FAIL: demo $* exited $st, want $want" >&2
		cat "$work/out" "$work/err" >&2
		failed=$((failed + 1))
	elif [ "$want" -eq 2 ] && { [ "$lines" -ne 1 ] ||
		[ -s "$work/out" ] || ! grep -Eq -- "$text" "$work/err"; }; then
		echo "FAIL: demo $*: want one stderr line matching '$text'" >&2
		cat "$work/out" "$work/err" >&2
		failed=$((failed + 1))
	elif [ "$want" -eq 0 ] && ! grep -Eq -- "$text" "$work/out"; then
		echo "FAIL: demo $*: no '$text' on stdout" >&2
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
}

expect 0 '^Usage: mlx5-share-demo' --help
expect 2 "unknown option '--frobnicate'" --frobnicate
expect 2 "unexpected argument 'extra'" extra
expect 2 "option '--objects' needs a value" --objects
expect 2 "--objects wants a number from 1 to 1000000, not '0'" --objects 0
expect 2 "not 'ten'" --objects ten
expect 2 "not '-5'" --objects -5
expect 2 "not '1000001'" --objects 1000001

if ls /sys/class/infiniband/ 2>/dev/null | grep -q . ||
	[ -n "${MLX5_EMU_DIR:-}" ]; then
	echo "demo-usage: a device exists here: device-less cases not run"
else
	expect 2 '^mlx5-share-demo: no mlx5 device and --no-emulate given$' \
		--no-emulate
	expect 2 '^mlx5-share-demo: no RDMA device named mlx5_7 and --no-emulate given$' \
		--no-emulate --device mlx5_7
	# A copy with no mlx5-emu beside it and none on PATH: it says it
	# wants the emulator, then fails in one line.
	mkdir "$work/copy" && cp "$demo" "$work/copy/"
	PATH=/nonexistent "$work/copy/$(basename "$demo")" \
		>"$work/out" 2>"$work/err"
	st=$?
	if [ "$st" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q '^mlx5-share-demo: cannot start mlx5-emu' "$work/err"; then
		passed=$((passed + 1))
	else
		echo "FAIL: demo without mlx5-emu exited $st" >&2
		cat "$work/out" "$work/err" >&2
		failed=$((failed + 1))
	fi
fi

echo "demo-usage: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

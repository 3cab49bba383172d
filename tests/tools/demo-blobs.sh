#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Blobs saved by the demo (on the emulated mlx5_0), read back by the
# inspector: all good, judged against the right and the wrong device, and
# damaged copies (inspect-blobs.sh).  Runs under mlx5-emu with 2 devices.
#
#   demo-blobs.sh DEMO INSPECT BLOB_TOOL

set -u
demo=$1 inspect=$2 tool=$3
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

if ! "$demo" --no-emulate --device mlx5_0 --save-blobs "$work/blobs" \
	>"$work/demo.out" 2>&1; then
	cat "$work/demo.out"
	echo "demo-blobs: FAIL: the demo failed" >&2
	exit 1
fi
for f in devx_obj-0 devx_obj-1 devx_umem-0 var-0; do
	if [ ! -s "$work/blobs/$f.blob" ]; then
		echo "demo-blobs: FAIL: no $f.blob saved" >&2
		failed=1
	fi
done

# expect STATUS PATTERN ARGS...
expect() {
	local want=$1 text=$2 out st
	shift 2
	out=$("$inspect" "$@" 2>&1)
	st=$?
	if [ "$st" -ne "$want" ] || ! printf '%s\n' "$out" |
		grep -Eq -- "$text"; then
		echo "demo-blobs: FAIL: inspect $* exited $st (want $want)" \
			"or printed no '$text':" >&2
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		failed=1
	fi
}
expect 0 'type +2 \(flow counter\)' "$work/blobs/devx_obj-0.blob"
expect 0 'type +3 \(flow meter\)' "$work/blobs/devx_obj-1.blob"
expect 0 'device +ok \(blob from .*, mlx5_0 is ' --device mlx5_0 \
	"$work"/blobs/*.blob
expect 1 'device +bad: .* -> import fails with EXDEV' --device mlx5_1 \
	"$work/blobs/devx_obj-0.blob"
expect 2 'no RDMA device mlx5_9' --device mlx5_9 "$work/blobs/var-0.blob"

# Every byte of a blob is damaged in turn by tools-inspect-blobs already;
# here the named damages of each real blob are enough.
"$here/inspect-blobs.sh" "$inspect" "$tool" "$work/blobs" named || failed=1
[ "$failed" -eq 0 ] && echo "demo-blobs: ok"
exit "$failed"

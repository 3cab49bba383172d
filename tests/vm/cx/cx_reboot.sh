#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A blob saved in one boot of the VM and replayed in the next is refused
# with ESTALE (tests/e2e/test_reboot.c) on the emulated ConnectX function:
# the first boot saves a flow counter's blob and prints it on the
# console, the second gets it as a file, makes the same object again and
# replays the blob.  The guest has no disk, so the console carries it.
#
#   cx_reboot.sh QEMU WORK E2E_REBOOT   (the environment as cx_vm.sh's)
set -euo pipefail
qemu=$1 work=$2 prog=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
# both boots' kernel from the cache the single-boot tests share
export CX_CACHE=${CX_CACHE:-$(dirname "$work")/guest-cache}
blob=$work/saved.blob
rm -f "$blob"
st=0
CX_RUN="$prog --hw save /tmp/blob%busybox echo BLOB: \$(busybox xxd -p -c 4096 /tmp/blob)" \
	"$here/cx_vm.sh" "$qemu" "$work/boot1" "$here/guest_run.sh" "$prog" ||
	st=$?
if [ "$st" != 0 ]; then
	echo "cx_reboot: the first boot ended with $st"
	exit "$st"
fi
hex=$(sed -n 's/^BLOB: \([0-9a-f]*\)$/\1/p' "$work/boot1/console.log" |
	tail -1)
if [ -z "$hex" ]; then
	echo "FAIL cx_reboot: no blob on the first boot's console"
	exit 1
fi
python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]))' \
	"$blob" "$hex"
echo "cx_reboot: $(($(stat -c %s "$blob"))) bytes saved; booting again"
CX_RUN="$prog --hw load $blob" \
	exec "$here/cx_vm.sh" "$qemu" "$work/boot2" "$here/guest_run.sh" \
	"$prog" "$blob"

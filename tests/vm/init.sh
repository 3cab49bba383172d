#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The guest's /init (tests/vm/vm_prepare.sh puts it in the initramfs base):
# mounts the pseudo file systems, loads the modules /vm/conf asks for,
# brings rdma_rxe up on a dummy netdev unless told not to, runs each line
# of /vm/cmds and powers off.  Results go to the second serial port
# (/dev/ttyS1), away from the kernel's console on ttyS0: a line
# "== vm: exit RC LINE" after each command, then "== vm: done".
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/shm
mount -t tmpfs shm /dev/shm
out=/dev/ttyS1
[ -c $out ] || out=/dev/console
exec >$out 2>&1
stty -onlcr 2>/dev/null

VM_RXE=1
VM_MODPROBE=
. /vm/conf

bad() { echo "== vm: setup failed: $*"; echo "== vm: done"; poweroff -f; }
for m in $VM_MODPROBE; do
	modprobe "$m" || bad "modprobe $m"
done
if [ "$VM_RXE" = 1 ]; then
	# rxe computes its ICRC with the crc32 shash, which it asks for by
	# name: without crc32_generic 'rdma link add' fails with ENOENT.  The
	# dummy module makes dummy0 itself.
	for m in dummy crc32_generic rdma_rxe ib_uverbs; do
		modprobe "$m" || bad "modprobe $m"
	done
	ip link set dummy0 up || bad "ip link set dummy0 up"
	rdma link add rxe0 type rxe netdev dummy0 || bad "rdma link add rxe0"
fi
echo "== vm: kernel $(uname -r)"
while IFS= read -r line; do
	[ -n "$line" ] || continue
	echo "== vm: run $line"
	(cd /tmp && sh -c "$line") </dev/null
	echo "== vm: exit $? $line"
done </vm/cmds
echo "== vm: done"
sync
poweroff -f

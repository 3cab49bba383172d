#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs in the VM's guest (vm_mmap_pass.sh copies it there): loads the
# test module, whose load fails when a check fails, and prints what it
# said.
#
# Usage: mmap_pass_guest.sh MODULE.ko EXPECT
set -u
ko=$1 expect=$2
modprobe ib_core || { echo "FAIL: modprobe ib_core"; exit 1; }
dmesg -c >/dev/null
insmod "$ko" expect="$expect"
rc=$?
dmesg | sed -n 's/.*mmap_pass_test: //p'
if [ $rc != 0 ]; then
	echo "FAIL: insmod $(basename "$ko") expect=$expect exited $rc"
	exit 1
fi
rmmod mmap_pass_test

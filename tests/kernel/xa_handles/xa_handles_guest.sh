#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Runs in the VM's guest (vm_xarray_handles.sh copies it there): loads
# the XArray benchmark module, whose load fails when one of its checks
# fails, prints its table from the kernel log, then times PD pairs on
# rxe0.
#
# Usage: xa_handles_guest.sh MODULE.ko PD_PAIR_RATE PD_PAIRS [PARAM=V...]
set -u
ko=$1 pd=$2 pairs=$3
shift 3
echo "slab: $(grep '^radix_tree_node' /proc/slabinfo)" \
	"(name active_objs num_objs objsize objperslab pagesperslab ...)"
dmesg -c >/dev/null
insmod "$ko" "$@"
rc=$?
dmesg | sed -n 's/.*xa_handles_bench: //p'
if [ $rc != 0 ]; then
	echo "FAIL: insmod $(basename "$ko") exited $rc: a check failed"
	exit 1
fi
rmmod xa_handles_bench || exit 1
"$pd" rxe0 "$pairs"
